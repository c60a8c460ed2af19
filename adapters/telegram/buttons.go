package telegram

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// Buttons are stored, one state row per reply with buttons
// (<journal key>.b.<id>), so that they keep working after a restart
// whatever the command's length; the callback data is "b:<id>:a" (again)
// or "b:<id>:o" (odds). The newest MaxButtons rows are kept
// (TestButtonsSurviveRestart). Data of older versions ("a:<command>",
// "A:<n>") is still understood.

// buttonRec is what a reply's buttons mean.
type buttonRec struct {
	Cmd        string    `json:"c"`
	Who        string    `json:"w,omitempty"`  // who rolled
	Text       string    `json:"t,omitempty"`  // HTML of the message the buttons are on
	AgainLabel string    `json:"al,omitempty"` // "" when there is no again button
	Odds       *oddsFact `json:"o,omitempty"`  // the odds of that roll, when it has an odds button
	Shown      bool      `json:"s,omitempty"`  // the odds were added to the message (or its picture sent)
	// OddsCmd and Actual are the odds button's Action (reply.ActOdds):
	// the command and the total of that roll, for its picture.
	OddsCmd string `json:"oc,omitempty"`
	Actual  *int64 `json:"n,omitempty"`
}

// oddsFact is the odds of one roll, from its reply.Check.
type oddsFact struct {
	Chance *float64 `json:"c,omitempty"`
	Exact  string   `json:"e,omitempty"` // "p/q"
	Mean   *float64 `json:"m,omitempty"`
	Approx bool     `json:"a,omitempty"`
}

// statePruner is the optional ability of the state store to bound keys
// written per event (storage/sqlite).
type statePruner interface {
	PruneState(ctx context.Context, prefix string, keep int) (int, error)
}

func (a *Adapter) buttonKey(id string) string { return a.j.key + ".b." + id }

func newButtonID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// keyboard builds the inline keyboard of a reply (or "") and stores what
// its buttons mean. text is the HTML of the message it goes on; who is
// the roller. A reply whose record cannot be stored gets the old,
// in-memory buttons (logged).
func (a *Adapter) keyboard(ctx context.Context, rep *reply.Reply, who, text string) string {
	if rep.Error || rep.Command == "" || len(rep.Buttons) == 0 {
		return ""
	}
	rec := buttonRec{Cmd: rep.Command, Who: who, Text: text}
	var row []tgbotapi.InlineKeyboardButton
	id := newButtonID()
	for _, b := range rep.Buttons {
		switch b.Kind {
		case reply.ButtonAgain:
			rec.AgainLabel = b.Label
			row = append(row, tgbotapi.NewInlineKeyboardButtonData(b.Label, "b:"+id+":a"))
		case reply.ButtonOdds:
			rec.Odds = oddsOf(rep.Check)
			if b.Action != nil && b.Action.Kind == reply.ActOdds {
				rec.OddsCmd, rec.Actual = b.Action.Command, b.Action.Actual
			}
			row = append(row, tgbotapi.NewInlineKeyboardButtonData(b.Label, "b:"+id+":o"))
		}
	}
	if len(row) == 0 {
		return ""
	}
	if rec.Odds == nil && rec.AgainLabel == "" {
		return ""
	}
	if err := a.saveButton(ctx, id, &rec); err != nil {
		a.log.Warn("telegram button not stored; it works until a restart", "err", err)
		return a.buttons.keyboard(rep)
	}
	kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(row))
	return string(kb)
}

// saveButton is only called while an update is handled: its record is
// written without an fsync of its own (noSync), as the journal write that
// follows before any reply is sent fsyncs it too.
func (a *Adapter) saveButton(ctx context.Context, id string, rec *buttonRec) error {
	b, _ := json.Marshal(rec)
	return a.writeRecord(ctx, a.buttonKey(id), string(b), true)
}

// saveRecord writes one button record; every 256th write prunes each kind
// to its newest MaxButtons: replies' buttons, pad choices (pads.go) and
// recent rolls offered inline (inline.go).
func (a *Adapter) saveRecord(ctx context.Context, key, value string) error {
	return a.writeRecord(ctx, key, value, false)
}

