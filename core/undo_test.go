package core_test

import (
	"context"
	"testing"
	"time"

	"zaria/core"
	"zaria/internal/chattest"
)

// The one undo window: what was lost can be brought back for UndoFor,
// to the second, and never after; nothing lost (a zero time) never.
func TestUndoable(t *testing.T) {
	at := time.Date(2026, 12, 7, 21, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at, now time.Time
		want    bool
	}{
		{at, at, true},
		{at, at.Add(core.UndoFor), true},
		{at, at.Add(core.UndoFor + time.Second), false},
		{at, at.Add(24 * time.Hour), false},
		{time.Time{}, at, false},
	} {
		if got := core.Undoable(c.at, c.now); got != c.want {
			t.Errorf("Undoable(%v, %v) = %v", c.at, c.now, got)
		}
	}
	if core.UndoFor != 15*time.Minute {
		t.Errorf("UndoFor = %v; docs/characters.md, pads.md and fight.md say 15 minutes", core.UndoFor)
	}
}

// An undo keeps what was lost on a real database: taken once within the
// window, as it was; past the window, or for another user or kind,
// nothing; put back when it cannot be brought back yet.
func TestUndoKeepTake(t *testing.T) {
	ctx := context.Background()
	db := chattest.OpenDB(t, "")
	chat := core.ChatRef{Platform: "test", ID: "1"}
	pad := core.Undo{Store: db, Kind: "pad"}
	at := time.Date(2026, 12, 7, 21, 0, 0, 0, time.UTC)
	type lost struct{ Labels []string }
	if err := pad.Keep(ctx, chat, "u1", lost{[]string{"Ataque", "Daño"}}, at); err != nil {
		t.Fatal(err)
	}
	var got lost
	if _, ok, err := (core.Undo{Store: db, Kind: "character"}).Take(ctx, chat, "u1", &got, at); ok || err != nil {
		t.Errorf("another kind's undo: %v %v", ok, err)
	}
	if _, ok, err := pad.Take(ctx, chat, "u2", &got, at); ok || err != nil {
		t.Errorf("another user's undo: %v %v", ok, err)
	}
	putBack, ok, err := pad.Take(ctx, chat, "u1", &got, at.Add(core.UndoFor))
	if !ok || err != nil || len(got.Labels) != 2 || got.Labels[1] != "Daño" {
		t.Fatalf("Take = %v, %v, %v", got, ok, err)
	}
	if _, ok, _ := pad.Take(ctx, chat, "u1", &got, at); ok {
		t.Error("taken twice")
	}
	putBack()
	if _, ok, _ := pad.Take(ctx, chat, "u1", &got, at.Add(core.UndoFor+time.Second)); ok {
		t.Error("taken past the window")
	}
	if _, ok, err := (core.Undo{Kind: "pad"}).Take(ctx, chat, "u1", &got, at); ok || err != nil {
		t.Errorf("no store: %v %v", ok, err)
	}
}
