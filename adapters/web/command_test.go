package web

import (
	"strings"
	"testing"
)

func TestPageActionsAreChatCommands(t *testing.T) {
	for _, c := range []struct {
		q    doReq
		want string
	}{
		{doReq{Op: "create", Name: "Drake"}, "/pj create Drake"},
		{doReq{Op: "rename", Char: "Drake", Name: "Δράκος"}, "/pj rename Drake Δράκος"},
		{doReq{Op: "delete", Char: "Drake"}, "/pj delete Drake"},
		{doReq{Op: "use", Char: "Drake"}, "/pj use Drake"},
		{doReq{Op: "set", Char: "Drake", Name: "fuerza", Value: " 5 "}, "/pj set @Drake fuerza 5"},
		{doReq{Op: "set", Char: "Drake", Name: "arma", Value: "espada larga"}, "/pj set @Drake arma espada larga"},
		{doReq{Op: "unset", Char: "Drake", Name: "fuerza"}, "/pj unset @Drake fuerza"},
		{doReq{Op: "roll", N: 2, Sides: 6, Mod: -1}, "/roll 2d6-1"},
		{doReq{Op: "odds", N: 1, Sides: 20}, "/roll 1d20"},
		{doReq{Op: "roll", System: "zaria", What: "fuerza", Diff: "dc15", Mod: 2}, "/zaria fuerza+2 dc15"},
		{doReq{Op: "roll", System: "daegon", What: "7", Diff: "d3", Mod: 2}, "/daegon 7 d3"},
		{doReq{Op: "alias", Name: "golpe"}, "/golpe"},
		// Refused: nothing becomes a second word, line or command.
		{doReq{Op: "create", Name: "a b"}, ""},
		{doReq{Op: "create", Name: "/roll"}, ""},
		{doReq{Op: "create", Name: "@Drake"}, ""},
		{doReq{Op: "create", Name: "a\u200bb"}, ""},
		{doReq{Op: "set", Char: "Drake", Name: "x", Value: "1\n/pj delete Drake"}, ""},
		{doReq{Op: "set", Char: "Drake", Name: "x", Value: "   "}, ""},
		{doReq{Op: "roll", N: 21, Sides: 6}, ""},
		{doReq{Op: "roll", N: 1, Sides: 3}, ""},
		{doReq{Op: "roll", N: 1, Sides: 6, Mod: 100}, ""},
		{doReq{Op: "roll", System: "zaria", What: "fuerza dc5"}, ""},
		{doReq{Op: "roll", System: "../etc"}, ""},
		{doReq{Op: "pad"}, ""},
		{doReq{Op: "pad", Button: 3, Values: []string{"a b"}}, ""},
		{doReq{Op: "importar"}, ""},
	} {
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v → %q, want %q", c.q, got, c.want)
		}
	}
}

func FuzzPageAction(f *testing.F) {
	f.Add("set", "Drake", "fuerza", "5", "zaria", "fuerza", "dc15", 1, 20, 0)
	f.Fuzz(func(t *testing.T, op, char, name, value, system, what, diff string, n, sides, mod int) {
		q := doReq{Op: op, Char: char, Name: name, Value: value, System: system, What: what, Diff: diff, N: n, Sides: sides, Mod: mod}
		got := q.command()
		if got == "" || got == "pad" {
			return
		}
		if !strings.HasPrefix(got, "/") || strings.ContainsAny(got, "\n\r") || strings.Count(got, "/") > 1+strings.Count(value, "/") {
			t.Errorf("%+v → %q", q, got)
		}
	})
}
