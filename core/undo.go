package core

import (
	"context"
	"time"
)

// UndoFor is how long what a user lost can be brought back with an undo:
// a deleted character (/pj deshacer), a cleared pad (/botones deshacer),
// an ended turn order (/init deshacer). One window for every undo, so
// that the replies that offer one say the same number of minutes.
const UndoFor = 15 * time.Minute

// Undoable reports whether what was lost at at can still be brought back
// at now.
func Undoable(at, now time.Time) bool { return !at.IsZero() && now.Sub(at) <= UndoFor }

// UndoStore keeps, per chat, user and kind ("character", "pad"), the
// last thing a user lost, as the JSON the core wrote, until it is taken
// (storage/sqlite implements it; a turn order keeps its own end time).
type UndoStore interface {
	// PutUndo replaces the user's last undo of that kind in chat.
	PutUndo(ctx context.Context, chat ChatRef, userID, kind string, doc []byte, at time.Time) error
	// TakeUndo removes and returns it; ErrNotFound when there is none.
	TakeUndo(ctx context.Context, chat ChatRef, userID, kind string) (doc []byte, at time.Time, err error)
}
