package reply

import (
	"slices"
	"testing"
)

// What a log keeps of a reply: each line's text on one line, without
// invisible characters, empty lines left out.
func TestLines(t *testing.T) {
	r := &Reply{Lines: []Line{
		{B("🎲 Ana: "), C("1d20+5")},
		{T("\u200b")},
		{T("[14] + 5 = "), B("19\n/pj delete Drake")},
	}}
	want := []string{"🎲 Ana: 1d20+5", "[14] + 5 = 19 /pj delete Drake"}
	if got := Lines(r); !slices.Equal(got, want) {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
