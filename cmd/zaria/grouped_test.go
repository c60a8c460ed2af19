package main

import (
	"strings"
	"testing"

	"zaria/core"
)

// Grouped rolls ({a, b}kh1) work where rolls are kept: a saved roll fills
// the placeholders inside the group (advantage with a modifier), and a
// pad button holds a group as it was typed.
func TestGroupedRollsInSavedRollsAndPads(t *testing.T) {
	r := testRouter(t, "en", nil)
	chat := core.ChatRef{Platform: "cli", ID: "groups"}
	send := sender(t, r, chat, "en")
	if got := send("/alias adv /roll {1d20+{1}, 1d20+{1}}kh1"); strings.HasPrefix(got, "⚠️") {
		t.Fatalf("saving a grouped roll: %s", got)
	}
	got := send("/adv 5")
	if !strings.HasPrefix(got, "🎲 {1d20+5, 1d20+5}kh1") || strings.Contains(got, "⚠️") {
		t.Errorf("/adv 5 did not roll the group with the placeholder filled:\n%s", got)
	}
	if got := send("/pad add {2d6, 1d12}kh1+1"); strings.HasPrefix(got, "⚠️") {
		t.Fatalf("adding a group to the pad: %s", got)
	}
	if got := send("/pad"); !strings.Contains(got, "{2d6, 1d12}kh1+1") {
		t.Errorf("the pad does not show the group:\n%s", got)
	}
}
