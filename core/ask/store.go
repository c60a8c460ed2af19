package ask

import (
	"context"
	"time"

	"zaria/core"
	"zaria/core/sheet"
)

// Request is a chat's request for a roll: the GM's check and, for each
// character asked, whether and how it was rolled.
type Request struct {
	ID      int64
	Check   string // the command each character rolls, as the GM typed it: "/zaria destreza+sigilo dc15", "/roll 1d20+percepción vs 14"
	Blind   bool   // the chat sees only that each one rolled; the GMs, the results
	GM      string // the user id of the GM who asked
	GMName  string
	Entries []Entry
	Closed  bool
	Created time.Time
	// Chances is each character's chance in one line ("Lyra 62 % ·
	// Drake 35 %"), for the GMs' 📊 button, at most reply.MaxSecret
	// characters; "" when there is none.
	Chances string
}

// Entry is one character asked and its roll, once it was rolled.
type Entry struct {
	Key       string // the character's key (fold.Key of its name)
	Name      string
	Owner     string // the owner's user id
	OwnerName string
	Rolled    bool
	ByGM      bool // a GM rolled it for the absent owner
	Total     *int
	Outcome   string   // the check's outcome ("success", "epic_win"…), "" when it names none
	Success   *bool    // nil when the check says neither
	Margin    *float64 // how far from what was needed, when the system says
}

// Store keeps the chats' requests for a roll.
type Store interface {
	// CreateAsk stores r as a new request of chat, gives it its ID and
	// forgets the chat's older ones beyond its keep newest (their buttons
	// then answer that the request is closed).
	CreateAsk(ctx context.Context, chat core.ChatRef, r Request, keep int) (Request, error)
	// Ask returns the request id of chat, or core.ErrNotFound.
	Ask(ctx context.Context, chat core.ChatRef, id int64) (Request, error)
	// UpdateAsk reads the request id of chat (core.ErrNotFound when it
	// is gone), lets fn change it and stores it, in one write
	// transaction; an error from fn changes nothing and is returned.
	UpdateAsk(ctx context.Context, chat core.ChatRef, id int64, fn func(*Request) error) (Request, error)
}

// Characters lists a chat's characters (core/sheet's store).
type Characters interface {
	ListCharacters(ctx context.Context, chat core.ChatRef) ([]sheet.Character, error)
}

// Lister lists a chat's open requests (storage/sqlite): what the page
// reads (Pending).
type Lister interface {
	// OpenAsks is chat's requests not closed, newest first.
	OpenAsks(ctx context.Context, chat core.ChatRef) ([]Request, error)
}
