package systems_test

import (
	"strings"
	"testing"

	"zaria/core"
)

// TestSavedRollMissingWordGivesAnExample: issue 23, item 6. "/sig" saved
// as "/daegon sigilo {1}" and typed alone said "A /sig le faltan palabras
// detrás: /daegon sigilo {1}", with nothing to type; now it offers a whole
// line (a difficulty Daegon reads there), and that line rolls.
func TestSavedRollMissingWordGivesAnExample(t *testing.T) {
	say := chatAs(t, fullBot(t), "alias-example", core.User{ID: "u1", Name: "Ana"}, true)
	say("/lang es")
	say("/pj crear Lyra")
	say("/pj poner sigilo 7")
	say("/alias sig /daegon sigilo {1}")
	got, isErr := say("/sig")
	want := "A /sig le faltan palabras detrás; por ejemplo: /sig d4 (es /daegon sigilo {1})"
	if !isErr || !strings.Contains(got, want) {
		t.Fatalf("/sig: %q, want %q", got, want)
	}
	if got, isErr := say("/sig d4"); isErr || !strings.Contains(got, "D4") {
		t.Errorf("the example does not roll: %q", got)
	}
	say("/lang el")
	say("/alias χτύπα /dh επίθεση μακρύ-σπαθί εναντίον {1}")
	if got, _ := say("!χτύπα"); !strings.Contains(got, "για παράδειγμα: !χτύπα ") {
		t.Errorf("!χτύπα: %q", got)
	}
}
