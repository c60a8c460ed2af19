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
	pads     pads                    // pads.go
	inits    map[core.ChatRef][]byte // initiative.go: each chat's turn order, encoded
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

// SetLang changes only the chat's language.
func (s *Store) SetLang(_ context.Context, chat core.ChatRef, lang string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.settings[chat].Clone()
	v.Lang = lang
	s.settings[chat] = v
	return nil
}

// SetOption changes only one option of the chat; an empty value removes it.
func (s *Store) SetOption(_ context.Context, chat core.ChatRef, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.settings[chat].Clone()
	if v.Options == nil {
		v.Options = map[string]string{}
	}
	if value == "" {
		delete(v.Options, key)
	} else {
		v.Options[key] = value
	}
	s.settings[chat] = v
	return nil
}
