package journal

import (
	"context"
	"fmt"
	"sync"
)

// Pruner is the optional StateStore method that bounds per-event keys: it
// keeps the keep newest keys under prefix (storage/sqlite).
type Pruner interface {
	PruneState(ctx context.Context, prefix string, keep int) (int, error)
}

// Prune keeps the keep newest keys under prefix, when st can.
func Prune(ctx context.Context, st StateStore, prefix string, keep int) error {
	p, ok := st.(Pruner)
	if !ok {
		return nil
	}
	if _, err := p.PruneState(ctx, prefix, keep); err != nil {
		return fmt.Errorf("prune %s: %w", prefix, err)
	}
	return nil
}

// Bounded writes per-event keys and prunes each prefix to its Keep newest
// every Every writes under it.
type Bounded struct {
	St    StateStore
	Keep  int
	Every int

	mu     sync.Mutex
	writes map[string]int
}

// Set stores key (under prefix) and prunes the prefix when its turn comes.
func (b *Bounded) Set(ctx context.Context, prefix, key, value string) error {
	if err := b.St.SetState(ctx, key, value); err != nil {
		return err
	}
	return b.Wrote(ctx, prefix)
}

// Wrote counts a write under prefix made elsewhere and prunes the prefix
// when its turn comes.
func (b *Bounded) Wrote(ctx context.Context, prefix string) error {
	b.mu.Lock()
	if b.writes == nil {
		b.writes = map[string]int{}
	}
	b.writes[prefix]++
	prune := b.writes[prefix] >= b.Every
	if prune {
		b.writes[prefix] = 0
	}
	b.mu.Unlock()
	if prune {
		return Prune(ctx, b.St, prefix, b.Keep)
	}
	return nil
}

// noSync is a state store that can write a record without an fsync of its
// own (storage/sqlite): the record survives a crash of the process, and
// power loss once the next synced write is done.
type noSync interface {
	SetStateNoSync(ctx context.Context, key, value string) error
}

// SetLazily writes key without an fsync of its own where st can: for the
// records an adapter writes while it handles an event, before the synced
// write of the event's journal entry (one fsync per event fewer each).
func SetLazily(ctx context.Context, st interface {
	SetState(ctx context.Context, key, value string) error
}, key, value string) error {
	if n, ok := st.(noSync); ok {
		return n.SetStateNoSync(ctx, key, value)
	}
	return st.SetState(ctx, key, value)
}
