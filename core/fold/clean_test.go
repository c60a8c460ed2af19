package fold

import "testing"

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ana", "Ana"},
		{"Ana\n⚠️ El máster te ha expulsado", "Ana ⚠️ El máster te ha expulsado"},
		{"  Ana \t\r\n  Pérez  ", "Ana Pérez"},
		{"Dr\x00ake", "Drake"},
		{"Drake\u202Eekard", "Drakeekard"},
		{"Δρ\u200Bάκος", "Δράκος"},
		{"a\u2028b\u0085c", "a b c"},
		{"\x1b[31mred", "[31mred"},
		{"", ""},
		{"\n\n", ""},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The fast path (clean) agrees with the full cleaning on every input.
func TestCleanFastPath(t *testing.T) {
	for _, s := range []string{"Ana", "Ana Pérez", "Ana  Pérez", " Ana", "Ana ", "a\tb", "a\u00a0b", "a\u202eb",
		"Δράκος", "a\x7fb", "a\u0085b", "👨\u200d👩", "x\u2028y", "", " ", "a b c", "\uFEFFa", "a\u00adb", "e\u0301", "\x9a"} {
		if got, want := clean(s), cleaned(s) == s; got != want {
			t.Errorf("clean(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzCleanFastPath(f *testing.F) {
	f.Add("Ana\n⚠️")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := clean(s), cleaned(s) == s; got != want {
			t.Errorf("clean(%q) = %v, want %v", s, got, want)
		}
	})
}

func TestStripInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"1d6":                      "1d6",
		"1\u200bd6":                "1d6",
		"\ufeff/ro\u00adll\u200e":  "/roll",
		"a\u202eb\u2066c\u2069":    "abc",
		"línea\nnueva\t\u00a0ñ":    "línea\nnueva\t\u00a0ñ", // only the invisible ones go
		"\u200b\u200c\u200d\u2060": "",
	} {
		if got := StripInvisible(in); got != want {
			t.Errorf("StripInvisible(%q) = %q, want %q", in, got, want)
		}
	}
}

// Characters drawn as nothing at all go too: a name of Hangul fillers
// looked empty, a Mongolian vowel separator hid between letters, tags
// carry invisible ASCII.
func TestCleanDropsWhatIsDrawnAsNothing(t *testing.T) {
	for in, want := range map[string]string{
		"Dr\u180eake":                       "Drake",
		"\u3164\u3164":                      "",
		"\u115f\u1160Ana\uffa0":             "Ana",
		"A\u17b4n\u17b5a":                   "Ana",
		"An\u034fa\u206a":                   "Ana",
		"Ana\U000E0041\U000E0042\U000E007F": "Ana",
		"x\uFFF9y\uFFFBz\U0001D173":         "xyz",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
		if clean(in) {
			t.Errorf("clean(%q) says it is clean", in)
		}
		if got := StripInvisible(in); got != want && in != "\u3164\u3164" {
			t.Errorf("StripInvisible(%q) = %q, want %q", in, got, want)
		}
	}
}
