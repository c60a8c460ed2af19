package transfer

import (
	"context"
	"errors"

	"zaria/core"
	"zaria/core/sheet"
)

// ChatData is what /exportar writes and /importar restores.
type ChatData struct {
	Settings   core.Settings
	Characters []sheet.Character // Active marks each owner's active character
}

// ErrWouldDelete: an import without mayDelete would remove characters of
// the chat that the document lacks.
var ErrWouldDelete = errors.New("import would delete characters")

// Importer replaces a chat's data in one transaction.
type Importer interface {
	// ReplaceChat deletes every character (and active selection) of chat,
	// inserts d.Characters into chat (their ID and Chat are ignored; new IDs
	// are assigned; Created/Updated are kept when set), restores the active
	// selections from Character.Active, and replaces the chat's settings with
	// d.Settings, all or nothing, in one write transaction that holds the
	// write lock from its start. GMs, aliases and history are not touched.
	//
	// It returns the names of the chat's characters that were deleted
	// because d has no character of their Key. When there are some and
	// mayDelete is false, nothing is changed and the error is
	// ErrWouldDelete (with the names returned): the check and the write see
	// the same data, so a character created meanwhile is never lost
	// silently.
	ReplaceChat(ctx context.Context, chat core.ChatRef, d ChatData, mayDelete bool) (deleted []string, err error)
}
