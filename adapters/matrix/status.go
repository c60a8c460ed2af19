package matrix

import (
	"context"
	"sync"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core/reply"
)

// A reply's Status (the chat's turn order) is one message per room,
// edited in place: the first is sent as a notice and its event id
// remembered; each change after is an m.replace edit of it (encrypted
// like any message in an encrypted room). The ids are kept in memory:
// after a restart the next change posts a new status message. Its ▶ and
// ⏹ buttons are not offered as reactions: players type !init siguiente.

// statusEvents remembers each room's status message by slot.
type statusEvents struct {
	mu  sync.Mutex
	ids map[string]id.EventID // room|slot → event id
}

func (s *statusEvents) get(room id.RoomID, slot string) id.EventID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[string(room)+"|"+slot]
}

func (s *statusEvents) set(room id.RoomID, slot string, evt id.EventID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]id.EventID{}
	}
	s.ids[string(room)+"|"+slot] = evt
}

// deliverStatus shows st, the room's status message of st.Slot: an edit
// of the one shown, or a new notice when there is none yet or the edit
// fails.
func (a *Adapter) deliverStatus(ctx context.Context, t target, st *reply.Reply) error {
	if prev := a.status.get(t.room, st.Slot); prev != "" {
		c := notice(st)
		c.SetEdit(prev)
		if _, err := a.send(ctx, t.room, event.EventMessage, c, a.txnID(t.txn, "status edit")); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return err
		}
	}
	c := notice(st)
	if t.thread != "" {
		c.RelatesTo = &event.RelatesTo{Type: event.RelThread, EventID: t.thread}
	}
	evt, err := a.send(ctx, t.room, event.EventMessage, c, a.txnID(t.txn, "status"))
	if err != nil {
		return err
	}
	a.status.set(t.room, st.Slot, evt)
	return nil
}

// mention adds the users a reply addresses (whose turn it is) to the
// notice's m.mentions, so their clients notify them.
func mention(c *event.MessageEventContent, users []string) {
	for _, u := range users {
		if len(u) > 1 && u[0] == '@' {
			if c.Mentions == nil {
				c.Mentions = &event.Mentions{}
			}
			c.Mentions.Add(id.UserID(u))
		}
	}
}
