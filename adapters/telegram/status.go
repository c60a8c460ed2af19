package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"zaria/core/reply"
)

// A reply's Status (the chat's turn order) is one live message per chat,
// and in a forum one per topic (topicSlot): the first one is sent and its
// message id remembered (sender.onSlot), also in the state store, so a
// restart edits the same message; the next ones edit it
// (editMessageText), and should Telegram refuse the edit for good (the
// message was deleted) a new one is sent and remembered instead. Whether
// a status is an edit or a first message is decided when it is sent
// (op.SlotEdit, sender.deliver), so two replies at once never make two
// status messages, and of several edits waiting in a chat's queue only
// the newest is sent.
//
// A fight command costs one send where it can (issue 36: a group may get
// 20 messages a minute, and a reply and its status edit were two): a
// reply whose Status is live (it has its ▶ ⏹ buttons) is posted with the
// status under it, as one message with both keyboards, and that message
// is the live status from then on (mergeStatus); the old one is no
// longer edited. /init ver posts the status anew the same way
// (reply.Reply.Post). The end of a fight (a status without buttons) edits
// the live one, so its buttons go.

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

// topicSlot is the slot of a status message in a forum topic: each topic
// where the turn order is used has its own status message, edited when
// the turn order changes from that topic.
func topicSlot(slot string, thread int) string {
	if thread == 0 {
		return slot
	}
	return slot + "@" + strconv.Itoa(thread)
}

// statusKey is where the state store keeps a chat's status message id.
func (o *outbox) statusKey(chat int64, slot string) string {
	return o.key + ".status." + slotKey(chat, slot)
}

// statusID is the message id of chat's status message of slot, 0 when
// none is known (remembered, else read from the state store: it survives
// a restart).
func (o *outbox) statusID(ctx context.Context, chat int64, slot string) int {
	if id := o.slots.get(chat, slot); id != 0 {
		return id
	}
	v, ok, err := o.state.State(ctx, o.statusKey(chat, slot))
	if err != nil {
		o.log.Warn("telegram status message id not read", "chat", chat, "err", err)
	}
	id, _ := strconv.Atoi(v)
	if ok && id > 0 {
		o.slots.set(chat, slot, id)
		return id
	}
	return 0
}

// statusSent records the message a status op was sent as (its API
// result), in memory and in the state store.
func (o *outbox) statusSent(ctx context.Context, chat int64, slot string, result json.RawMessage) {
	var m struct {
		MessageID int `json:"message_id"`
	}
	if json.Unmarshal(result, &m) != nil || m.MessageID == 0 {
		return
	}
	o.slots.set(chat, slot, m.MessageID)
	if err := o.state.SetState(ctx, o.statusKey(chat, slot), strconv.Itoa(m.MessageID)); err != nil {
		o.log.Warn("telegram status message id not saved", "chat", chat, "err", err)
	}
}

// addStatus adds the ops that show st, the chat's status message of
// st.Slot (in e's topic): an edit of the one shown, or a new message. Its buttons (▶
// next, ⏹ end) are actions like any reply's (actions.Store).
func (o *outbox) addStatus(ctx context.Context, e *entry, chat int64, replyTo int, st *reply.Reply) {
	kb := o.keyboard(ctx, chat, st, "", "")
	send := o.messageOps(chat, replyTo, st.Lines, kb)
	if len(send) != 1 {
		e.Ops = append(e.Ops, send...) // too long for one message: never edited
		return
	}
	send[0].Slot = topicSlot(st.Slot, e.thread)
	send[0].SlotEdit = !st.Post
	e.Ops = append(e.Ops, send[0])
}

// mergeStatus is rep with its live Status under its lines, as one
// message (the status's buttons after the reply's), or nil when rep is
// not such a reply: no status, a status without buttons (an ended
// fight), no lines, a file, a chart, a reply keyboard, or too long for
// one message.
func (o *outbox) mergeStatus(rep *reply.Reply) *reply.Reply {
	st := rep.Status
	if st == nil || len(st.Buttons) == 0 || len(rep.Lines) == 0 || rep.Error || rep.File != nil || rep.Chart != nil || rep.Keyboard != nil {
		return nil
	}
	m := *rep
	m.Status = nil
	m.Lines = append(append(append([]reply.Line(nil), rep.Lines...), reply.Line{}), st.Lines...)
	m.Buttons = append(append([]reply.Button(nil), rep.Buttons...), st.Buttons...)
	if len(splitHTML(m.Lines, o.cfg.MaxMessage)) != 1 {
		return nil
	}
	return &m
}

// markSlot makes the first message e sends to chat from op index from on
// the status message of slot: once sent, it is the one edited.
func markSlot(e *entry, from int, chat int64, slot string) {
	for _, o := range e.Ops[from:] {
		if o.Method == "sendMessage" && o.Chat == chat {
			o.Slot = slot
			return
		}
	}
}

// slotEditOp is the op that shows send (an op.SlotEdit) as an edit of
// message id, falling back to send itself (a new status message) when
// Telegram refuses the edit for good.
func slotEditOp(send *op, id int) *op {
	p := map[string]string{"message_id": strconv.Itoa(id), "text": send.Params["text"], "parse_mode": send.Params["parse_mode"],
		"link_preview_options": noPreview}
	if kb := send.Params["reply_markup"]; kb != "" {
		p["reply_markup"] = kb
	}
	fb := *send
	fb.SlotEdit = false
	return &op{Method: "editMessageText", Chat: send.Chat, Params: p, Fallback: []*op{&fb}}
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
			text := o.Params["text"]
			if i := strings.Index(text, "🔔"); i >= 0 {
				// The message has a bell already («🔔 Asalto 2», under
				// the page's «📱 Ana: …» too): that bell is the mention,
				// not a second one beside it.
				o.Params["text"] = text[:i] + strings.TrimSpace(links.String()) + text[i+len("🔔"):]
				return
			}
			o.Params["text"] = links.String() + text
			return
		}
	}
}
