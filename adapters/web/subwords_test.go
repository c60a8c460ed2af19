package web

import (
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/deck"
	turns "zaria/core/initiative"
	"zaria/core/pad"
	"zaria/core/sheet"
	"zaria/core/table"
)

// The page writes every sub-command by its canonical name in the
// commands' own table (command.Subs, read by their parsers and /help),
// so a page action means in every chat language what the typed command
// does: each sub-command word the page writes is one the table has, as
// its canonical name.
func TestPageWritesTheRegisteredSubcommands(t *testing.T) {
	r := command.New(command.Config{})
	sheet.Register(r, sheet.New(nil, sheet.Options{}))
	turns.Register(r, turns.New(nil, turns.Options{}))
	table.Register(r, table.New(nil, table.Options{}))
	deck.Register(r, deck.New(nil, deck.Options{}))
	pad.Register(r, pad.New(nil, pad.Options{}))
	for _, c := range []struct {
		q   doReq
		sub string // the sub-command it writes
	}{
		{doReq{Op: "create", Name: "Drake"}, "create"},
		{doReq{Op: "rename", Char: "Drake", Name: "Δράκος"}, "rename"},
		{doReq{Op: "delete", Char: "Drake"}, "delete"},
		{doReq{Op: "use", Char: "Drake"}, "use"},
		{doReq{Op: "set", Char: "Drake", Name: "fuerza", Value: "5"}, "set"},
		{doReq{Op: "unset", Char: "Drake", Name: "fuerza"}, "unset"},
		{doReq{Op: "undo"}, "undo"},
		{doReq{Op: "next"}, "next"},
		{doReq{Op: "end"}, "end"},
		{doReq{Op: "reopen"}, "undo"},
		{doReq{Op: "npchp", Name: "Orco", N: -5}, "hp"},
		{doReq{Op: "npccond", Name: "Orco", Value: "aturdido", N: 2}, "condition"},
		{doReq{Op: "npcuncond", Name: "Orco", Value: "aturdido"}, "condition"},
		{doReq{Op: "remove", Name: "Orco"}, "remove"},
		{doReq{Op: "move", Name: "Orco", N: 1}, "move"},
		{doReq{Op: "add", Name: "Orco", Value: "2d6+1"}, "add"},
		{doReq{Op: "draw", Name: "Tarot"}, "draw"},
		{doReq{Op: "rows", Name: "Botín", Value: "oro\nplata"}, "create"},
		{doReq{Op: "tablerename", Name: "Botín", Value: "Botín viejo"}, "rename"},
		{doReq{Op: "tabledelete", Name: "Botín"}, "delete"},
		{doReq{Op: "deckcreate", Name: "Botín", Value: "Espada\nEscudo"}, "create"},
		{doReq{Op: "shuffle", Name: "Botín"}, "shuffle"},
		{doReq{Op: "deckdelete", Name: "Botín"}, "delete"},
		{doReq{Op: "padadd", Name: "Ataque", Value: "/roll 1d20+5"}, "add"},
		{doReq{Op: "padadd", Scope: "chat", Name: "Ataque", Value: "/roll 1d20+5"}, "add"},
		{doReq{Op: "padrename", Name: "Golpe", pos: 2}, "rename"},
		{doReq{Op: "padmove", N: 1, pos: 2}, "move"},
		{doReq{Op: "padremove", pos: 2}, "remove"},
	} {
		c.q.lim = coreLimits
		text := c.q.command()
		words := strings.Fields(text)
		if len(words) < 2 {
			t.Errorf("%s: %q", c.q.Op, text)
			continue
		}
		cmd, ok := r.Lookup(strings.TrimPrefix(words[0], "/"))
		if !ok || cmd.Subs == nil {
			t.Errorf("%s: %q names no command with sub-commands", c.q.Op, text)
			continue
		}
		word := ""
		for _, w := range words[1:] {
			if w != "--chat" && !strings.HasPrefix(w, "@") {
				word = w
				break
			}
		}
		if got, ok := cmd.Subs.Lookup(word); !ok || got != c.sub || word != c.sub {
			t.Errorf("%s: %q writes %q, read as %q (%v); want the canonical %q", c.q.Op, text, word, got, ok, c.sub)
		}
	}
}
