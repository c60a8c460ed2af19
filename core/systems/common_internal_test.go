package systems

import (
	"math/big"
	"testing"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		p      *big.Rat
		es, en string
	}{
		{big.NewRat(45, 100), "45 %", "45%"},
		{big.NewRat(9159, 10000), "91,59 %", "91.59%"},
		{big.NewRat(131, 250), "52,4 %", "52.4%"},
		{big.NewRat(79763, 279936), "28,49 %", "28.49%"},
		{big.NewRat(1, 3), "33,33 %", "33.33%"},
		{big.NewRat(2, 3), "66,67 %", "66.67%"},
		{big.NewRat(1, 200000), "<0,01 %", "<0.01%"},
		{big.NewRat(199999, 200000), ">99,99 %", ">99.99%"},
		{big.NewRat(1, 20000), "0,01 %", "0.01%"}, // 0.005 % rounds half up
		{big.NewRat(0, 1), "0 %", "0%"},
		{big.NewRat(1, 1), "100 %", "100%"},
		{big.NewRat(35, 1728), "2,03 %", "2.03%"},
		{big.NewRat(1, 20), "5 %", "5%"},
	} {
		if got := percent("es", c.p); got != c.es {
			t.Errorf("es %s: %q, want %q", c.p.RatString(), got, c.es)
		}
		if got := percent("el", c.p); got != c.es {
			t.Errorf("el %s: %q, want %q", c.p.RatString(), got, c.es)
		}
		if got := percent("en", c.p); got != c.en {
			t.Errorf("en %s: %q, want %q", c.p.RatString(), got, c.en)
		}
	}
}

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
