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
		// Advantage on one d20; a Dungeon Hack attack.
		{doReq{Op: "odds", N: 1, Sides: 20, Mod: 2, Adv: 1}, "/roll 1d20+2 adv"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: -1}, "/roll 1d20 dis"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: 1, advWord: "ventaja"}, "/roll 1d20 ventaja"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: -1, advWord: "μειονέκτημα"}, "/roll 1d20 μειονέκτημα"},
		{doReq{Op: "roll", System: "dh", What: "espada-larga", Diff: "coraza", Mod: 2}, "/dh ataque espada-larga vs coraza"},
		{doReq{Op: "roll", System: "dh", What: "μακρύ-σπαθί", Diff: "θώρακας", attackWord: "επίθεση"}, "/dh επίθεση μακρύ-σπαθί vs θώρακας"},
		{doReq{Op: "roll", System: "dh", What: "x", Diff: "y", attackWord: "two words"}, "/dh ataque x vs y"},
		// Hit points, conditions, undo: the chat's /pj.
		{doReq{Op: "hp", Char: "Drake", Name: "pv", N: -3}, "/pj @Drake pv -3"},
		{doReq{Op: "hp", Char: "Δάφνη", Name: "ζωή", N: 2}, "/pj @Δάφνη ζωή +2"},
		{doReq{Op: "cond", Char: "Drake", Name: "envenenado", N: 2}, "/pj @Drake condition +envenenado 2"},
		{doReq{Op: "cond", Char: "Drake", Name: "aturdido"}, "/pj @Drake condition +aturdido"},
		{doReq{Op: "uncond", Char: "Drake", Name: "envenenado"}, "/pj @Drake condition -envenenado"},
		{doReq{Op: "undo"}, "/pj undo"},
		// Development marks: the GM's /pj marks clear.
		{doReq{Op: "marksclear", Char: "Lyra"}, "/pj marks clear @Lyra"},
		{doReq{Op: "marksclear", Char: "Lyra all"}, ""},
		// The turn order: /init.
		{doReq{Op: "next"}, "/init next"},
		{doReq{Op: "end"}, "/init end"},
		{doReq{Op: "npchp", Name: "Orco 2", N: -5}, `/init hp "Orco 2" -5`},
		{doReq{Op: "remove", Name: "Orco 2"}, `/init remove "Orco 2"`},
		{doReq{Op: "add", Name: "Orco", Value: "2d6+1", HP: ptr(15)}, `/init add "Orco" 2d6+1 hp 15`},
		{doReq{Op: "add", Name: "Orco"}, `/init add "Orco"`},
		// Tables and decks: /table, /deck.
		{doReq{Op: "table", Name: "Encuentros raros"}, "/table Encuentros raros"},
		{doReq{Op: "draw", Name: "Tarot"}, "/deck draw Tarot"},
		{doReq{Op: "rows", Name: "Botín", Value: "oro\r\n\n plata \ncobre"}, "/table create Botín\noro\nplata\ncobre"},
		{doReq{Op: "rows", Name: "Clima", Value: "2-6 sol\n7-12 lluvia", Diff: "2d6"}, "/table create Clima 2d6\n2-6 sol\n7-12 lluvia"},
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
		{doReq{Op: "roll", N: 2, Sides: 20, Adv: 1}, ""},
		{doReq{Op: "roll", N: 1, Sides: 12, Adv: 1}, ""},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: 2}, ""},
		{doReq{Op: "roll", System: "dh", What: "espada-larga"}, ""},
		{doReq{Op: "roll", System: "dh", What: "espada larga", Diff: "coraza"}, ""},
		{doReq{Op: "roll", System: "dh", What: "daga", Diff: "coraza\n/pj delete Drake"}, ""},
		{doReq{Op: "roll", System: "dh", What: "/roll", Diff: "coraza"}, ""},
		{doReq{Op: "pad"}, ""},
		{doReq{Op: "pad", Button: 3, Values: []string{"a b"}}, ""},
		{doReq{Op: "importar"}, ""},
		{doReq{Op: "hp", Char: "Drake", Name: "pv"}, ""},
		{doReq{Op: "npchp", Name: "Orco", N: 0}, ""},
		{doReq{Op: "npchp", Name: `Orco" -5 "`, N: 1}, ""},
		{doReq{Op: "hp", Char: "Drake", Name: "pv", N: 1000}, ""},
		{doReq{Op: "cond", Char: "Drake", Name: "-envenenado"}, ""},
		{doReq{Op: "cond", Char: "Drake", Name: "x", N: 100}, ""},
		{doReq{Op: "remove", Name: `Orco" fin`}, ""},
		{doReq{Op: "remove", Name: "Orco\n/init end"}, ""},
		{doReq{Op: "add", Name: "Orco", Value: "1d6 hp"}, ""},
		{doReq{Op: "add", Name: "Orco", HP: ptr(-1)}, ""},
		{doReq{Op: "table", Name: "/roll 1d6"}, ""},
		{doReq{Op: "rows", Name: "Botín", Value: "oro\n/pj delete Drake"}, ""},
		{doReq{Op: "rows", Name: "Botín: oro", Value: "plata"}, ""},
		{doReq{Op: "rows", Name: "Botín", Value: " \n "}, ""},
		{doReq{Op: "rows", Name: "Botín", Value: strings.Repeat("x\n", 101)}, ""},
	} {
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v → %q, want %q", c.q, got, c.want)
		}
	}
}

func ptr(n int) *int { return &n }

func FuzzPageAction(f *testing.F) {
	f.Add("set", "Drake", "fuerza", "5", "zaria", "fuerza", "dc15", 1, 20, 0)
	f.Add("rows", "", "Botín", "oro\nplata", "", "", "", 0, 0, 0)
	f.Add("hp", "Drake", "pv", "", "", "", "", -3, 0, 0)
	f.Fuzz(func(t *testing.T, op, char, name, value, system, what, diff string, n, sides, mod int) {
		q := doReq{Op: op, Char: char, Name: name, Value: value, System: system, What: what, Diff: diff, N: n, Sides: sides, Mod: mod}
		got := q.command()
		if got == "" || got == "pad" {
			return
		}
		head, rows, _ := strings.Cut(got, "\n")
		if op == "rows" || op == "deckcreate" {
			// A table's rows, a deck's cards, one a line: none a command.
			for _, l := range strings.Split(rows, "\n") {
				if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "!") || strings.ContainsRune(l, '\r') {
					t.Errorf("%+v → %q", q, got)
				}
			}
			got = head
		}
		if !strings.HasPrefix(got, "/") || strings.ContainsAny(got, "\n\r") || strings.Count(got, " /") > strings.Count(" "+value, " /") {
			t.Errorf("%+v → %q", q, got)
		}
	})
}
