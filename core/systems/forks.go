package systems

import (
	"context"

	"zaria/core"
	"zaria/core/systems/engine"
)

// Forks finds the system a chat plays under a shipped system's key: its
// fork or own file of that key (core/systems/fork), nil when the chat
// plays the book.
type Forks interface {
	System(ctx context.Context, chat core.ChatRef, key string) (*engine.System, error)
}

// Forkable lists the shipped systems whose commands roll by a chat's
// fork (the others still read only the shipped file).
func Forkable() []string { return []string{"daegon", "rq", "dh"} }
