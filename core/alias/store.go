package alias

import (
	"context"
	"time"

	"zaria/core"
)

// Alias is a saved roll: /alias ataque /dh ataque espada-larga vs {1}.
type Alias struct {
	UserID  string // owner; "" for an alias of the whole chat (made by a GM)
	Name    string // as typed: "ataque"
	Key     string // fold.Key(Name)
	Text    string // the command it stands for, with {1}, {2}… and {*}
	Created time.Time
}

// Store keeps saved rolls, per user of a chat or for the whole chat.
type Store interface {
	// SetAlias creates or replaces the alias (a.UserID, a.Key) of chat.
	// core.ErrQuota when it is new and its owner (the user, or the chat when
	// UserID is "") already has max aliases in the chat.
	SetAlias(ctx context.Context, chat core.ChatRef, a Alias, max int) error
	// Alias returns the alias key of userID in chat ("" = the chat's), or
	// core.ErrNotFound. It does not fall back from the user to the chat.
	Alias(ctx context.Context, chat core.ChatRef, userID, key string) (Alias, error)
	// ListAliases returns the aliases of userID in chat ("" = the chat's),
	// ordered by Key.
	ListAliases(ctx context.Context, chat core.ChatRef, userID string) ([]Alias, error)
	// DeleteAlias removes the alias key of userID ("" = the chat's);
	// core.ErrNotFound if absent.
	DeleteAlias(ctx context.Context, chat core.ChatRef, userID, key string) error
}
