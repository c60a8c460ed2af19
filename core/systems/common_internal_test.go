package systems

import (
	"testing"
)

func TestHalfAndSigned(t *testing.T) {
	for _, c := range []struct {
		v2     int
		es, en string
	}{{15, "7,5", "7.5"}, {14, "7", "7"}, {-9, "-4,5", "-4.5"}, {-1, "-0,5", "-0.5"}, {0, "0", "0"}} {
		if got := half("es", c.v2); got != c.es {
			t.Errorf("half(es, %d) = %q", c.v2, got)
		}
		if got := half("en", c.v2); got != c.en {
			t.Errorf("half(en, %d) = %q", c.v2, got)
		}
	}
	if signed("-4,5") != "−4,5" || signed("3") != "+3" || signed("0") != "0" {
		t.Error("signed")
	}
}

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
