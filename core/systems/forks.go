package systems

import (
	"context"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/systems/engine"
)

// Forks finds the system a chat plays under a shipped system's key: its
// fork or own file of that key (core/systems/fork), nil when the chat
// plays the book.
type Forks interface {
	System(ctx context.Context, chat core.ChatRef, key string) (*engine.System, error)
}

// chatSystem is the system the request's chat plays under key: its fork,
// or nil (the shipped file) when it has none or forks is nil.
func chatSystem(ctx context.Context, req *command.Request, forks Forks, key string) (*engine.System, error) {
	if forks == nil {
		return nil, nil
	}
	return forks.System(ctx, req.Msg.Chat, key)
}

// fileOrBook is sys, or the shipped file of key when sys is nil.
func fileOrBook(sys *engine.System, key string) *engine.System {
	if sys == nil {
		return engine.MustBuiltin(key)
	}
	return sys
}

// houseRules are the chat's choices of every house rule of file sys.
func houseRules(req *command.Request, sys *engine.System) map[string]string {
	out := map[string]string{}
	for _, h := range sys.File.HouseRules {
		out[h.Key] = houseRule(req, sys, h.Key)
	}
	return out
}

// houseRule is the chat's choice of house rule key: the one it set in
// /ajustes, else file sys's default (a fork's may differ from the
// book's), else the option's.
func houseRule(req *command.Request, sys *engine.System, key string) string {
	if v := req.Settings.Options[key]; v != "" {
		return v
	}
	if sys != nil {
		for _, h := range sys.File.HouseRules {
			if h.Key == key {
				return h.Default
			}
		}
	}
	return req.Option(key)
}
