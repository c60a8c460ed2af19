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
	if got := StripAt("  @Drake "); got != "Drake" {
		t.Errorf("StripAt = %q", got)
	}
	long := "Ana\u202e\n" + strings.Repeat("é", 100)
	got := UserName(long)
	if strings.ContainsAny(got, "\u202e\n") || len([]rune(got)) != MaxUserName || !strings.HasPrefix(got, "Ana é") {
		t.Errorf("UserName = %q (%d characters)", got, len([]rune(got)))
	}
}
