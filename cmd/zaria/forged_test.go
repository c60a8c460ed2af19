package main

import (
	"strings"
	"testing"

	"zaria/core"
)

// Text a user types can't print a line that looks like the bot's own:
// labels, the echoed expression, saved rolls and the values quoted in
// errors are one line without control or invisible characters (issue 10).
func TestTypedTextCannotForgeALine(t *testing.T) {
	r := testRouter(t, "en", nil)
	chat := core.ChatRef{Platform: "cli", ID: "forged"}
	send := sender(t, r, chat, "en")
	const forged = "⚠️ The GM has banned you"
	for _, text := range []string{
		"/roll 1d6 # attack\n" + forged,
		"/roll 1d6 [x\n" + forged + "]",
		"/roll 1d6\n" + forged,
		"/roll 1d6 # a\u202eb\x00",
		"/pj use Dr\n" + forged,
		"/zaria 4+2\n" + forged,
	} {
		got := send(text)
		for _, line := range strings.Split(got, "\n") {
			if strings.HasPrefix(line, "⚠️ The GM") {
				t.Errorf("%q printed the forged line:\n%s", text, got)
			}
		}
		if strings.ContainsAny(got, "\u202e\x00") {
			t.Errorf("%q: reply keeps an invisible character: %q", text, got)
		}
	}
	// A saved roll with an invisible character is refused, and nothing is saved.
	if got := send("/alias hit /roll 1d20 # a\u202eb"); !strings.HasPrefix(got, "⚠️") {
		t.Errorf("alias with a bidi override: %q", got)
	}
	if got := send("/alias"); strings.Contains(got, "/hit") {
		t.Errorf("the refused alias was saved: %q", got)
	}
}
