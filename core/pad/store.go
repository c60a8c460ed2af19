package pad

import (
	"context"
	"errors"

	"zaria/core"
)

// Button is one roll of a pad: what it shows and the command it runs.
type Button struct {
	// ID is the stored button's id, unique in the whole store and never
	// reused: a press of an old message never reaches another button.
	ID      int64
	Label   string
	Command string
}

// Store keeps pads. A pad belongs to a chat and an owner: a user id (a
// player's personal pad) or "" (the chat's pad, made by its GMs). Its
// buttons are ordered; positions are 0-based here, 1-based for users.
// Every write is one transaction.
type Store interface {
	// PadButtons lists the pad of owner in chat, in order (empty: none).
	PadButtons(ctx context.Context, chat core.ChatRef, owner string) ([]Button, error)
	// AddPadButton appends b (its ID is ignored) and returns it with its
	// id. A pad that already has max buttons refuses it with ErrFull.
	AddPadButton(ctx context.Context, chat core.ChatRef, owner string, b Button, max int) (Button, error)
	// PadButton finds button id of chat, whoever owns it. ErrNotFound
	// when it is not (or no longer) there, or belongs to another chat.
	PadButton(ctx context.Context, chat core.ChatRef, id int64) (owner string, b Button, err error)
	// RemovePadButton deletes button id of owner's pad. ErrNotFound.
	RemovePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64) error
	// MovePadButton puts button id at position pos (clamped to the pad),
	// shifting the others. ErrNotFound.
	MovePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64, pos int) error
	// RenamePadButton changes the label of button id. ErrNotFound.
	RenamePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64, label string) error
	// ClearPad deletes every button of owner's pad and says how many.
	ClearPad(ctx context.Context, chat core.ChatRef, owner string) (int, error)
}

var (
	// ErrNotFound: no such button in that pad.
	ErrNotFound = errors.New("pad: button not found")
	// ErrFull: the pad has its maximum of buttons.
	ErrFull = errors.New("pad: pad is full")
)
