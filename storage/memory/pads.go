package memory

import (
	"context"
	"fmt"

	"zaria/core"
	"zaria/core/pad"
)

// pads are the buttons of every pad, in order, by chat and owner.
type pads struct {
	byPad map[padKey][]pad.Button
	last  int64 // the last id given; ids are never reused
}

type padKey struct {
	chat  core.ChatRef
	owner string
}

func (s *Store) pad(chat core.ChatRef, owner string) []pad.Button {
	return s.pads.byPad[padKey{chat, owner}]
}

func (s *Store) setPad(chat core.ChatRef, owner string, bs []pad.Button) {
	if s.pads.byPad == nil {
		s.pads.byPad = map[padKey][]pad.Button{}
	}
	if len(bs) == 0 {
		delete(s.pads.byPad, padKey{chat, owner})
		return
	}
	s.pads.byPad[padKey{chat, owner}] = bs
}

func find(bs []pad.Button, id int64) int {
	for i, b := range bs {
		if b.ID == id {
			return i
		}
	}
	return -1
}

// PadButtons lists owner's pad in chat, in order.
func (s *Store) PadButtons(_ context.Context, chat core.ChatRef, owner string) ([]pad.Button, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]pad.Button(nil), s.pad(chat, owner)...), nil
}

// AddPadButton appends b; a pad with max buttons refuses it (pad.ErrFull).
func (s *Store) AddPadButton(_ context.Context, chat core.ChatRef, owner string, b pad.Button, max int) (pad.Button, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bs := s.pad(chat, owner)
	if max > 0 && len(bs) >= max {
		return pad.Button{}, fmt.Errorf("memory: %d buttons: %w", len(bs), pad.ErrFull)
	}
	s.pads.last++
	b.ID = s.pads.last
	s.setPad(chat, owner, append(bs[:len(bs):len(bs)], b))
	return b, nil
}

// PadButton finds button id of chat, whoever owns it.
func (s *Store) PadButton(_ context.Context, chat core.ChatRef, id int64) (string, pad.Button, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, bs := range s.pads.byPad {
		if i := find(bs, id); k.chat == chat && i >= 0 {
			return k.owner, bs[i], nil
		}
	}
	return "", pad.Button{}, fmt.Errorf("memory: pad button %d in %s: %w", id, chat, pad.ErrNotFound)
}

// edit changes a copy of owner's pad with fn, given the index of id.
func (s *Store) edit(chat core.ChatRef, owner string, id int64, fn func(bs []pad.Button, i int) []pad.Button) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	bs := append([]pad.Button(nil), s.pad(chat, owner)...)
	i := find(bs, id)
	if i < 0 {
		return fmt.Errorf("memory: pad button %d in %s: %w", id, chat, pad.ErrNotFound)
	}
	s.setPad(chat, owner, fn(bs, i))
	return nil
}

// RemovePadButton deletes button id of owner's pad.
func (s *Store) RemovePadButton(_ context.Context, chat core.ChatRef, owner string, id int64) error {
	return s.edit(chat, owner, id, func(bs []pad.Button, i int) []pad.Button { return append(bs[:i], bs[i+1:]...) })
}

// MovePadButton puts button id at position pos (clamped).
func (s *Store) MovePadButton(_ context.Context, chat core.ChatRef, owner string, id int64, pos int) error {
	return s.edit(chat, owner, id, func(bs []pad.Button, i int) []pad.Button {
		b := bs[i]
		rest := append(bs[:i:i], bs[i+1:]...)
		pos = min(max(pos, 0), len(rest))
		return append(append(append([]pad.Button{}, rest[:pos]...), b), rest[pos:]...)
	})
}

// RenamePadButton changes the label of button id.
func (s *Store) RenamePadButton(_ context.Context, chat core.ChatRef, owner string, id int64, label string) error {
	return s.edit(chat, owner, id, func(bs []pad.Button, i int) []pad.Button { bs[i].Label = label; return bs })
}

// ClearPad deletes owner's pad.
func (s *Store) ClearPad(_ context.Context, chat core.ChatRef, owner string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.pad(chat, owner))
	s.setPad(chat, owner, nil)
	return n, nil
}
