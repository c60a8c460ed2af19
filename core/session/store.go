package session

import (
	"context"
	"time"

	"zaria/core"
)

// Session is a game session of a chat, between /sesion empezar and
// /sesion terminar.
type Session struct {
	ID      int64
	Title   string
	Started time.Time
	Ended   time.Time // zero while the session is open
	// Dropped is how many of its oldest entries were let go to keep the
	// log within MaxEvents: the file only counts them.
	Dropped int
	// DroppedRolls is how many of those were rolls.
	DroppedRolls int
}

// Open reports whether the session has not ended.
func (s Session) Open() bool { return s.Ended.IsZero() }

// Event is one entry of a session's log: a roll (any reply with a
// result) as the chat saw it, and for a secret or blind roll what only
// the GMs saw.
type Event struct {
	Time     time.Time
	UserName string
	Command  string
	Text     string // what the chat saw, one line per line
	Secret   string // what the roller and the GMs (blind: the GMs) saw; "" for a public roll
	Blind    bool
	// Roll: dice were rolled (a check, an initiative); false for the
	// fight's other entries (a turn, hit points, a condition), which the
	// log shows but its counts of rolls leave out.
	Roll bool
}

// Rolls is how many rolls a session's log holds, with its dropped ones.
func Rolls(ss Session, evs []Event) int {
	n := ss.DroppedRolls
	for _, e := range evs {
		if e.Roll {
			n++
		}
	}
	return n
}

// Store keeps the chat's sessions and their logs. Every write is one
// transaction.
type Store interface {
	// StartSession opens s in chat and returns it with its ID;
	// core.ErrExists when one is open already. The chat keeps at most
	// keep sessions: the oldest beyond go, with their logs.
	StartSession(ctx context.Context, chat core.ChatRef, s Session, keep int) (Session, error)
	// EndSession closes the open session at end; core.ErrNotFound when
	// none is open.
	EndSession(ctx context.Context, chat core.ChatRef, end time.Time) (Session, error)
	// LastSession returns the open session, else the last one that
	// ended; core.ErrNotFound when the chat never had one.
	LastSession(ctx context.Context, chat core.ChatRef) (Session, error)
	// AppendEvent adds e to the open session of chat, if one is open
	// (ok=false otherwise), keeping at most max entries: the oldest go
	// and are counted in Session.Dropped.
	AppendEvent(ctx context.Context, chat core.ChatRef, e Event, max int) (ok bool, err error)
	// OpenSessions returns the chats that have an open session.
	OpenSessions(ctx context.Context) ([]core.ChatRef, error)
	// Events returns the log of session id of chat, oldest first.
	Events(ctx context.Context, chat core.ChatRef, id int64) ([]Event, error)
}
