package systems_test

import (
	"strings"
	"testing"
)

// A terms input's parts are each in their range however many of them are
// typed: V5's pool is attribute (1–10) + skill (0–10) + extra dice, and
// "0+3" or "11+3" (two of three parts) was rolled as 3 or 14 dice. Two
// terms are refused with the same message as three.
func TestTermsPartsInRangeWhenFewerTyped(t *testing.T) {
	b := newBot(t, newSheets())
	for _, c := range []struct{ lang, words, want string }{
		{"es", "0+3", "«reserva» va de 1 a 10; has escrito 0."},
		{"es", "0+3+1", "«reserva» va de 1 a 10; has escrito 0."},
		{"el", "11+3", "Η τιμή «δεξαμενή ζαριών» πρέπει να είναι από 1 έως 10· έγραψες 11."},
		{"el", "11+3+1", "Η τιμή «δεξαμενή ζαριών» πρέπει να είναι από 1 έως 10· έγραψες 11."},
		{"en", "3+-1", "The pool goes from 0 to 10; you wrote -1."},
		{"en", "3+-1+2", "The pool goes from 0 to 10; you wrote -1."},
	} {
		rep := b.roll(c.lang, "/v5 "+c.words)
		if got := text(rep); !rep.Error || !strings.Contains(got, c.want) {
			t.Errorf("%s /v5 %s: %q, want %q", c.lang, c.words, got, c.want)
		}
	}
	// Two parts in range roll their sum: 3+2 is five dice.
	rep := b.roll("en", "/v5 3+2", 6, 6, 6, 6, 6)
	if rep.Error || !strings.Contains(text(rep), "🎲 6 6 6 6 6") {
		t.Errorf("/v5 3+2: %q", text(rep))
	}
}
