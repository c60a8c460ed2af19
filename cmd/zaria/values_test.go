package main

import (
	"strings"
	"testing"

	"zaria/core"
)

// A value named with a hyphen (docs/characters.md: "-" and a space are
// the same) is read by the systems' checks; in /roll a "-" is a minus,
// so the hint names it as /roll reads it, and that spelling works in
// every command.
func TestHyphenatedValueHintWorksInRoll(t *testing.T) {
	r := testRouter(t, "es", nil)
	chat := core.ChatRef{Platform: "cli", ID: "hyphen"}
	send := sender(t, r, chat, "es")
	// No system: a Ζαριά sheet would start with "Fuerza" (issue 33), and
	// "fuerza-bruta" in /roll is then fuerza − bruta, as documented.
	send("/pj crear Drake")
	send("/pj poner fuerza-bruta 3")
	send("/pj poner atletismo 2")
	got := send("/tirar 1d20+fuerza-bruta")
	if !strings.Contains(got, "¿Quisiste decir fuerza_bruta?") {
		t.Fatalf("hint for a hyphenated value in /roll:\n%s", got)
	}
	for _, cmd := range []string{"/tirar 1d20+fuerza_bruta", "/zaria fuerza_bruta+atletismo dc15", "/zaria fuerza-bruta+atletismo dc15"} {
		if got := send(cmd); strings.Contains(got, "⚠️") || !strings.Contains(got, "3") {
			t.Errorf("%s did not read the value:\n%s", cmd, got)
		}
	}
}
