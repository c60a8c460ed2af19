package fold

import (
	"strings"
	"unicode/utf8"
)

// Cut shortens s to at most n characters, marking the cut with "…".
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}

// CutWord is Cut for a quote of what the user typed: at most n
// characters, "…" marking the cut, made at the last space of the kept
// text when that keeps at least half of it ("espada larga de dos manos"
// → "espada larga de…", not "espada larga de do…").
func CutWord(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	all := []rune(s)
	r := all[:max(n-1, 0)]
	if len(r) > 0 && all[len(r)] == ' ' {
		return strings.TrimRight(string(r), " ") + "…" // the kept text ends a word
	}
	for i := len(r) - 1; i >= len(r)/2 && i > 0; i-- {
		if r[i] == ' ' {
			return strings.TrimRight(string(r[:i]), " ") + "…"
		}
	}
	return string(r) + "…"
}

// StripAt removes the "@" that marks a character or user name in a chat
// ("@Drake"), and the spaces around it.
func StripAt(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "@") }

// MaxUserName is the longest display name stored (a sheet's owner, a GM,
// a roller in the history).
const MaxUserName = 64

// UserName cleans a display name given by a platform or a document before
// it is stored or shown (Clean), at most MaxUserName characters.
func UserName(s string) string { return Cut(Clean(s), MaxUserName) }
