package storagetest

import (
	"context"
	"errors"
	"testing"

	"zaria/core/initiative"
)

// RunInitiative checks an initiative.Store: no order at first, an edit
// that fails writes nothing, a stored order reads back whole, chats are
// isolated, and an empty closed order is forgotten.
func RunInitiative(t *testing.T, open func(t *testing.T) initiative.Store) {
	ctx := context.Background()
	s := open(t)
	if _, err := s.Initiative(ctx, chatA); !errors.Is(err, initiative.ErrNone) {
		t.Fatalf("a new chat's order: %v, want ErrNone", err)
	}
	hp := 15
	o, err := s.EditInitiative(ctx, chatA, func(o *initiative.Order, ok bool) error {
		if ok {
			t.Fatalf("an order before any was stored")
		}
		*o = initiative.Order{Open: true, Round: 2, Current: "orco", NextSeq: 2, Combatants: []initiative.Combatant{
			{Name: "Lyra", Key: "lyra", Owner: "u1", Character: true, Init: 17, Seq: 0},
			{Name: "Orco", Key: "orco", Init: 9, Seq: 1, HP: &hp, MaxHP: &hp,
				Conditions: []initiative.Condition{{Name: "aturdido", Rounds: 2}}},
		}}
		return nil
	})
	must(t, err)
	if len(o.Combatants) != 2 {
		t.Fatalf("stored %+v", o)
	}
	got, err := s.Initiative(ctx, chatA)
	must(t, err)
	if !got.Open || got.Round != 2 || got.Current != "orco" || len(got.Combatants) != 2 ||
		got.Combatants[1].HP == nil || *got.Combatants[1].HP != 15 || got.Combatants[1].Conditions[0].Rounds != 2 ||
		got.Combatants[0].Owner != "u1" || !got.Combatants[0].Character {
		t.Fatalf("read back %+v", got)
	}
	if _, err := s.Initiative(ctx, chatB); !errors.Is(err, initiative.ErrNone) {
		t.Fatalf("another chat sees an order: %v", err)
	}

	// A failed edit changes nothing.
	boom := errors.New("boom")
	_, err = s.EditInitiative(ctx, chatA, func(o *initiative.Order, ok bool) error {
		if !ok {
			t.Fatalf("the stored order is not given to the edit")
		}
		o.Round = 99
		o.Combatants = nil
		return boom
	})
	wantErr(t, err, boom, "a failed edit")
	got, err = s.Initiative(ctx, chatA)
	must(t, err)
	if got.Round != 2 || len(got.Combatants) != 2 {
		t.Fatalf("a failed edit wrote %+v", got)
	}

	// Closed but with combatants: kept (for undo); empty and closed: gone.
	_, err = s.EditInitiative(ctx, chatA, func(o *initiative.Order, _ bool) error { o.Open = false; return nil })
	must(t, err)
	if got, err := s.Initiative(ctx, chatA); err != nil || got.Open {
		t.Fatalf("an ended order: %+v, %v", got, err)
	}
	_, err = s.EditInitiative(ctx, chatA, func(o *initiative.Order, _ bool) error { o.Combatants = nil; return nil })
	must(t, err)
	if _, err := s.Initiative(ctx, chatA); !errors.Is(err, initiative.ErrNone) {
		t.Fatalf("an empty closed order is still there: %v", err)
	}
}
