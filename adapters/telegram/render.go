package telegram

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"zaria/core/reply"
)

// utf16Len is the length Telegram counts: UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// token is a piece of a message: closed HTML with its visible length.
type token struct {
	html    string
	n       int
	newline bool // starts a new reply line
}

// splitHTML renders lines as Telegram HTML in messages of at most limit
// visible characters each. It cuts between lines when it can, else between
// spans, else inside a span's text at a space; a cut is never inside a tag
// or an entity, because each piece is escaped and tagged on its own.
func splitHTML(lines []reply.Line, limit int) []string {
	if limit < 16 {
		limit = 16
	}
	var out []string
	var b strings.Builder
	n := 0
	add := func(t token) {
		need := t.n
		if t.newline && n > 0 {
			need++
		}
		if n > 0 && n+need > limit {
			out = append(out, b.String())
			b.Reset()
			n = 0
		}
		if t.newline && b.Len() > 0 {
			b.WriteByte('\n')
			n++
		}
		b.WriteString(t.html)
		n += t.n
	}
	for li, l := range lines {
		var toks []token
		total := 0
		for _, sp := range l {
			for _, piece := range cutText(sp.Text, limit) {
				h := reply.HTML(&reply.Reply{Lines: []reply.Line{{{Style: sp.Style, Text: piece}}}}, "")
				toks = append(toks, token{html: h, n: utf16Len(piece)})
				total += utf16Len(piece)
			}
		}
		if total <= limit {
			// A line that fits in a message is never cut.
			var h strings.Builder
			for _, t := range toks {
				h.WriteString(t.html)
			}
			add(token{html: h.String(), n: total, newline: li > 0})
			continue
		}
		for i, t := range toks {
			t.newline = i == 0 && li > 0
			add(t)
		}
	}
	if b.Len() > 0 || len(out) == 0 {
		out = append(out, b.String())
	}
	// Telegram refuses empty and whitespace-only texts.
	kept := out[:0]
	for _, s := range out {
		if strings.TrimSpace(s) != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// cutText cuts s into pieces of at most limit UTF-16 units, at the last
// space before the limit when there is one.
func cutText(s string, limit int) []string {
	var out []string
	for utf16Len(s) > limit {
		cut, n, lastSpace := 0, 0, -1
		for i, r := range s {
			if n+utf16.RuneLen(r) > limit {
				break
			}
			n += utf16.RuneLen(r)
			cut = i + utf8.RuneLen(r)
			if r == ' ' || r == '\n' {
				lastSpace = cut
			}
		}
		// Cut after a space, unless all before it is blank: a whitespace-only
		// part would be refused by Telegram and its spaces lost.
		if lastSpace > 0 && strings.TrimSpace(s[:lastSpace]) != "" {
			cut = lastSpace
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
