package sqlite

import (
	"testing"

	"zaria/core/deck"
	"zaria/storage/storagetest"
)

// TestDecksContract runs the decks' contract on a real file.
func TestDecksContract(t *testing.T) {
	storagetest.RunDecks(t, func(t *testing.T) deck.Store { return openTemp(t) })
}
