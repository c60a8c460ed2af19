package matrix

import (
	"strings"
	"testing"
	"unicode/utf8"

	"zaria/core/reply"
)

// TestNoticeFits: a reply too big for one Matrix event is cut below the
// limit (HTML dropped first), stays valid UTF-8 and says it was cut; a
// normal reply keeps its HTML.
func TestNoticeFits(t *testing.T) {
	small := &reply.Reply{}
	small.Add(reply.B("Total"), reply.T(": 12"))
	c := notice(small)
	if c.FormattedBody != "<b>Total</b>: 12" || c.Body != "Total: 12" {
		t.Errorf("small reply = %q / %q", c.Body, c.FormattedBody)
	}
	for _, unit := range []string{"ζαριά 🎲 ", "a<b>&\" ", "\x01\x02"} {
		big := &reply.Reply{}
		for i := 0; i < 20000; i++ {
			big.Add(reply.B(unit), reply.C("12"))
		}
		c := notice(big)
		if n := size(c); n > maxContentBytes {
			t.Errorf("%q: content of %d bytes, limit %d", unit, n, maxContentBytes)
		}
		if c.FormattedBody != "" || !strings.HasSuffix(c.Body, "…") || !utf8.ValidString(c.Body) {
			t.Errorf("%q: cut reply not marked or broken (len %d, html %d)", unit, len(c.Body), len(c.FormattedBody))
		}
		if len(c.Body) < maxContentBytes/8 {
			t.Errorf("%q: cut far too short: %d bytes", unit, len(c.Body))
		}
	}
}
