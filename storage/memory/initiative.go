package memory

import (
	"context"
	"encoding/json"
	"fmt"

	"zaria/core"
	"zaria/core/initiative"
)

// Initiative returns the chat's turn order (a copy).
func (s *Store) Initiative(_ context.Context, chat core.ChatRef) (initiative.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, ok := s.inits[chat]
	if !ok {
		return initiative.Order{}, fmt.Errorf("memory: turn order of %s: %w", chat, initiative.ErrNone)
	}
	var o initiative.Order
	err := json.Unmarshal(doc, &o)
	return o, err
}

// EditInitiative changes the chat's turn order under the store's lock.
// Orders are kept encoded, so no caller shares a slice with the store.
func (s *Store) EditInitiative(_ context.Context, chat core.ChatRef, edit func(o *initiative.Order, ok bool) error) (initiative.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var o initiative.Order
	doc, ok := s.inits[chat]
	if ok {
		if err := json.Unmarshal(doc, &o); err != nil {
			return initiative.Order{}, err
		}
	}
	if err := edit(&o, ok); err != nil {
		return initiative.Order{}, err
	}
	if s.inits == nil {
		s.inits = map[core.ChatRef][]byte{}
	}
	if !o.Open && len(o.Combatants) == 0 {
		delete(s.inits, chat)
		return o, nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return initiative.Order{}, err
	}
	s.inits[chat] = b
	return o, nil
}
