package fold

import (
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	if got := Cut("Ζαριά", 5); got != "Ζαριά" {
		t.Errorf("Cut at the length = %q", got)
	}
	if got := Cut("Ζαριάδα", 5); got != "Ζαρι…" {
		t.Errorf("Cut = %q", got)
	}
	// Issue 23: a quote is cut by characters, at a word where it can.
	for in, want := range map[string]string{
		"espada larga de dos manos": "espada larga de…",
		"πλεονέκτημαπλεονέκτημα":    "πλεονέκτημαπλεο…",
		"short": "short",
	} {
		if got := CutWord(in, 16); got != want {
			t.Errorf("CutWord(%q, 16) = %q, want %q", in, got, want)
		}
	}
	if got := StripAt("  @Drake "); got != "Drake" {
		t.Errorf("StripAt = %q", got)
	}
	long := "Ana\u202e\n" + strings.Repeat("é", 100)
	got := UserName(long)
	if strings.ContainsAny(got, "\u202e\n") || len([]rune(got)) != MaxUserName || !strings.HasPrefix(got, "Ana é") {
		t.Errorf("UserName = %q (%d characters)", got, len([]rune(got)))
	}
}
