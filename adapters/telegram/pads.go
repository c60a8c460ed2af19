package telegram

import (
	"context"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// Pad buttons (posted by /pad, and the choices a pad button asks for) are
// buttons like any other (buttons.go): their Actions fit their callback
// data, so they cost no write, and a press works after a restart and runs
// what the pad holds then.
//
// Telegram's limits (TestPadKeyboardLayout): callback data is 1-64 bytes,
// an inline keyboard holds at most maxKeyboardButtons buttons and
// maxRowButtons per row. A pad holds at most 25 buttons, so it always fits
// one keyboard; buttons past maxKeyboardButtons would be left off (and
// logged), never sent to be refused.
const (
	maxKeyboardButtons = 100
	maxRowButtons      = 8
	// shortLabel is the longest label (in characters) that shares a row
	// with another short one: two such buttons fit a phone's width.
	shortLabel = 12
)

// hasRunButtons reports whether rep carries pad buttons.
func hasRunButtons(rep *reply.Reply) bool {
	for _, b := range pressable(rep) {
		if b.Action.Kind == reply.ActRun {
			return true
		}
	}
	return false
}

// maxToast is the longest text of a press's toast (answerCallbackQuery:
// 0-200 characters).
const maxToast = 200

// pressButton runs a pad button (act, with the values chosen so far), or
// any button without a drawing of its own, for whoever pressed it. The
// roll is posted in reply to the pad's message (in its topic); what is not
// a roll (a notice: not your pad, a button since removed, a flood) is the
// press's toast only, so the chat never sees it, unless it is longer than
// a toast holds.
func (a *inbound) pressButton(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, chat *tgbotapi.Chat, msg core.Message, from who, act reply.Action) {
	rep, ok := a.d.Press(ctx, msg, act)
	if !ok || rep == nil {
		a.answerCallback(ctx, cq.ID, "")
		return
	}
	if rep.Alert {
		// For the presser's eyes only (a blind roll's 🙈 GM): a pop-up,
		// never a message of the chat (TestBlindRollGMButton).
		a.answerAlert(ctx, cq.ID, strings.TrimSpace(reply.PlainText(rep)))
		return
	}
	if rep.Error {
		if text := strings.TrimSpace(reply.PlainText(rep)); utf16Len(text) <= maxToast {
			a.answerCallback(ctx, cq.ID, text)
			return
		}
		// Too long for a toast: posted whole, as typing the command would,
		// rather than cut mid-instruction (TestPadPressLongError).
	}
	if rep.Keyboard != nil && !msg.Private && !rep.Error {
		// A button running /pad teclado: in a group the keyboard is
		// selective, given to the author of the message it replies to,
		// and a press has no message of its own (TestPadButtonShowingKeyboardInGroup).
		key := "pad.keyboard.type_it"
		if rep.Keyboard.Hide {
			key = "pad.keyboard.type_it_hide"
		}
		a.answerCallback(ctx, cq.ID, a.d.Text(a.out.replyLang(ctx, rep, msg), key))
		return
	}
	a.answerCallback(ctx, cq.ID, "")
	if edit := a.nextQuestion(ctx, chat.ID, cq.Message.MessageID, act, rep); edit != nil {
		e.Ops = append(e.Ops, edit)
		return
	}
	a.out.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
}

// nextQuestion is the edit that turns a question the bot asked (msgID,
// whose choice act was pressed) into the next one rep asks, so a button
// asking a weapon by group, then an armour, leaves one question in the
// chat rather than three (TestPadNextQuestionEditsInPlace); nil when rep
// is not a question or act was not pressed on one (the pad's own message
// is never edited). Should Telegram refuse the edit, the question is
// posted in reply, as before.
func (a *inbound) nextQuestion(ctx context.Context, chat int64, msgID int, act reply.Action, rep *reply.Reply) *op {
	if len(act.Values) == 0 || rep.Error || rep.Secret != nil || rep.Keyboard != nil || rep.File != nil || rep.Chart != nil || !hasRunButtons(rep) {
		return nil
	}
	chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
	kb := a.out.keyboard(ctx, chat, rep, "", "")
	if len(chunks) != 1 || kb == "" {
		return nil
	}
	return &op{Method: "editMessageText", Chat: chat, Params: map[string]string{
		"message_id": strconv.Itoa(msgID), "text": chunks[0], "parse_mode": "HTML",
		"link_preview_options": noPreview, "reply_markup": kb,
	}, Fallback: a.out.messageOps(chat, msgID, rep.Lines, kb)}
}
