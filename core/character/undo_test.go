package character_test

import (
	"testing"
	"time"

	"zaria/core"
	"zaria/core/character"
)

// A deleted character comes back whole with /pj deshacer, for whoever
// deleted it and for 15 minutes; not for anyone else, not twice, not
// later, and not over a character who took its name meanwhile.
func TestUndoDelete(t *testing.T) {
	h := newHarness(t, character.Limits{})
	chat := core.ChatRef{Platform: "test", ID: "undo"}
	h.ok(chat, ana, false, "/pj create Lyra")
	h.ok(chat, ana, false, "/pj set strength 4 athletics 2 hp 12/12")
	contains(t, h.ok(chat, ana, false, "/pj delete Lyra"), "/pj undo brings it back for 15 minutes")
	h.fails(chat, bob, false, "/pj undo", "Nothing to undo")
	contains(t, h.ok(chat, ana, false, "/pj undo"), "Lyra is back, with 3 values")
	contains(t, h.ok(chat, ana, false, "/pj"), "Lyra", "strength 4", "hp 12/12")
	h.fails(chat, ana, false, "/pj undo", "Nothing to undo")

	// Someone took the name: the undo waits for it.
	h.ok(chat, ana, false, "/pj delete Lyra")
	h.ok(chat, bob, false, "/pj create Lyra")
	h.fails(chat, ana, false, "/pj undo", "Another character called Lyra")
	h.ok(chat, bob, false, "/pj delete Lyra")
	contains(t, h.ok(chat, ana, false, "/pj undo"), "Lyra is back")

	// Past 15 minutes it is gone.
	h.ok(chat, ana, false, "/pj delete Lyra")
	h.clk.mu.Lock()
	h.clk.t = h.clk.t.Add(16 * time.Minute)
	h.clk.mu.Unlock()
	h.fails(chat, ana, false, "/pj undo", "Nothing to undo")
}
