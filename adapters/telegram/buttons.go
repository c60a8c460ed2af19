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
	Shown      bool      `json:"s,omitempty"`  // the odds were added to the message
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

func (a *Adapter) saveButton(ctx context.Context, id string, rec *buttonRec) error {
	b, _ := json.Marshal(rec)
	if err := a.state.SetState(ctx, a.buttonKey(id), string(b)); err != nil {
		return err
	}
	if a.buttonsMade.Add(1)%256 == 0 {
		a.prune(ctx, a.j.key+".b.", a.cfg.MaxButtons)
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

// onButton runs a stored button: odds adds the odds of that roll to its
// message and rolls nothing; again rolls the command for whoever pressed
// it and says who.
func (a *Adapter) onButton(ctx context.Context, cq *tgbotapi.CallbackQuery, u update, e *entry, id, kind string, rec *buttonRec) {
	from := userOf(cq.From)
	chat := a.chatOf(ctx, cq.Message.Chat)
	ref := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}
	lang := a.lang(ctx, core.Message{Chat: ref, LangHint: from.lang})
	if kind == "o" {
		line := a.oddsLine(lang, rec.Odds)
		a.answerCallback(ctx, cq.ID, line)
		if rec.Shown {
			return
		}
		if rec.Text == "" {
			a.addReply(ctx, e, chat.ID, cq.Message.MessageID, &reply.Reply{Lines: []reply.Line{{reply.T(line)}}}, "")
			return
		}
		p := map[string]string{
			"message_id": strconv.Itoa(cq.Message.MessageID),
			"text":       rec.Text + "\n" + reply.HTML(reply.Text(line), ""),
			"parse_mode": "HTML", "disable_web_page_preview": "true",
		}
		if rec.AgainLabel != "" {
			kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonData(rec.AgainLabel, "b:"+id+":a"))))
			p["reply_markup"] = string(kb)
		}
		e.Ops = append(e.Ops, &op{Method: "editMessageText", Chat: chat.ID, Params: p})
		rec.Shown = true
		if err := a.saveButton(ctx, id, rec); err != nil {
			a.log.Warn("telegram button record not updated", "err", err)
		}
		return
	}
	private := chat.Type == "private"
	msg := core.Message{
		Chat:     ref,
		From:     core.User{ID: from.id, Name: from.name},
		ID:       strconv.Itoa(cq.Message.MessageID),
		LangHint: from.lang,
		Private:  private,
		FromGM:   !private && a.admins.isAdmin(ctx, chat.ID, cq.From.ID),
		BotName:  a.botName,
	}
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
