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

// StripAt removes the "@" that marks a character or user name in a chat
// ("@Drake"), and the spaces around it.
func StripAt(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "@") }

// MaxUserName is the longest display name stored (a sheet's owner, a GM,
// a roller in the history).
const MaxUserName = 64

// UserName cleans a display name given by a platform or a document before
// it is stored or shown (Clean), at most MaxUserName characters.
func UserName(s string) string { return Cut(Clean(s), MaxUserName) }
