package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes untrusted one-line text (a display name, a character's name,
// a label) safe to store and to show beside the bot's own lines: line
// breaks and tabs become a space, other control characters (NUL, C1),
// bidirectional controls and zero-width characters are removed, runs of
// spaces collapse to one, and the ends are trimmed. A name with a newline
// can then never print a line that looks like the bot's.
func Clean(s string) string {
	if clean(s) {
		return s // the common case, without allocating
	}
	return cleaned(s)
}

func cleaned(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' ||
			r == '\u0085' || r == '\u2028' || r == '\u2029' || (unicode.IsSpace(r) && r != ' '):
			r = ' '
		case unicode.IsControl(r), invisible(r):
			continue
		}
		if r == ' ' {
			if space || b.Len() == 0 {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// clean reports whether Clean would return s unchanged.
func clean(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	prevSpace := false
	for _, r := range s {
		if r == ' ' {
			if prevSpace {
				return false
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		if r < 0x80 {
			if r < 0x20 || r == 0x7f {
				return false
			}
			continue
		}
		if r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) || invisible(r) {
			return false
		}
	}
	return true
}

// Invisible reports whether r is one of the format characters Clean
// removes (bidirectional controls, zero-width characters, the soft hyphen,
// the byte-order mark): drawn as nothing, or changing how the text around
// them is drawn.
func Invisible(r rune) bool { return invisible(r) }

// StripInvisible removes the Invisible characters from s and keeps
// everything else (line breaks included): for text that is read, not
// shown, such as a command word or a dice expression, where a zero-width
// space pasted in would otherwise make a valid roll fail with a message
// that shows no fault.
func StripInvisible(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s // ASCII: nothing to remove, without allocating
	}
	if strings.IndexFunc(s[i:], invisible) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

// invisible reports format characters that change how the text around
// them is drawn without being seen: bidirectional embeddings, overrides
// and isolates, marks, zero-width spaces and joiners, the word joiner and
// the byte-order mark; and the characters drawn as nothing at all (the
// Mongolian vowel separator, Hangul fillers, tags), with which a name can
// look empty or carry hidden text.
func invisible(r rune) bool {
	switch {
	case r >= '\u202A' && r <= '\u202E', // LRE RLE PDF LRO RLO
		r >= '\u2066' && r <= '\u2069',                  // LRI RLI FSI PDI
		r == '\u200E' || r == '\u200F' || r == '\u061C', // LRM RLM ALM
		r >= '\u200B' && r <= '\u200D',                  // ZWSP ZWNJ ZWJ
		r == '\u2060' || r == '\uFEFF',                  // word joiner, BOM
		r >= '\u2061' && r <= '\u2064',                  // invisible operators
		r == '\u00AD',                                   // soft hyphen
		r == '\u180E', r == '\u034F',                    // Mongolian vowel separator, grapheme joiner
		r == '\u115F' || r == '\u1160' || r == '\u3164' || r == '\uFFA0', // Hangul fillers, drawn as nothing
		r == '\u17B4' || r == '\u17B5',                                   // Khmer inherent vowels, drawn as nothing
		r >= '\u206A' && r <= '\u206F',                                   // deprecated format controls
		r >= '\uFFF9' && r <= '\uFFFB',                                   // interlinear annotation
		r >= 0xE0000 && r <= 0xE007F,                                     // tags: invisible ASCII
		r >= 0x1D173 && r <= 0x1D17A:                                     // musical format controls
		return true
	}
	return false
}
