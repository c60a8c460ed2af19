package matrix

// One command, one roll: the reply to an event is decided once. It is
// recorded (the outbox, matrix/out/<event>) before its first send, and a
// later run that handles the same event again (the process died before
// marking it handled) sends that record, never a new roll. Before it
// does, it looks in the room for what the dead run already sent, and
// sends only what is not there.
//
// The look must see everything the dead run sent, however far the
// homeserver's history lags behind its sends (Dendrite 0.13, loaded,
// shows an event seconds after it stored it, and forgets the transaction
// id of a send whose client died mid-request, so the same transaction
// sent again shows twice). No fixed wait is long enough for every load;
// a barrier is: the first time a run looks in a room it sends a hidden
// event of its own there (settleType, which clients do not show) and
// looks until that event is in the room's history. A homeserver orders
// one sender's events in a room (Dendrite holds a lock per room and
// sender around a send, up to the roomserver's ordered input), so every
// send of the dead run that reached the homeserver is older than the
// barrier, and in the history once the barrier is.
//
// What the look recognises: every event deliver sends carries answersField,
// the event it answers and which part of the answer it is. In encrypted
// rooms that is encrypted, but m.relates_to is not (Matrix keeps relations
// readable for the homeserver): the look reads only the bot's own events
// (a sender filter) and decrypts only those whose reply relation names the
// answered event's target.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/backoff"
)

// answersField is where every event of a reply names what it answers:
// {"event": the answered event (or a page post's id), "part": "reply",
// "chart", "file"…}.
const answersField = "org.zaria.answers"

// settleType is the barrier event's type: no client shows it.
var settleType = event.Type{Type: "org.zaria.settle", Class: event.MessageEventType}

const prefixOut = "matrix/out/"

func keyOut(txn id.EventID) string { return prefixOut + string(txn) }

// settleMax bounds the wait for a room's barrier: past it the look goes
// by what the history shows then (and says so in the log).
const settleMax = 2 * time.Minute

// settled remembers the rooms whose barrier this run has seen.
type settled struct {
	mu    sync.Mutex
	rooms map[id.RoomID]bool
}

func (s *settled) is(room id.RoomID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[room]
}

func (s *settled) set(room id.RoomID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rooms == nil {
		s.rooms = map[id.RoomID]bool{}
	}
	s.rooms[room] = true
}

// alreadySent is what the room holds of the bot's answer to t.txn, by
// part ("reply", "chart"…), each with its event: everything an earlier
// run sent, once this run's barrier is in the room's history (see the
// top of this file). since is when the answered event was sent (unix
// ms): no answer is older.
func (a *Adapter) alreadySent(ctx context.Context, t target, since int64) map[string]id.EventID {
	var barrier id.EventID
	if !a.settled.is(t.room) {
		txn := a.out.txnID(id.EventID(fmt.Sprint(a.started.UnixNano())), "settle "+string(t.room))
		b, err := a.send(ctx, t.room, settleType, map[string]any{"run": a.started.UnixMilli()}, txn)
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("barrier not sent; looking once", "room", t.room, "err", err)
			}
		} else {
			barrier = b
		}
	}
	deadline := time.Now().Add(settleMax)
	for looks := 1; ; looks++ {
		sent, seen := a.lookSent(ctx, t, since, barrier)
		if barrier == "" || seen {
			if seen {
				a.settled.set(t.room)
				a.log.Debug("room settled", "room", t.room, "looks", looks)
			}
			return sent
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if ctx.Err() == nil {
				a.log.Warn("the room's history did not catch up; going by what it shows", "room", t.room, "waited", settleMax)
			}
			return sent
		}
		if backoff.Sleep(ctx, settlePoll) != nil {
			return sent
		}
	}
}

// settlePoll is how often alreadySent looks while the history lags.
const settlePoll = 250 * time.Millisecond

// lookSent reads the bot's own events of the room, newest first, back to
// since (at most lookPages pages): the parts of the answer to t.txn found,
// and whether barrier (when not "") is among them.
func (a *Adapter) lookSent(ctx context.Context, t target, since int64, barrier id.EventID) (map[string]id.EventID, bool) {
	sent := map[string]id.EventID{}
	seen := false
	filter := &mautrix.FilterPart{Senders: []id.UserID{a.cli.UserID}}
	from := ""
	for page := 0; page < lookPages; page++ {
		var msgs *mautrix.RespMessages
		err := a.authed(ctx, func() (err error) {
			msgs, err = a.cli.Messages(ctx, t.room, from, "", mautrix.DirectionBackward, filter, 100)
			return err
		})
		if err != nil {
			if ctx.Err() == nil {
				a.log.Warn("look for an earlier reply", "room", t.room, "event", t.txn, "err", err)
			}
			return sent, false
		}
		older := false
		for _, e := range msgs.Chunk {
			if e.Sender != a.cli.UserID {
				continue // a homeserver that ignores the filter
			}
			if e.ID == barrier {
				seen = true
			}
			if e.Timestamp < since {
				older = true
				continue
			}
			if part, ok := a.answerPart(ctx, t, e); ok {
				if _, dup := sent[part]; !dup {
					sent[part] = e.ID
				}
			}
		}
		if older || msgs.End == "" || len(msgs.Chunk) == 0 || msgs.End == from {
			break
		}
		from = msgs.End
	}
	return sent, seen
}

// lookPages bounds how far back alreadySent reads the bot's events
// (pages of 100).
const lookPages = 5

// answerPart is the part of the answer to t.txn that e (an event of the
// bot) is, ok=false when it is none.
func (a *Adapter) answerPart(ctx context.Context, t target, e *event.Event) (string, bool) {
	e.RoomID = t.room
	e.Type.Class = event.MessageEventType
	if e.Type != event.EventMessage && e.Type != event.EventEncrypted {
		return "", false
	}
	if err := e.Content.ParseRaw(e.Type); err != nil {
		return "", false
	}
	if e.Type == event.EventEncrypted {
		// The relation is in clear: decrypt only what may be an answer.
		if c, ok := e.Content.Parsed.(*event.EncryptedEventContent); !ok || c.RelatesTo.GetReplyTo() != t.replyTo {
			return "", false
		}
		if a.crypto == nil {
			return "", false
		}
		d, err := a.crypto.Decrypt(ctx, e)
		if err != nil {
			return "", false
		}
		e = d
	}
	v, ok := e.Content.Raw[answersField].(map[string]any)
	if !ok || v["event"] != string(t.txn) {
		return "", false
	}
	part, _ := v["part"].(string)
	return part, part != ""
}

// replyOut reports whether the room holds the bot's reply to evt, an
// event given up after MaxCrashes: recorded, and found there.
func (a *Adapter) replyOut(ctx context.Context, evt *event.Event) bool {
	if _, ok := a.out.recorded(ctx, evt.ID); !ok {
		return false
	}
	t := target{room: evt.RoomID, replyTo: evt.ID, txn: evt.ID}
	if evt.Type == event.EventReaction {
		// A press is answered in reply to the message pressed.
		if rel := evt.Content.AsReaction().RelatesTo; rel.EventID != "" {
			t.replyTo = rel.EventID
		}
	}
	_, ok := a.alreadySent(ctx, t, evt.Timestamp)["reply"]
	return ok
}
