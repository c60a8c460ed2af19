package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/core"
	"zaria/core/reply"
)

// A reply's Status (the chat's turn order) is one message per chat,
// edited in place: the first one is sent and its message id remembered
// (sender.onSlot), also in the state store, so a restart edits the same
// message; the next ones edit it (editMessageText), and should Telegram
// refuse the edit for good (the message was deleted) a new one is sent
// and remembered instead.

// statusSlots remembers the message id of each chat's status messages.
type statusSlots struct {
	mu  sync.Mutex
	ids map[string]int // slotKey → message id
}

func slotKey(chat int64, slot string) string { return strconv.FormatInt(chat, 10) + "|" + slot }

func (s *statusSlots) get(chat int64, slot string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[slotKey(chat, slot)]
}

func (s *statusSlots) set(chat int64, slot string, id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]int{}
	}
	s.ids[slotKey(chat, slot)] = id
}

// statusKey is where the state store keeps a chat's status message id.
func (a *Adapter) statusKey(chat int64, slot string) string {
	return a.j.key + ".status." + slotKey(chat, slot)
}

// statusID is the message id of chat's status message of slot, 0 when
// none is known (remembered, else read from the state store: it survives
// a restart).
func (a *Adapter) statusID(ctx context.Context, chat int64, slot string) int {
	if id := a.slots.get(chat, slot); id != 0 {
		return id
	}
	v, ok, err := a.state.State(ctx, a.statusKey(chat, slot))
	if err != nil {
		a.log.Warn("telegram status message id not read", "chat", chat, "err", err)
	}
	id, _ := strconv.Atoi(v)
	if ok && id > 0 {
		a.slots.set(chat, slot, id)
		return id
	}
	return 0
}

// statusSent records the message a status op was sent as (its API
// result), in memory and in the state store.
func (a *Adapter) statusSent(ctx context.Context, chat int64, slot string, result json.RawMessage) {
	var m struct {
		MessageID int `json:"message_id"`
	}
	if json.Unmarshal(result, &m) != nil || m.MessageID == 0 {
		return
	}
	a.slots.set(chat, slot, m.MessageID)
	if err := a.state.SetState(ctx, a.statusKey(chat, slot), strconv.Itoa(m.MessageID)); err != nil {
		a.log.Warn("telegram status message id not saved", "chat", chat, "err", err)
	}
}

// addStatus adds the ops that show st, the chat's status message of
// st.Slot: an edit of the one shown, or a new message.
func (a *Adapter) addStatus(ctx context.Context, e *entry, chat int64, replyTo int, st *reply.Reply) {
	kb := statusKeyboard(st.Buttons)
	send := a.messageOps(chat, replyTo, st.Lines, kb)
	if len(send) != 1 {
		e.Ops = append(e.Ops, send...) // too long for one message: never edited
		return
	}
	send[0].Slot = st.Slot
	id := a.statusID(ctx, chat, st.Slot)
	if id == 0 {
		e.Ops = append(e.Ops, send[0])
		return
	}
	p := map[string]string{"message_id": strconv.Itoa(id), "text": send[0].Params["text"], "parse_mode": "HTML",
		"link_preview_options": noPreview}
	if kb != "" {
		p["reply_markup"] = kb
	}
	e.Ops = append(e.Ops, &op{Method: "editMessageText", Chat: chat, Params: p, Fallback: send})
}

// statusKeyboard draws a reply's reply.ButtonPress buttons (the status
// message's ▶ ⏹, a pad's tray), four to a row: callback data
// "x:<action kind>" or "x:<kind>|<command>", the whole action; one that
// does not fit Telegram's 64 bytes is left out.
func statusKeyboard(bs []reply.Button) string {
	var rows [][]tgbotapi.InlineKeyboardButton
	for _, b := range bs {
		if b.Kind != reply.ButtonPress || b.Action == nil || b.Action.Button != 0 || len(b.Action.Values) > 0 {
			continue
		}
		data := "x:" + string(b.Action.Kind)
		if b.Action.Command != "" {
			data += "|" + b.Action.Command
		}
		if len(data) > maxCallbackData || strings.Contains(string(b.Action.Kind), "|") {
			continue
		}
		if len(rows) == 0 || len(rows[len(rows)-1]) == 4 {
			rows = append(rows, nil)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], tgbotapi.NewInlineKeyboardButtonData(b.Label, data))
	}
	if len(rows) == 0 {
		return ""
	}
	kb, _ := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
	return string(kb)
}

// hasPressButtons reports whether rep has buttons statusKeyboard draws.
func hasPressButtons(rep *reply.Reply) bool {
	for _, b := range rep.Buttons {
		if b.Kind == reply.ButtonPress && b.Action != nil {
			return true
		}
	}
	return false
}

// pressAction reads the callback data of a reply.ButtonPress button.
func pressAction(data string) (reply.Action, bool) {
	rest, ok := strings.CutPrefix(data, "x:")
	kind, cmd, _ := strings.Cut(rest, "|")
	if !ok || kind == "" {
		return reply.Action{}, false
	}
	return reply.Action{Kind: reply.ActionKind(kind), Command: cmd}, true
}

// onStatusButton presses a status message's button for whoever pressed
// it: a refusal (not your turn) is the toast; a reply is posted in the
// chat, and its status edits the message.
func (a *Adapter) onStatusButton(ctx context.Context, cq *tgbotapi.CallbackQuery, e *entry, act reply.Action) {
	from := userOf(cq.From)
	chat := a.chatOf(ctx, cq.Message.Chat)
	msg := a.pressMessage(ctx, cq, chat, core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat.ID, 10)}, from)
	rep, ok := a.d.Press(ctx, msg, act)
	if !ok || rep == nil {
		a.answerCallback(ctx, cq.ID, "")
		return
	}
	if text := strings.TrimSpace(reply.PlainText(rep)); rep.Error && utf16Len(text) <= maxToast {
		a.answerCallback(ctx, cq.ID, text)
		return
	}
	a.answerCallback(ctx, cq.ID, "")
	a.answer(ctx, e, msg, chat, 0, from, rep)
}

// mentionIn makes the first message of a reply (the ops of e from index
// from) notify the users it addresses (Reply.Mention: whose turn it is):
// a 🔔 linked to each one's tg://user, which Telegram delivers as a
// mention. Ids that are not Telegram user ids are left out.
func mentionIn(e *entry, from int, users []string) {
	var links strings.Builder
	for _, u := range users {
		if id, err := strconv.ParseInt(u, 10, 64); err == nil && id > 0 {
			links.WriteString(`<a href="tg://user?id=` + strconv.FormatInt(id, 10) + `">🔔</a> `)
		}
	}
	if links.Len() == 0 {
		return
	}
	for _, o := range e.Ops[from:] {
		if o.Method == "sendMessage" && o.Params["parse_mode"] == "HTML" {
			o.Params["text"] = links.String() + o.Params["text"]
			return
		}
	}
}