func (a *Adapter) writeRecord(ctx context.Context, key, value string, lazy bool) error {
	set := a.state.SetState
	if n, ok := a.state.(noSyncStore); ok && lazy {
		set = n.SetStateNoSync
	}
	if err := set(ctx, key, value); err != nil {
		return err
	}
	if a.buttonsMade.Add(1)%256 == 0 {
		for _, p := range [...]string{".b.", ".pa.", ".ir."} {
			a.prune(ctx, a.j.key+p, a.cfg.MaxButtons)
		}
	}
	return nil
}

// prune keeps the newest keep keys under prefix, when the store can.
func (a *Adapter) prune(ctx context.Context, prefix string, keep int) {
	p, ok := a.state.(statePruner)
	if !ok {
		return
	}
	if _, err := p.PruneState(ctx, prefix, keep); err != nil {
		a.log.Warn("telegram state not pruned", "prefix", prefix, "err", err)
	}
}

// loadButton reads the record of callback data "b:<id>:<kind>".
func (a *Adapter) loadButton(ctx context.Context, data string) (id, kind string, rec *buttonRec, ok bool) {
	rest, found := strings.CutPrefix(data, "b:")
	if !found {
		return "", "", nil, false
	}
	id, kind, found = strings.Cut(rest, ":")
	if !found || (kind != "a" && kind != "o") || len(id) != 16 {
		return "", "", nil, false
	}
	v, found, err := a.state.State(ctx, a.buttonKey(id))
	if err != nil {
		a.log.Warn("telegram button record not read", "err", err)
		return "", "", nil, false
	}
	if !found {
		return "", "", nil, false
	}
	rec = &buttonRec{}
	if json.Unmarshal([]byte(v), rec) != nil || !strings.HasPrefix(rec.Cmd, "/") {
		return "", "", nil, false
	}
	return id, kind, rec, true
}

func oddsOf(c *reply.Check) *oddsFact {
	if c == nil {
		return &oddsFact{}
	}
	return &oddsFact{Chance: c.Chance, Exact: c.ChanceExact, Mean: c.Mean, Approx: c.Approx}
}

// oddsLine is the localized odds line of a roll, as /roll … ? shows it.
func (a *Adapter) oddsLine(lang string, o *oddsFact) string {
	if o == nil {
		return a.d.OddsText(lang, nil)
	}
	return a.d.OddsText(lang, &reply.Check{Chance: o.Chance, ChanceExact: o.Exact, Mean: o.Mean, Approx: o.Approx})
}

// onButton runs a stored button: odds shows the odds of that roll and
// rolls nothing (the picture of its distribution, with its result marked,
// when the adapter draws charts; else, or when the picture is refused, the
// odds line added to its message); again rolls the command for whoever
// pressed it and says who.
func (a *Adapter) onButton(ctx context.Context, cq *tgbotapi.CallbackQuery, u update, e *entry, id, kind string, rec *buttonRec) {
	from := userOf(cq.From)
	chat := a.chatOf(ctx, cq.Message.Chat)
	ref := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}
	lang := a.lang(ctx, core.Message{Chat: ref, LangHint: from.lang})
	if kind == "o" {
		line := a.oddsLine(lang, rec.Odds)
		if rec.Shown {
			a.answerCallback(ctx, cq.ID, line)
			return
		}
		edit := a.oddsEdit(chat.ID, cq.Message.MessageID, id, rec, line)
		if a.cfg.Charts != nil && a.oddsPhoto(ctx, cq, e, chat, ref, from, rec, line, edit) {
			rec.Shown = true
			if err := a.saveButton(ctx, id, rec); err != nil {
				a.log.Warn("telegram button record not updated", "err", err)
			}
			return
		}
		a.answerCallback(ctx, cq.ID, line)
		if edit == nil {
			a.addReply(ctx, e, chat.ID, cq.Message.MessageID, &reply.Reply{Lines: []reply.Line{{reply.T(line)}}}, "")
			return
		}
		e.Ops = append(e.Ops, edit)
		rec.Shown = true
		if err := a.saveButton(ctx, id, rec); err != nil {
			a.log.Warn("telegram button record not updated", "err", err)
		}
		return
	}
	a.pressAgain(ctx, cq, e, chat, ref, from, rec)
}

