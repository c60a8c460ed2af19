package core_test

import (
	"testing"
	"time"

	"zaria/core"
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
