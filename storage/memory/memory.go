// Package memory is an in-memory settings store for tests and for running
// without a database file.
package memory

import (
	"context"
	"sync"

	"zaria/core"
)

// Store keeps settings in a map. The zero value is not usable; use New.
type Store struct {
	mu       sync.Mutex
	settings map[core.ChatRef]core.Settings
}

// New returns an empty store.
func New() *Store { return &Store{settings: map[core.ChatRef]core.Settings{}} }

// Settings returns a copy of the chat's settings.
func (s *Store) Settings(_ context.Context, chat core.ChatRef) (core.Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings[chat].Clone(), nil
}

// SaveSettings replaces the chat's settings.
func (s *Store) SaveSettings(_ context.Context, chat core.ChatRef, v core.Settings) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings[chat] = v.Clone()
	return nil
}
