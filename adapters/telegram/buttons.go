package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/actions"
	"zaria/adapters/internal/backoff"
	"zaria/core"
	"zaria/core/reply"
)

// Buttons. A reply's buttons are its Buttons' Actions, as the core made
// them; the adapter keeps them in the shared action store
// (adapters/internal/actions, over the state store, the newest MaxButtons
// records) and puts only the store's token in each button's callback data
// (at most 64 bytes). A press hands the Action the token stands for to
// core.Port.Press: the adapter never builds a command from a button.
//
// Buttons whose Actions fit their data are written nowhere (a pad); a
// roll's 🎲 and 📊 share one record, with the adapter's view of the message
// (oddsView), so that 📊 can add the core's odds line to that message
// (TestButtonsSurviveRestart).
//
// A press enters here (onCallback) and finds here who pressed and the
// answers that cannot wait in the send queue (a toast, a pop-up, made at
// once with one short retry): it never goes back to handle.go.

// maxCallbackData is the most bytes of a button's callback data.
const maxCallbackData = 64

// sender of a message as the core sees it.
type who struct {
	id      string
	name    string
	numeric int64 // Telegram user id, 0 for a chat posting as itself
	lang    string
}

func userOf(u *tgbotapi.User) who {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	return who{id: strconv.FormatInt(u.ID, 10), name: name, numeric: u.ID, lang: u.LanguageCode}
}

// answerCallback stops the button's spinner (Telegram waits about 15 s)
// and shows text as a toast, cut to Telegram's 0-200 characters
// (maxToast; TestToastCutToTelegramsLimit).
func (a *inbound) answerCallback(ctx context.Context, id, text string) {
	p := map[string]string{"callback_query_id": id}
	if text != "" {
		p["text"] = clip16(text, maxToast)
	}
	a.quickCall(ctx, "answerCallbackQuery", p)
}

// answerAlert answers a press with a pop-up the presser must close
// (show_alert), text cut to Telegram's 200 characters.
func (a *inbound) answerAlert(ctx context.Context, id, text string) {
	a.quickCall(ctx, "answerCallbackQuery", map[string]string{"callback_query_id": id, "text": clip16(text, maxToast), "show_alert": "true"})
}

// quickCall makes a call that only matters for a few seconds (callback and
// inline answers): one retry after a short retry_after, then give up.
func (a *inbound) quickCall(ctx context.Context, method string, p map[string]string) {
	for try := 0; try < 2; try++ {
		rctx, cancel := context.WithTimeout(ctx, min(a.cfg.RequestTimeout, 10*time.Second))
		_, err := a.c.call(rctx, method, p, nil)
		cancel()
		if err == nil {
			return
		}
		d, ok := retryAfter(err)
		if !ok || d > 5*time.Second || try == 1 {
			a.log.Warn("telegram "+method+" failed", "err", err)
			return
		}
		if backoff.Sleep(ctx, d) != nil {
			return
		}
	}
}

// onCallback runs a pressed button: the Action its data stands for
// (buttons.go), for whoever pressed it, or the placeholder of an inline
// roll. Data this bot did not make, or no longer keeps, is pressed as
// reply.ActGone: the core's answer is the toast.
func (a *inbound) onCallback(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry) {
	if cq.From == nil {
		return
	}
	from := userOf(cq.From)
	var chat *tgbotapi.Chat // the pressed message's, as the bot works with it
	if cq.Message != nil && cq.Message.Chat != nil {
		chat = a.chatOf(ctx, cq.Message.Chat)
		if chat.Type == "private" {
			a.padLists.forget(from.id) // a button there may run /pad add
		}
	}
	if strings.HasPrefix(cq.Data, "i:") && cq.InlineMessageID != "" && !cq.From.IsBot {
		a.onInlineButton(ctx, cq, e)
		return
	}
	if chat != nil && !cq.From.IsBot {
		if p, ok := a.acts.Resolve(ctx, cq.Data); ok {
			a.onPress(ctx, cq, e, chat, from, p)
			return
		}
	}
	msg := core.Message{From: core.User{ID: from.id, Name: from.name}, LangHint: from.lang, BotName: a.botName}
	if chat != nil {
		msg.Chat = core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}
	}
	text := ""
	if rep, ok := a.d.Press(ctx, msg, reply.Action{Kind: reply.ActGone}); ok && rep != nil {
		text = strings.TrimSpace(reply.PlainText(rep))
	}
	a.answerCallback(ctx, cq.ID, text)
}

