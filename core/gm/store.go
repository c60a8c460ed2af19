package gm

import (
	"context"
	"time"

	"zaria/core"
)

// GM is a user named game master of a chat with /gm add. Chat admins are
// GMs without being stored (the adapter says so in core.Message.FromGM).
type GM struct {
	UserID string // core.User.ID
	Name   string // display name when added
	Added  time.Time
}

// Store keeps the chat's named GMs. It satisfies command.GMStore.
type Store interface {
	// AddGM names gm.UserID GM of chat, in one write transaction that
	// checks the quota. Adding an existing GM updates the name, is not an
	// error and returns added=false. core.ErrQuota when the user is not a GM yet
	// and the chat already has max GMs (max ≤ 0 is no limit).
	AddGM(ctx context.Context, chat core.ChatRef, gm GM, max int) (added bool, err error)
	// RemoveGM removes userID from the chat's GMs; core.ErrNotFound if absent.
	RemoveGM(ctx context.Context, chat core.ChatRef, userID string) error
	// ListGMs returns the chat's GMs ordered by Added.
	ListGMs(ctx context.Context, chat core.ChatRef) ([]GM, error)
	// IsGM reports whether userID was named GM of chat.
	IsGM(ctx context.Context, chat core.ChatRef, userID string) (bool, error)
}
