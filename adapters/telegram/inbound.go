package telegram

import (
	"log/slog"
	"time"

	"zaria/adapters/internal/actions"
	ajournal "zaria/adapters/internal/journal"
)

// inbound is the way in: an update becomes the core's Message (handle.go:
// onMessage) or a press of a button's Action (buttons.go, pads.go), an
// inline query its results (inline.go), a group upgrade a move of the
// chat (migrate.go). It asks the core through the port (Dispatcher) and
// hands each answer to the outbound side (outbox), which adds the
// operations to the update's journal entry; it calls the Bot API itself
// only for what cannot wait in the send queue: a button's toast
// (answerCallbackQuery), inline results, a document's download, the
// command menu, the chat's administrators.
type inbound struct {
	cfg     Config
	d       Dispatcher
	out     *outbox
	acts    *actions.Store
	admins  *admins
	c       *client
	log     *slog.Logger
	state   StateStore
	key     string // the journal key: the adapter's state keys start with it
	botName string
	now     func() time.Time
	send    *sender // told of a group's new id (migrate.go)

	marks    ajournal.Bounded // inline roll marks (pruned every 256)
	padLists padLists         // pads listed by empty inline queries (inline.go)
	moves    moves            // chats Telegram moved to a new id (migrate.go)
}