// oddsEdit is the edit that adds the odds line to the roll's message (and
// keeps only its again button), nil when the message's text is not known.
func (a *Adapter) oddsEdit(chat int64, msgID int, id string, rec *buttonRec, line string) *op {
	if rec.Text == "" {
		return nil
	}
	p := map[string]string{
		"message_id": strconv.Itoa(msgID),
		"text":       rec.Text + "\n" + reply.HTML(reply.Text(line), ""),
		"parse_mode": "HTML", "link_preview_options": noPreview,
	}
	if rec.AgainLabel != "" {
		kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(rec.AgainLabel, "b:"+id+":a"))))
		p["reply_markup"] = string(kb)
	}
	return &op{Method: "editMessageText", Chat: chat, Params: p}
}

// pressMessage is the core's Message of a button press on a chat message.
func (a *Adapter) pressMessage(ctx context.Context, cq *tgbotapi.CallbackQuery, chat *tgbotapi.Chat, ref core.ChatRef, from who) core.Message {
	private := chat.Type == "private"
	return core.Message{
		Chat:     ref,
		From:     core.User{ID: from.id, Name: from.name},
		ID:       strconv.Itoa(cq.Message.MessageID),
		LangHint: from.lang,
		Private:  private,
		FromGM:   !private && a.admins.isAdmin(ctx, chat.ID, cq.From.ID),
		BotName:  a.botName,
	}
}

// oddsPhoto sends the picture of that roll's distribution (Press with
// reply.ActOdds: its command, its total marked) in reply to the roll's
// message, the odds as its caption, and toasts the odds line. false when
// there is no picture to send (the command has no odds of its own, no
// chart, the renderer fails): the caller shows the odds line instead. A
// photo Telegram refuses falls back to edit (or the line as a message).
func (a *Adapter) oddsPhoto(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, ref core.ChatRef, from who, rec *buttonRec, line string, edit *op) bool {
	cmd := rec.OddsCmd
	if cmd == "" {
		cmd = rec.Cmd
	}
	msg := a.pressMessage(ctx, cq, chat, ref, from)
	rep, ok := a.d.Press(ctx, msg, reply.Action{Kind: reply.ActOdds, Command: cmd, Actual: rec.Actual})
	if !ok || rep == nil || rep.Error || rep.Chart == nil {
		return false
	}
	img, err := a.cfg.Charts.PNG(ctx, rep.Chart, a.replyLang(ctx, rep, msg))
	if err != nil || len(img) == 0 {
		a.log.Error("telegram odds chart not drawn, adding the odds line instead", "chat", chat.ID, "err", err)
		return false
	}
	params := map[string]string{"parse_mode": "HTML"}
	setReplyTo(params, cq.Message.MessageID)
	chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
	if len(chunks) == 1 && utf16Len(stripHTML(chunks[0])) <= maxCaption {
		params["caption"] = chunks[0]
	} else {
		params["caption"] = reply.HTML(reply.Text(line), "")
	}
	photo := &op{Method: "sendPhoto", Chat: chat.ID, Params: params, Doc: &document{Field: "photo", Name: "odds.png", MIME: "image/png", Data: img}}
	if edit != nil {
		photo.Fallback = []*op{edit}
	} else {
		photo.Fallback = a.messageOps(chat.ID, cq.Message.MessageID, []reply.Line{{reply.T(line)}}, "")
	}
	a.answerCallback(ctx, cq.ID, line)
	e.Ops = append(e.Ops, photo)
	return true
}

// pressAgain rolls a stored again button's command for whoever pressed it.
func (a *Adapter) pressAgain(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, ref core.ChatRef, from who, rec *buttonRec) {
	msg := a.pressMessage(ctx, cq, chat, ref, from)
	a.answerCallback(ctx, cq.ID, "")
	rep, ok := a.d.Press(ctx, msg, reply.Action{Kind: reply.ActAgain, Command: rec.Cmd})
	if !ok || rep == nil {
		return
	}
	if !rep.Error {
		header := reply.Line{reply.I(a.d.Text(a.replyLang(ctx, rep, msg), "tg.again.by", "name", from.name))}
		if rep.Secret == nil {
			rep.Lines = append([]reply.Line{header}, rep.Lines...)
		}
	}
	a.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
}
