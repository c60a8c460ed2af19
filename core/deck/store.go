package deck

import (
	"context"
	"time"

	"zaria/core"
)

// Deck is a chat's deck of cards: its cards in order and which of them
// have been drawn since it was last shuffled. A built-in deck (Kind set)
// keeps no cards: they are the kind's, named in the reader's language.
type Deck struct {
	Name    string   // as typed: "Tarot", "Botín"
	Key     string   // fold.Key(Name), or the built-in's key
	Kind    string   // "" for a GM's deck; KindStandard, KindJokers, KindTarot
	Cards   []string // a GM's deck's cards
	Drawn   []int    // indexes of the cards drawn, in the order drawn
	Updated time.Time
}

// Store keeps the chat's decks and what was drawn from them. Every write
// is one transaction.
type Store interface {
	// SaveDeck creates or replaces the deck d.Key of chat. core.ErrQuota
	// when it is a new GM's deck (Kind "") and the chat already has max
	// of them (max ≤ 0: no limit).
	SaveDeck(ctx context.Context, chat core.ChatRef, d Deck, max int) error
	// Deck returns the deck key of chat, or core.ErrNotFound.
	Deck(ctx context.Context, chat core.ChatRef, key string) (Deck, error)
	// ListDecks returns the chat's decks ordered by Key.
	ListDecks(ctx context.Context, chat core.ChatRef) ([]Deck, error)
	// UpdateDeck reads the deck key (core.ErrNotFound when absent; a
	// zero Deck with Key set when absent and create is true), lets fn
	// change it and saves it, in one write transaction: two draws at
	// once never draw the same card. An error from fn changes nothing.
	UpdateDeck(ctx context.Context, chat core.ChatRef, key string, create bool, fn func(*Deck) error) error
	// DeleteDeck removes the deck key; core.ErrNotFound if absent.
	DeleteDeck(ctx context.Context, chat core.ChatRef, key string) error
}
