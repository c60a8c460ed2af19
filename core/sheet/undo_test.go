package sheet_test

import (
	"testing"
	"time"

	"zaria/core"
	"zaria/internal/chattest"
)

// A deleted character comes back whole with /pj deshacer, for whoever
// deleted it and for 15 minutes; not for anyone else, not twice, not
// later, and not over a character who took its name meanwhile.
func TestUndoDelete(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	chat := core.ChatRef{Platform: "test", ID: "undo"}
	h.OK(chat, ana, false, "/pj create Lyra")
	h.OK(chat, ana, false, "/pj set strength 4 athletics 2 hp 12/12")
	contains(t, h.OK(chat, ana, false, "/pj delete Lyra"), "/pj undo brings it back for 15 minutes")
	h.Fails(chat, bob, false, "/pj undo", "Nothing to undo")
	contains(t, h.OK(chat, ana, false, "/pj undo"), "Lyra is back, with 3 values")
	contains(t, h.OK(chat, ana, false, "/pj"), "Lyra", "strength 4", "hp 12/12")
	h.Fails(chat, ana, false, "/pj undo", "Nothing to undo")

	// Someone took the name: the undo waits for it.
	h.OK(chat, ana, false, "/pj delete Lyra")
	h.OK(chat, bob, false, "/pj create Lyra")
	h.Fails(chat, ana, false, "/pj undo", "Another character called Lyra")
	h.OK(chat, bob, false, "/pj delete Lyra")
	contains(t, h.OK(chat, ana, false, "/pj undo"), "Lyra is back")

	// Past 15 minutes it is gone.
	h.OK(chat, ana, false, "/pj delete Lyra")
	h.Clock.Advance(16 * time.Minute)
	h.Fails(chat, ana, false, "/pj undo", "Nothing to undo")
}
