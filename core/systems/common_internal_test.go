package systems

import (
	"testing"
)

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		toks int
		odds bool
	}{
		{"4+2 dc15", 2, false},
		{"4+2 dc15?", 2, true},
		{"¿4+2 dc15 ?", 2, true},
		{"4+2? dc15", 2, true},
		{"4+2 dc15;", 2, true},
		{"4+2 dc15\u037e", 2, true},
		{"  ", 0, false},
		{"??", 0, true},
	} {
		in := tokenize(c.in)
		if len(in.toks) != c.toks || in.odds != c.odds {
			t.Errorf("%q: %q odds %v", c.in, in.toks, in.odds)
		}
	}
}
