package telegram

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"zaria/core/reply"
)

// A reply's Status (the chat's turn order) is one message per chat, and
// in a forum one per topic (topicSlot), edited in place: the first one is sent and its message id remembered
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
	kb := o.keyboard(ctx, st, "", "")
	send := o.messageOps(chat, replyTo, st.Lines, kb)
	if len(send) != 1 {
		e.Ops = append(e.Ops, send...) // too long for one message: never edited
		return
	}
	slot := topicSlot(st.Slot, e.thread)
	send[0].Slot = slot
	id := o.statusID(ctx, chat, slot)
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
