package fold

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
	"unicode"
)

// slowKey is Key without the ASCII fast path.
func slowKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(strings.TrimSpace(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'ς':
			r = 'σ'
		case r == '-' || r == '_' || unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSpace(b.String())
}

func TestASCIIKeyIsKey(t *testing.T) {
	for _, s := range []string{"", " ", "Fuerza", "  Uso-Arma ", "a__b--c", "\tX\nY\r", "-lead", "trail_", "A1 b2", "~!@#", "x\x00y", "\x1f", "d%"} {
		if got, want := Key(s), slowKey(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzASCIIKey(f *testing.F) {
	f.Add("Uso-Arma")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Key(s), slowKey(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	})
}
