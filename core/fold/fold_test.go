package fold

import "testing"

func TestASCIIKeyIsKey(t *testing.T) {
	for _, s := range []string{"", " ", "Fuerza", "  Uso-Arma ", "a__b--c", "\tX\nY\r", "-lead", "trail_", "A1 b2", "~!@#", "x\x00y", "\x1f", "d%"} {
		if got, want := Key(s), fullKey(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzASCIIKey(f *testing.F) {
	f.Add("Uso-Arma")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Key(s), fullKey(s); got != want {
			t.Errorf("Key(%q) = %q, want %q", s, got, want)
		}
	})
}
