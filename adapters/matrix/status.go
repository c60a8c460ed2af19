package matrix

import (
	"context"
	"strings"
	"sync"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/actions"
	"zaria/core/reply"
)

// A reply's Status (the chat's turn order) is one message per room,
// edited in place: the first is sent as a notice and its event id
// remembered, in memory and in the state store (keyStatus), so a restart
// edits the same message; each change after is an m.replace edit of it
// (encrypted like any message in an encrypted room). Its buttons (▶
// next, ⏹ end) are reactions like a pad's keycaps: the notice carries
// their Actions (buttonsField), the bot offers ▶️ and ⏹️ under it, and a
// reaction (or taking one's reaction back, as Element does on a second
// tap) presses that button as the reactor; the core decides who may.

// statusEvents remembers each room's status message by slot.
type statusEvents struct {
	mu  sync.Mutex
	ids map[string]id.EventID // keyStatus → event id
}

func (s *statusEvents) get(key string) id.EventID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[key]
}

func (s *statusEvents) set(key string, evt id.EventID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]id.EventID{}
	}
	s.ids[key] = evt
}

// statusID is room's status message of slot, "" when none is known
// (remembered, else read from the state store: it survives a restart).
func (o *outbound) statusID(ctx context.Context, room id.RoomID, slot string) id.EventID {
	key := keyStatus(room, slot)
	if evt := o.status.get(key); evt != "" {
		return evt
	}
	v, ok, err := o.state.State(ctx, key)
	if err != nil {
		o.log.Warn("status message id not read", "room", room, "err", err)
	}
	if !ok || !strings.HasPrefix(v, "$") {
		return ""
	}
	o.status.set(key, id.EventID(v))
	return id.EventID(v)
}

// setStatusID records evt as room's status message of slot.
func (o *outbound) setStatusID(ctx context.Context, room id.RoomID, slot string, evt id.EventID) {
	key := keyStatus(room, slot)
	o.status.set(key, evt)
	if err := o.state.SetState(ctx, key, string(evt)); err != nil {
		o.log.Warn("status message id not saved", "room", room, "err", err)
	}
}

// deliverStatus shows st, the room's status message of st.Slot: an edit
// of the one shown, or a new notice (also when st asks to be posted anew) (with its buttons, then, budget
// allowing, their reactions) when there is none yet or the edit fails.
func (o *outbound) deliverStatus(ctx context.Context, t target, st *reply.Reply) error {
	// A status to be posted anew (/init ver: reply.Reply.Post) is a new
	// notice at the bottom of the room, the live one from then on.
	if prev := o.statusID(ctx, t.room, st.Slot); prev != "" && !st.Post {
		c := notice(st)
		c.SetEdit(prev)
		if _, err := o.hs.send(ctx, t.room, event.EventMessage, c, o.txnID(t.txn, "status edit")); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return err
		}
	}
	c := notice(st)
	if t.thread != "" {
		c.RelatesTo = &event.RelatesTo{Type: event.RelThread, EventID: t.thread}
	}
	var content any = c
	set, offer := buttonsOf(st, t)
	if len(set.Actions) > 0 {
		content = &event.Content{Parsed: c, Raw: map[string]any{buttonsField: actions.EncodeSet(set)}}
	}
	evt, err := o.hs.send(ctx, t.room, event.EventMessage, content, o.txnID(t.txn, "status"))
	if err != nil {
		return err
	}
	o.setStatusID(ctx, t.room, st.Slot, evt)
	if len(set.Actions) == 0 {
		return nil
	}
	// Kept for a press to read no event; never the room's newest pad (a
	// typed "!1" presses a pad, not the turn order).
	if err := o.acts.PutAt(ctx, keyPad(evt), set); err != nil {
		o.log.Error("save status buttons", "room", t.room, "event", evt, "err", err)
	}
	if !o.spare(t.room) {
		return nil
	}
	for _, key := range offer {
		r := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt, Key: key}}
		if _, err := o.hs.send(ctx, t.room, event.EventReaction, r, o.txnID(t.txn, "status offer "+key)); err != nil {
			return err
		}
	}
	return nil
}
