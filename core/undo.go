package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// Undo is one kind of undo kept in an UndoStore: what a user lost (a
// deleted character, a cleared pad) kept as JSON with when it was lost,
// and brought back within UndoFor.
type Undo struct {
	Store UndoStore // nil: nothing can be undone
	Kind  string    // "character", "pad"
}

// Keep records v, just lost by userID in chat at now, replacing what
// they lost before.
func (u Undo) Keep(ctx context.Context, chat ChatRef, userID string, v any, now time.Time) error {
	if u.Store == nil {
		return errors.New("undo: no store")
	}
	doc, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("undo %s: %w", u.Kind, err)
	}
	return u.Store.PutUndo(ctx, chat, userID, u.Kind, doc, now)
}

// Take reads into v what userID lost last in chat and takes it from the
// store; ok is false when there is nothing lost within UndoFor of now.
// When it cannot be brought back after all (a name taken since, a pad
// filled again), putBack keeps it as it was.
func (u Undo) Take(ctx context.Context, chat ChatRef, userID string, v any, now time.Time) (putBack func(), ok bool, err error) {
	if u.Store == nil {
		return nil, false, nil
	}
	doc, at, err := u.Store.TakeUndo(ctx, chat, userID, u.Kind)
	if errors.Is(err, ErrNotFound) || err == nil && !Undoable(at, now) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("undo %s: %w", u.Kind, err)
	}
	if err := json.Unmarshal(doc, v); err != nil {
		return nil, false, fmt.Errorf("undo %s: %w", u.Kind, err)
	}
	return func() { _ = u.Store.PutUndo(ctx, chat, userID, u.Kind, doc, at) }, true, nil
}
