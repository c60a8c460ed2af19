package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// Pad buttons (reply.ButtonRun, posted by /pad) are drawn as an inline
// keyboard whose callback data is "p:<button id>": the id is the pad
// button's, stored by the core, so a press works after a restart and runs
// what the pad holds then. Nothing is stored by the adapter.
//
// Telegram's limits (TestPadKeyboardLayout): callback data is 1-64 bytes
// ("p:" and at most 19 digits: 21), an inline keyboard holds at most
// maxKeyboardButtons buttons and maxRowButtons per row. A pad holds at most
// 25 buttons, so it always fits one keyboard; buttons past
// maxKeyboardButtons would be left off (and logged), never sent to be
// refused.
const (
	maxKeyboardButtons = 100
	maxRowButtons      = 8
	// shortLabel is the longest label (in characters) that shares a row
	// with another short one: two such buttons fit a phone's width.
	shortLabel = 12
)

// hasRunButtons reports whether rep carries pad buttons.
func hasRunButtons(rep *reply.Reply) bool {
	for _, b := range rep.Buttons {
		if b.Kind == reply.ButtonRun && b.Action != nil && b.Action.Kind == reply.ActRun {
			return true
		}
	}
	return false
}

// padRows lays out pad buttons: two per row when both labels are short,
// else one per row, in the pad's order.
func padRows(bs []reply.Button) [][]tgbotapi.InlineKeyboardButton {
	var rows [][]tgbotapi.InlineKeyboardButton
	n := 0
	prevShort := false
	for _, b := range bs {
		if b.Kind != reply.ButtonRun || b.Action == nil || b.Action.Kind != reply.ActRun || b.Action.Button <= 0 {
			continue
		}
		if n == maxKeyboardButtons {
			break
		}
		n++
		btn := tgbotapi.NewInlineKeyboardButtonData(b.Label, "p:"+strconv.FormatInt(b.Action.Button, 10))
		short := utf8.RuneCountInString(b.Label) <= shortLabel
		if short && prevShort && len(rows) > 0 && len(rows[len(rows)-1]) == 1 {
			rows[len(rows)-1] = append(rows[len(rows)-1], btn)
			prevShort = false
			continue
		}
		rows = append(rows, []tgbotapi.InlineKeyboardButton{btn})
		prevShort = short
	}
	return rows
}

// padKeyboard is the inline keyboard of a pad reply, or "".
func (a *Adapter) padKeyboard(rep *reply.Reply) string {
	rows := padRows(rep.Buttons)
	if len(rows) == 0 {
		return ""
	}
	if n := len(rep.Buttons); n > maxKeyboardButtons {
		a.log.Warn("telegram pad keyboard cut to Telegram's limit", "buttons", n, "max", maxKeyboardButtons)
	}
	kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
	return string(kb)
}

// padButtonID reads callback data "p:<id>".
func padButtonID(data string) (int64, bool) {
	rest, ok := strings.CutPrefix(data, "p:")
	if !ok || rest == "" || len(rest) > 19 {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != rest {
		return 0, false
	}
	return id, true
}

// onPadButton runs a pad button for whoever pressed it. The roll is posted
// in reply to the pad's message (in its topic); what is not a roll (a
// notice: not your pad, a button since removed, a flood) is the press's
// toast only, so the chat never sees it.
func (a *Adapter) onPadButton(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, id int64) {
	from := userOf(cq.From)
	chat := a.chatOf(ctx, cq.Message.Chat)
	msg := a.pressMessage(ctx, cq, chat, core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}, from)
	rep, ok := a.d.Press(ctx, msg, reply.Action{Kind: reply.ActRun, Button: id})
	if !ok || rep == nil {
		a.answerCallback(ctx, cq.ID, "")
		return
	}
	if rep.Error {
		a.answerCallback(ctx, cq.ID, clip(strings.TrimSpace(reply.PlainText(rep)), 200))
		return
	}
	a.answerCallback(ctx, cq.ID, "")
	a.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
}
