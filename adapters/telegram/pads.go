package telegram

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// Pad buttons (reply.ButtonRun, posted by /pad) are drawn as an inline
// keyboard whose callback data carries the button's reply.ActRun action:
//
//   - "p:<button id>" for a plain pad button: the id is the pad button's,
//     stored by the core, so a press works after a restart and runs what
//     the pad holds then. Nothing is stored by the adapter.
//   - "p:<button id>:<value>|<value>…" for a choice the core offers when
//     a button needs a value (Action.Values), when it fits Telegram's 64
//     bytes and no value holds a "|".
//   - "P:<16 hex digits>" otherwise: the action is kept in the adapter's
//     state (<journal key>.pa.<key>, pruned with the other button records)
//     and survives a restart (TestPadValuesRoundTrip). The key is a hash
//     of the action, so asking the same question again writes the same
//     records, not new ones (TestStoredChoicesDoNotGrowPerPress).
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
		if isRun(b) {
			return true
		}
	}
	return false
}

func isRun(b reply.Button) bool {
	return b.Kind == reply.ButtonRun && b.Action != nil && b.Action.Kind == reply.ActRun && b.Action.Button > 0
}

// padRows lays out pad buttons with the data of plain pad buttons (no
// values); see padRowsWith.
func padRows(bs []reply.Button) [][]tgbotapi.InlineKeyboardButton {
	return padRowsWith(bs, func(a *reply.Action) (string, bool) { return padDataInline(a) })
}

