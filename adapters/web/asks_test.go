package web

import (
	"strings"
	"testing"
)

// TestAskActionsAreChatCommands: a new request is /ask typed, its
// characters each one word; a press names a request and a character.
func TestAskActionsAreChatCommands(t *testing.T) {
	for _, c := range []struct {
		q    doReq
		want string
	}{
		{doReq{Op: "ask", Value: " /zaria destreza+sigilo dc15 "}, "/ask /zaria destreza+sigilo dc15"},
		{doReq{Op: "ask", Value: "1d20+percepción vs 14", Name: "Lyra, @Drake"}, "/ask @Lyra @Drake 1d20+percepción vs 14"},
		{doReq{Op: "askroll", Button: 3, Char: "lyra"}, "ask"},
		{doReq{Op: "askclose", Button: 3}, "ask"},
		// Refused.
		{doReq{Op: "ask", Value: "1d20\n/pj delete Drake"}, ""},
		{doReq{Op: "ask", Value: " "}, ""},
		{doReq{Op: "ask", Value: strings.Repeat("1", maxAskCheck+1)}, ""},
		{doReq{Op: "ask", Value: "1d20", Name: strings.Repeat("a ", maxAskNames+1)}, ""},
		{doReq{Op: "ask", Value: "1d20", Name: "Lyra /pj"}, ""},
		{doReq{Op: "askroll", Button: 0, Char: "lyra"}, ""},
		{doReq{Op: "askroll", Button: 3}, ""},
		{doReq{Op: "askroll", Button: 3, Char: "a\u200bb"}, ""},
		{doReq{Op: "askclose", Button: 3, Char: "lyra"}, ""},
	} {
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v → %q, want %q", c.q, got, c.want)
		}
	}
}