// oddsView is what the adapter keeps with a roll's buttons to draw a
// press of 📊 (the message the buttons are on, to add the core's odds
// line to it): its keys are those of the record of earlier versions,
// which the store hands back as the view.
type oddsView struct {
	Who  string `json:"w,omitempty"` // who rolled
	Text string `json:"t,omitempty"` // HTML of the message the buttons are on
	// Shown: the odds were added to the message (or its picture sent).
	Shown bool `json:"s,omitempty"`
	// Labels of the buttons, in order; an earlier version's record has
	// only AgainLabel.
	Labels     []string `json:"l,omitempty"`
	AgainLabel string   `json:"al,omitempty"`
}

// onPress resolves a pressed button of a chat message: the Action its
// token stands for goes to the core, for whoever pressed it, and the
// answer is drawn by kind: 📊 adds the odds of that roll and rolls
// nothing, 🎲 says who rolled again, any other (a pad's) answers what is
// not a roll as the press's toast.
func (a *inbound) onPress(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, from who, p actions.Pressed) {
	msg := a.pressMessage(ctx, cq, e, chat, from)
	switch p.Action.Kind {
	case reply.ActOdds:
		a.pressOdds(ctx, cq, e, chat, msg, from, p)
	case reply.ActAgain:
		a.pressAgain(ctx, cq, e, chat, msg, from, p.Action)
	default:
		a.pressButton(ctx, cq, e, chat, msg, from, p.Action)
	}
}

// pressOdds answers 📊 with what the core's Press answers, and rolls
// nothing: the core decides whether there is anything to show (its rate
// limit) and gives the odds of that roll in one line (Reply.OddsLine)
// and the picture of its distribution, its result marked. The picture is
// sent when the adapter draws charts; else, or when it is refused, the
// line is added to the roll's message; a second press only toasts it.
// An answer without that line (the button of an earlier version, a
// flood's warning), or a button without the view of its message, is
// delivered as any reply.
func (a *inbound) pressOdds(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, msg core.Message, from who, p actions.Pressed) {
	rep, ok := a.d.Press(ctx, msg, p.Action)
	if !ok || rep == nil {
		a.answerCallback(ctx, cq.ID, "") // nothing to show: the spinner stops
		return
	}
	var v oddsView
	if rep.OddsLine == "" || p.ID == "" || p.Set.View == "" || json.Unmarshal([]byte(p.Set.View), &v) != nil {
		a.answerCallback(ctx, cq.ID, "")
		a.out.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
		return
	}
	if v.Shown {
		a.answerCallback(ctx, cq.ID, rep.OddsLine)
		return
	}
	shown := func() {
		v.Shown = true
		b, _ := json.Marshal(v)
		if err := a.acts.SetView(ctx, p.ID, string(b)); err != nil {
			a.log.Warn("telegram button record not updated", "err", err)
		}
	}
	edit := a.oddsEdit(chat.ID, cq.Message.MessageID, p, &v, rep.OddsLine)
	if a.cfg.Charts != nil && a.oddsPhoto(ctx, cq, e, chat.ID, msg, rep, edit) {
		shown()
		return
	}
	a.answerCallback(ctx, cq.ID, rep.OddsLine)
	if edit == nil {
		a.out.addReply(ctx, e, chat.ID, cq.Message.MessageID, &reply.Reply{Lines: []reply.Line{{reply.T(rep.OddsLine)}}}, "")
		return
	}
	e.Ops = append(e.Ops, edit)
	shown()
}

