// Package fold compares words the way chat users type them: without case,
// without accents, Greek final sigma equal to sigma, "-" and "_" equal to a
// space. "Difícil", "dificil" and "DIFICIL" fold to the same key, as do
// "Μέτριο" and "μετριο". It also cleans untrusted names for display
// (Clean, UserName, Cut).
package fold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Key returns the folded form of s.
func Key(s string) string {
	if k, ok := asciiKey(s); ok {
		return k
	}
	return fullKey(s)
}

// fullKey is Key without the ASCII fast path: the definition the fast
// path must agree with (FuzzASCIIKey).
func fullKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range norm.NFD.String(strings.TrimSpace(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'ς':
			r = 'σ'
		case r == '-' || r == '_' || unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSpace(b.String())
}

// asciiKey is Key for text that is all ASCII (most names and values), with
// one allocation and no normalization; ok=false for any other text.
func asciiKey(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c == '-' || c == '_' || c == ' ' || (c >= '\t' && c <= '\r'):
			if !space && len(b) > 0 {
				b = append(b, ' ')
			}
			space = true
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		space = false
		b = append(b, c)
	}
	if space && len(b) > 0 {
		b = b[:len(b)-1]
	}
	return string(b), true
}

// Equal reports whether a and b fold to the same key.
func Equal(a, b string) bool { return Key(a) == Key(b) }

// Distance is the Levenshtein distance between the folded forms, for
// "did you mean" suggestions.
func Distance(a, b string) int {
	ra, rb := []rune(Key(a)), []rune(Key(b))
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidates nearest to word (at most max edits, and
// never more than a third of the word's length plus one), best first, at most n.
func Closest(word string, candidates []string, n int) []string {
	type c struct {
		s string
		d int
	}
	limit := len([]rune(Key(word)))/3 + 1
	var best []c
	seen := map[string]bool{}
	for _, cand := range candidates {
		k := Key(cand)
		if seen[k] {
			continue
		}
		seen[k] = true
		d := Distance(word, cand)
		if strings.HasPrefix(k, Key(word)) && len(Key(word)) >= 3 {
			d = min(d, 1)
		}
		if d <= limit {
			best = append(best, c{cand, d})
		}
	}
	for i := 1; i < len(best); i++ {
		for j := i; j > 0 && best[j].d < best[j-1].d; j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	out := make([]string, 0, n)
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].s)
	}
	return out
}
