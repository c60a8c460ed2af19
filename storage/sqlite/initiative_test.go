package sqlite

import (
	"context"
	"errors"
	"testing"

	"zaria/core"
	"zaria/core/initiative"
	"zaria/storage/storagetest"
)

func TestInitiativeContract(t *testing.T) {
	storagetest.RunInitiative(t, func(t *testing.T) initiative.Store { return openTemp(t) })
}

func TestUndoContract(t *testing.T) {
	storagetest.RunUndo(t, func(t *testing.T) core.UndoStore { return openTemp(t) })
}

// A group upgrade moves the turn order to the new chat; when the new chat
// already has one (someone started a fight there first), it keeps its own.
func TestMoveChatMovesTurnOrder(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	put := func(chat core.ChatRef, name string) {
		t.Helper()
		if _, err := db.EditInitiative(ctx, chat, func(o *initiative.Order, _ bool) error {
			*o = initiative.Order{Open: true, Combatants: []initiative.Combatant{{Name: name, Key: name, Init: 10}}}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	first := func(chat core.ChatRef) string {
		t.Helper()
		o, err := db.Initiative(ctx, chat)
		if errors.Is(err, initiative.ErrNone) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return o.Combatants[0].Name
	}
	old, super := core.ChatRef{Platform: "telegram", ID: "-1"}, core.ChatRef{Platform: "telegram", ID: "-1001"}
	put(old, "orco")
	if _, err := db.MoveChat(ctx, old, super, nil); err != nil {
		t.Fatal(err)
	}
	if first(super) != "orco" || first(old) != "" {
		t.Fatalf("after the move: new %q, old %q", first(super), first(old))
	}
	old2, super2 := core.ChatRef{Platform: "telegram", ID: "-2"}, core.ChatRef{Platform: "telegram", ID: "-1002"}
	put(old2, "trasgo")
	put(super2, "ogro")
	if _, err := db.MoveChat(ctx, old2, super2, nil); err != nil {
		t.Fatal(err)
	}
	if first(super2) != "ogro" || first(old2) != "" {
		t.Fatalf("merged: new %q, old %q", first(super2), first(old2))
	}
}