// oddsEdit is the edit that adds the odds line to the roll's message (and
// keeps its buttons but the odds), nil when the message's text is not
// known.
func (a *inbound) oddsEdit(chat int64, msgID int, p actions.Pressed, v *oddsView, line string) *op {
	if v.Text == "" {
		return nil
	}
	params := map[string]string{
		"message_id": strconv.Itoa(msgID),
		"text":       v.Text + "\n" + reply.HTML(reply.Text(line), ""),
		"parse_mode": "HTML", "link_preview_options": noPreview,
	}
	var row []tgbotapi.InlineKeyboardButton
	for i, act := range p.Set.Actions {
		label := v.AgainLabel
		if i < len(v.Labels) {
			label = v.Labels[i]
		}
		if act.Kind == reply.ActOdds || label == "" {
			continue
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(label, "b:"+p.ID+":"+strconv.Itoa(i)))
	}
	if len(row) > 0 {
		kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(row))
		params["reply_markup"] = string(kb)
	}
	return &op{Method: "editMessageText", Chat: chat, Params: params}
}

// pressMessage is the core's Message of a button press on a message of
// chat (in e's forum topic, the pressed message's).
func (a *inbound) pressMessage(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, from who) core.Message {
	private := chat.Type == "private"
	return core.Message{
		Thread:   threadRef(e.thread),
		Chat:     core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)},
		From:     core.User{ID: from.id, Name: from.name},
		ID:       strconv.Itoa(cq.Message.MessageID),
		LangHint: from.lang,
		Private:  private,
		FromGM:   !private && a.admins.isAdmin(ctx, chat.ID, cq.From.ID),
		BotName:  a.botName,
	}
}

// threadRef is a forum topic's message_thread_id as core.Message.Thread
// ("" outside topics); threadID reads it back (0 for none or a bad one).
func threadRef(thread int) string {
	if thread <= 0 {
		return ""
	}
	return strconv.Itoa(thread)
}

func threadID(ref string) int {
	n, err := strconv.Atoi(ref)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// oddsPhoto sends the picture of that roll's distribution (rep, the
// core's answer to its ActOdds: its command, its total marked) in reply
// to the roll's message, the odds as its caption, and toasts the core's
// odds line. false when there is no picture to send (the command has no
// odds of its own, no chart, the renderer fails): the caller shows the
// odds line instead. A photo Telegram refuses falls back to edit (or the
// line as a message).
func (a *inbound) oddsPhoto(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat int64, msg core.Message, rep *reply.Reply, edit *op) bool {
	line := rep.OddsLine
	if rep.Error || rep.Chart == nil {
		return false
	}
	img, err := a.cfg.Charts.PNG(ctx, rep.Chart, a.out.replyLang(ctx, rep, msg))
	if err != nil || len(img) == 0 {
		a.log.Error("telegram odds chart not drawn, adding the odds line instead", "chat", chat, "err", err)
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
	photo := &op{Method: "sendPhoto", Chat: chat, Params: params, Doc: &document{Field: "photo", Name: "odds.png", MIME: "image/png", Data: img}}
	if edit != nil {
		photo.Fallback = []*op{edit}
	} else {
		photo.Fallback = a.out.messageOps(chat, cq.Message.MessageID, []reply.Line{{reply.T(line)}}, "")
	}
	a.answerCallback(ctx, cq.ID, line)
	e.Ops = append(e.Ops, photo)
	return true
}

// pressAgain rolls again for whoever pressed it and says who.
func (a *inbound) pressAgain(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, msg core.Message, from who, act reply.Action) {
	a.answerCallback(ctx, cq.ID, "") // the spinner stops at once, however long the roll takes
	rep, ok := a.d.Press(ctx, msg, act)
	if !ok || rep == nil {
		return
	}
	if !rep.Error {
		header := reply.Line{reply.I(a.d.Text(a.out.replyLang(ctx, rep, msg), "tg.again.by", "name", from.name))}
		if rep.Secret == nil {
			rep.Lines = append([]reply.Line{header}, rep.Lines...)
		}
	}
	a.out.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
}
