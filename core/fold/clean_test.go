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
