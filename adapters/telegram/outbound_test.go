package telegram

import (
	"strings"
	"testing"
	"unicode/utf8"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/reply"
)

// FuzzSplitHTML: whatever the text, every part is valid Telegram HTML of
// at most the limit, and together they say exactly the reply's text.
func FuzzSplitHTML(f *testing.F) {
	f.Add("hola <b>mundo</b> & \"ζαριά\" 🎲🎲", uint8(3), uint16(20))
	f.Add(strings.Repeat("x", 5000), uint8(1), uint16(4096))
	f.Add("a\nb\n\nc", uint8(0), uint16(16))
	f.Add("&amp;&lt;&#39;", uint8(2), uint16(17))
	f.Fuzz(func(t *testing.T, text string, style uint8, limit uint16) {
		if !utf8.ValidString(text) {
			return
		}
		lim := int(limit)%5000 + 16
		var lines []reply.Line
		for i, part := range strings.Split(text, "\n") {
			lines = append(lines, reply.Line{
				{Style: reply.Style((int(style) + i) % 4), Text: part},
				{Style: reply.Plain, Text: "·"},
			})
		}
		chunks := splitHTML(lines, lim)
		var got strings.Builder
		for _, c := range chunks {
			v, err := telegramtest.Visible(c)
			if err != nil {
				t.Fatalf("part %q: %v", c, err)
			}
			if n := utf16Len(v); n > lim {
				t.Fatalf("part of %d > %d", n, lim)
			}
			got.WriteString(v)
		}
		var want strings.Builder
		for _, l := range lines {
			for _, s := range l {
				want.WriteString(s.Text)
			}
		}
		strip := func(s string) string { return strings.ReplaceAll(s, "\n", "") }
		if strip(got.String()) != strip(want.String()) {
			t.Fatalf("text changed:\n got %q\nwant %q", got.String(), want.String())
		}
	})
}
