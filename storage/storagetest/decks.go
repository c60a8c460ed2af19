package storagetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"zaria/core"
	"zaria/core/deck"
)

// RunDecks checks a deck.Store: a deck round-trips with its cards and
// draws, the quota counts new GM's decks only, UpdateDeck is one
// transaction (concurrent draws never lose one; an error changes
// nothing), and chats share nothing.
func RunDecks(t *testing.T, open func(t *testing.T) deck.Store) {
	ctx := context.Background()
	s := open(t)
	botin := deck.Deck{Name: "Botín", Key: "botin", Cards: []string{"Espada", "Escudo", "Poción"}, Drawn: []int{2}, Updated: t0}
	must(t, s.SaveDeck(ctx, chatA, botin, 1))
	got, err := s.Deck(ctx, chatA, "botin")
	must(t, err)
	if got.Name != "Botín" || len(got.Cards) != 3 || got.Cards[1] != "Escudo" || len(got.Drawn) != 1 || got.Drawn[0] != 2 || !got.Updated.Equal(t0) {
		t.Fatalf("read back %+v", got)
	}
	wantErr(t, s.SaveDeck(ctx, chatA, deck.Deck{Name: "Otro", Key: "otro", Cards: []string{"a", "b"}}, 1), core.ErrQuota, "a second deck beyond 1")
	must(t, s.SaveDeck(ctx, chatA, botin, 1)) // replacing is not a new one
	// A built-in deck's state is not a GM's deck: no quota, created on use.
	_, err = s.Deck(ctx, chatA, deck.KindTarot)
	wantErr(t, err, core.ErrNotFound, "a tarot never drawn from")
	wantErr(t, s.UpdateDeck(ctx, chatA, deck.KindTarot, false, func(*deck.Deck) error { return nil }), core.ErrNotFound, "update without create")
	const draws = 8
	var wg sync.WaitGroup
	for i := range draws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.UpdateDeck(ctx, chatA, deck.KindTarot, true, func(d *deck.Deck) error {
				d.Kind, d.Name = deck.KindTarot, deck.KindTarot
				d.Drawn = append(d.Drawn, i)
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	tarot, err := s.Deck(ctx, chatA, deck.KindTarot)
	must(t, err)
	if tarot.Kind != deck.KindTarot || len(tarot.Drawn) != draws {
		t.Fatalf("after %d concurrent draws: %+v", draws, tarot)
	}
	boom := errors.New("boom")
	err = s.UpdateDeck(ctx, chatA, deck.KindTarot, true, func(d *deck.Deck) error {
		d.Drawn = nil
		return boom
	})
	wantErr(t, err, boom, "fn's error")
	if tarot, _ := s.Deck(ctx, chatA, deck.KindTarot); len(tarot.Drawn) != draws {
		t.Fatalf("a failed update changed the deck: %+v", tarot)
	}
	ds, err := s.ListDecks(ctx, chatA)
	must(t, err)
	if len(ds) != 2 || ds[0].Key != "botin" || ds[1].Key != deck.KindTarot {
		t.Fatalf("list %+v", ds)
	}
	for _, c := range []core.ChatRef{chatB, chatC} {
		if ds, err := s.ListDecks(ctx, c); err != nil || len(ds) != 0 {
			t.Fatalf("%s lists %d decks, %v", c, len(ds), err)
		}
		wantErr(t, s.DeleteDeck(ctx, c, "botin"), core.ErrNotFound, "delete from another chat")
	}
	must(t, s.DeleteDeck(ctx, chatA, "botin"))
	wantErr(t, s.DeleteDeck(ctx, chatA, "botin"), core.ErrNotFound, "delete twice")
}