// padRowsWith lays out pad buttons: two per row when both labels are
// short, else one per row, in the pad's order. data gives a button's
// callback data; a button without any is left off.
func padRowsWith(bs []reply.Button, data func(*reply.Action) (string, bool)) [][]tgbotapi.InlineKeyboardButton {
	var rows [][]tgbotapi.InlineKeyboardButton
	n := 0
	prevShort := false
	for _, b := range bs {
		if !isRun(b) {
			continue
		}
		if n == maxKeyboardButtons {
			break
		}
		d, ok := data(b.Action)
		if !ok {
			continue
		}
		n++
		btn := tgbotapi.NewInlineKeyboardButtonData(b.Label, d)
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

// padDataInline is the callback data that carries a itself: "p:<id>" or
// "p:<id>:<v>|<v>…"; ok=false when it does not fit 64 bytes (or a value
// holds the separator).
func padDataInline(a *reply.Action) (string, bool) { return padDataIn(a, maxCallbackData) }

// padDataIn is padDataInline within room bytes.
func padDataIn(a *reply.Action, room int) (string, bool) {
	d := "p:" + strconv.FormatInt(a.Button, 10)
	if len(a.Values) == 0 {
		return d, true
	}
	for _, v := range a.Values {
		if strings.Contains(v, "|") || !utf8.ValidString(v) {
			return "", false
		}
	}
	d += ":" + strings.Join(a.Values, "|")
	return d, len(d) <= room
}

// padRecord is a pad action kept in the state, for data "P:<key>".
type padRecord struct {
	Button int64    `json:"b"`
	Values []string `json:"v"`
}

func (a *Adapter) padKey(key string) string { return a.j.key + ".pa." + key }

// padData is the callback data of pad action act: inline when it fits,
// else a stored record. ok=false when the record cannot be stored (logged):
// the button is left off rather than drawn dead.
func (a *Adapter) padData(ctx context.Context, act *reply.Action) (string, bool) {
	return a.padDataWithin(ctx, act, maxCallbackData)
}

// padDataWithin is padData within room bytes (at least the 18 of a
// stored key): the data of an inline message's button follows "i:<user>:".
func (a *Adapter) padDataWithin(ctx context.Context, act *reply.Action, room int) (string, bool) {
	if d, ok := padDataIn(act, room); ok {
		return d, true
	}
	b, _ := json.Marshal(padRecord{Button: act.Button, Values: act.Values})
	key := recordID(".pa.", b)
	if err := a.saveRecord(ctx, a.padKey(key), string(b)); err != nil {
		a.log.Warn("telegram pad choice not stored; its button is left off", "err", err)
		return "", false
	}
	return "P:" + key, true
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

// recordID is the key of a stored record whose value is rec: the first 16
// hex digits of its SHA-256, per kind, so the same record offered again
// (the same choice, the same recent roll) is written over, not added.
func recordID(kind string, rec []byte) string {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write(rec)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// padAction reads the callback data of a pad button (padData).
func (a *Adapter) padAction(ctx context.Context, data string) (reply.Action, bool) {
	if key, ok := strings.CutPrefix(data, "P:"); ok {
		if !hex16.MatchString(key) {
			return reply.Action{}, false
		}
		v, found, err := a.state.State(ctx, a.padKey(key))
		if err != nil {
			a.log.Warn("telegram pad choice not read", "err", err)
		}
		var rec padRecord
		if err != nil || !found || json.Unmarshal([]byte(v), &rec) != nil || rec.Button <= 0 {
			return reply.Action{}, false
		}
		return reply.Action{Kind: reply.ActRun, Button: rec.Button, Values: rec.Values}, true
	}
	rest, ok := strings.CutPrefix(data, "p:")
	if !ok {
		return reply.Action{}, false
	}
	idPart, vals, hasVals := strings.Cut(rest, ":")
	id, ok := padButtonID("p:" + idPart)
	if !ok || !utf8.ValidString(vals) {
		return reply.Action{}, false
	}
	act := reply.Action{Kind: reply.ActRun, Button: id}
	if hasVals {
		act.Values = strings.Split(vals, "|")
	}
	return act, true
}

// padKeyboard is the inline keyboard of a pad reply, or "".
func (a *Adapter) padKeyboard(ctx context.Context, rep *reply.Reply) string {
	rows := padRowsWith(rep.Buttons, func(act *reply.Action) (string, bool) { return a.padData(ctx, act) })
	if len(rows) == 0 {
		return ""
	}
	if n := len(rep.Buttons); n > maxKeyboardButtons {
		a.log.Warn("telegram pad keyboard cut to Telegram's limit", "buttons", n, "max", maxKeyboardButtons)
	}
	kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
	return string(kb)
}

// padButtonID reads callback data "p:<id>" (a plain pad button, no
// values; also the id of an inline result).
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

// maxToast is the longest text of a press's toast (answerCallbackQuery:
// 0-200 characters).
const maxToast = 200

// onPadButton runs a pad button (act, with the values chosen so far) for
// whoever pressed it. The roll is posted in reply to the pad's message (in
// its topic); what is not a roll (a notice: not your pad, a button since
// removed, a flood) is the press's toast only, so the chat never sees it,
// unless it is longer than a toast holds.
func (a *Adapter) onPadButton(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, act reply.Action) {
	from := userOf(cq.From)
	chat := a.chatOf(ctx, cq.Message.Chat)
	msg := a.pressMessage(ctx, cq, chat, core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}, from)
	rep, ok := a.d.Press(ctx, msg, act)
	if !ok || rep == nil {
		a.answerCallback(ctx, cq.ID, "")
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
		a.answerCallback(ctx, cq.ID, a.d.Text(a.replyLang(ctx, rep, msg), key))
		return
	}
	a.answerCallback(ctx, cq.ID, "")
	if edit := a.nextQuestion(ctx, chat.ID, cq.Message.MessageID, act, rep); edit != nil {
		e.Ops = append(e.Ops, edit)
		return
	}
	a.answer(ctx, e, msg, chat, cq.Message.MessageID, from, rep)
}

// nextQuestion is the edit that turns a question the bot asked (msgID,
// whose choice act was pressed) into the next one rep asks, so a button
// asking a weapon by group, then an armour, leaves one question in the
// chat rather than three (TestPadNextQuestionEditsInPlace); nil when rep
// is not a question or act was not pressed on one (the pad's own message
// is never edited). Should Telegram refuse the edit, the question is
// posted in reply, as before.
func (a *Adapter) nextQuestion(ctx context.Context, chat int64, msgID int, act reply.Action, rep *reply.Reply) *op {
	if len(act.Values) == 0 || rep.Error || rep.Secret != nil || rep.Keyboard != nil || rep.File != nil || rep.Chart != nil || !hasRunButtons(rep) {
		return nil
	}
	chunks := splitHTML(rep.Lines, a.cfg.MaxMessage)
	kb := a.padKeyboard(ctx, rep)
	if len(chunks) != 1 || kb == "" {
		return nil
	}
	return &op{Method: "editMessageText", Chat: chat, Params: map[string]string{
		"message_id": strconv.Itoa(msgID), "text": chunks[0], "parse_mode": "HTML",
		"link_preview_options": noPreview, "reply_markup": kb,
	}, Fallback: a.messageOps(chat, msgID, rep.Lines, kb)}
}
