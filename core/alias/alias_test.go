package alias_test

import (
	"testing"

	"zaria/core/alias"
)

func TestExpandPlaceholders(t *testing.T) {
	for _, tc := range []struct{ text, args, want string }{
		{"/dh ataque espada-larga vs {1}", "coraza", "/dh ataque espada-larga vs coraza"},
		{"/r {2}d{1}", "6 3", "/r 3d6"},
		{"/r 1d20 {*}", "+2 # ataque", "/r 1d20 +2 # ataque"},
		{"/r 1d20 {*}", "", "/r 1d20 "},
		{"/r 1d20", "+5", "/r 1d20 +5"},
		{"/r {x} {1}", "a", "/r {x} a"},
		{"/r {1", "a", "/r {1 a"},
		// Grouped rolls keep their braces; placeholders inside are filled.
		{"/r {1d20+{1}, 1d20+{1}}kh1", "5", "/r {1d20+5, 1d20+5}kh1"},
		{"/r {{1}d6, 2d8}kh1 {*}", "3 vs 9", "/r {3d6, 2d8}kh1 3 vs 9"},
		{"/r {1d20, 1d20}kh1+{2}", "x 4", "/r {1d20, 1d20}kh1+4"},
	} {
		got, err := alias.ExpandMax(alias.Alias{Name: "t", Text: tc.text}, tc.args, 0)
		if err != nil || got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, %v; want %q", tc.text, tc.args, got, err, tc.want)
		}
	}
	if _, err := alias.ExpandMax(alias.Alias{Name: "t", Text: "/r {2}"}, "a", 0); err == nil {
		t.Error("missing {2} accepted")
	}
	// The length is known before the text is built: exactly max fits.
	a := alias.Alias{Name: "t", Text: "/r {*}{1}"}
	if got, err := alias.ExpandMax(a, "ñá", 7); err != nil || got != "/r ñáñá" {
		t.Errorf("ExpandMax at the limit = %q, %v", got, err)
	}
	if _, err := alias.ExpandMax(a, "ñá", 6); err == nil {
		t.Error("ExpandMax over the limit accepted")
	}
}
