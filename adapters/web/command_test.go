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
		{doReq{Op: "roll", N: 2, Sides: 6, Mod: -1, tray: &tray}, "/roll 2d6-1"},
		{doReq{Op: "odds", N: 1, Sides: 20, tray: &tray}, "/roll 1d20"},
		{doReq{Op: "alias", Name: "golpe"}, "/golpe"},
		// Advantage on the tray's one roll that takes it.
		{doReq{Op: "odds", N: 1, Sides: 20, Mod: 2, Adv: 1, tray: &tray}, "/roll 1d20+2 adv"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: -1, tray: &tray}, "/roll 1d20 dis"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: 1, advWord: "ventaja", tray: &tray}, "/roll 1d20 ventaja"},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: -1, advWord: "μειονέκτημα", tray: &tray}, "/roll 1d20 μειονέκτημα"},
		// A check's form: the command is the form's words, in its order,
		// whatever the order of the values sent.
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"dc": "15", "mod": "fuerza+atletismo"}}, "/zaria fuerza+atletismo dc15"},
		{doReq{Op: "odds", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "Σθένος+2", "npc": "1", "dc": "30"}}, "/zaria Σθένος+2 npc dc30"},
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "7", "npc": "0", "dc": ""}}, "/zaria 7"},
		{doReq{Op: "roll", Form: "kh.test", form: &khForm, Fields: map[string]string{"cap": "6", "s": "2", "i": "1", "dc": "17"}}, "/kh 6 2s 1i dc17"},
		{doReq{Op: "roll", Form: "kh.test", form: &khForm, Fields: map[string]string{"cap": "6"}}, "/kh 6 0s 0i"},
		{doReq{Op: "roll", Form: "rq.roll", form: &rqForm, Fields: map[string]string{"skill": "45", "diff": "-30"}}, "/rq 45 -30"},
		{doReq{Op: "roll", Form: "rq.roll", form: &rqForm, Fields: map[string]string{"skill": "-300"}}, "/rq -300 0"},
		{doReq{Op: "roll", Form: "dh.attack", form: &dhForm, Fields: map[string]string{"weapon": "μακρύ-σπαθί", "armour": "θώρακας"}}, "/dh επίθεση μακρύ-σπαθί vs θώρακας"},
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
		// The rules screen: /system try and /system edit of a fork's
		// number, band, table cell or house rule, as the chat types them.
		{doReq{Op: "rulepreview", System: "rq", Name: "fumble_from", N: 95}, "/system try rq fumble_from 95"},
		{doReq{Op: "ruleset", System: "daegon", Part: "band", Name: "success", N: -2}, "/system edit daegon band success -2"},
		{doReq{Op: "rulepreview", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: "60"}, "/system try daegon table pct 7 3 60"},
		{doReq{Op: "ruleset", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: "-"}, "/system edit daegon table pct 7 3 -"},
		{doReq{Op: "ruleset", System: "daegon", Part: "rule", Name: "daegon_00", Value: "cero"}, "/system edit daegon rule daegon_00 cero"},
		{doReq{Op: "rulename", System: "rq", Name: "fumble", Value: "Desastre total"}, "/system edit rq name fumble Desastre total"},
		{doReq{Op: "ruleset", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: "60 /pj"}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: "+60"}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: ""}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "cell", Name: "pct", Row: 7, Col: 3, Value: "1000001"}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "band", Name: "success", N: -1000001}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "rule", Name: "daegon_00", Value: "cero\n/pj delete Drake"}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "rule", Name: "daegon_00", Value: "Cero"}, ""},
		{doReq{Op: "ruleset", System: "daegon", Part: "name", Name: "success", Value: "x"}, ""},
		{doReq{Op: "ruleset", System: "daegon x", Name: "success", N: 1}, ""},
		// Refused: nothing becomes a second word, line or command.
		{doReq{Op: "create", Name: "a b"}, ""},
		{doReq{Op: "create", Name: "/roll"}, ""},
		{doReq{Op: "create", Name: "@Drake"}, ""},
		{doReq{Op: "create", Name: "a\u200bb"}, ""},
		{doReq{Op: "set", Char: "Drake", Name: "x", Value: "1\n/pj delete Drake"}, ""},
		{doReq{Op: "set", Char: "Drake", Name: "x", Value: "   "}, ""},
		{doReq{Op: "roll", N: 21, Sides: 6, tray: &tray}, ""},
		{doReq{Op: "roll", N: 1, Sides: 3, tray: &tray}, ""},
		{doReq{Op: "roll", N: 1, Sides: 6, Mod: 100, tray: &tray}, ""},
		{doReq{Op: "roll", N: 1, Sides: 6}, ""}, // no tray: no dice
		{doReq{Op: "roll", N: 2, Sides: 20, Adv: 1, tray: &tray}, ""},
		{doReq{Op: "roll", N: 1, Sides: 12, Adv: 1, tray: &tray}, ""},
		{doReq{Op: "roll", N: 1, Sides: 20, Adv: 2, tray: &tray}, ""},
		// A check: only its form's fields, each a value it takes.
		{doReq{Op: "roll", Form: "zaria.check", Fields: map[string]string{"mod": "4"}}, ""},                                    // no such form offered
		{doReq{Op: "roll", Form: "zaria.check", form: &khForm, Fields: map[string]string{"cap": "4"}}, ""},                     // another form
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "fuerza dc5"}}, ""},         // two words
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "fuerza+dc5+x"}}, ""},       // three parts
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "11+2"}}, ""},               // a part out of range
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4+@Drake"}}, ""},           // a sheet, not a value
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4+/pj"}}, ""},              // a command
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{}}, ""},                            // no value
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4", "dc": "31"}}, ""},      // out of range
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4", "dc": "dc15"}}, ""},    // a number, not a word
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4", "npc": "yes"}}, ""},    // a flag is 1 or 0
		{doReq{Op: "roll", Form: "zaria.check", form: &zariaForm, Fields: map[string]string{"mod": "4", "who": "@Drake"}}, ""}, // no such field
		{doReq{Op: "roll", Form: "rq.roll", form: &rqForm, Fields: map[string]string{"skill": "401"}}, ""},
		{doReq{Op: "roll", Form: "dh.attack", form: &dhForm, Fields: map[string]string{"weapon": "μακρύ-σπαθί"}}, ""},
		{doReq{Op: "roll", Form: "dh.attack", form: &dhForm, Fields: map[string]string{"weapon": "bazuca", "armour": "θώρακας"}}, ""},
		{doReq{Op: "roll", Form: "dh.attack", form: &dhForm, Fields: map[string]string{"weapon": "μακρύ-σπαθί", "armour": "θώρακας\n/pj delete Drake"}}, ""},
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
		c.q.lim = coreLimits
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v → %q, want %q", c.q, got, c.want)
		}
	}
}

func ptr(n int) *int { return &n }

// coreLimits are the numbers main gives Deps.Limits from the core
// (table.MaxRows, deck.MaxCards, initiative.MaxCombatants and MaxRounds,
// fork.MaxBound).
var coreLimits = Limits{Rows: 100, Cards: 200, Combatants: 30, Rounds: 99, Bound: 1_000_000}

// The forms of these tests are the core's as the wiring hands them
// (core/systems.Forms, from the system files): cmd/zaria's tests run
// the real ones.
var (
	tray      = Tray{Dice: []int{4, 6, 8, 10, 12, 20, 100}, MaxCount: 20, AdvCount: 1, AdvSides: 20}
	zariaForm = Form{Key: "zaria.check", Command: "zaria", Fields: []Field{
		{Key: "mod", Kind: "terms", Min: 1, Max: 20, Parts: []Field{{Key: "stat", Kind: "number", Min: 1, Max: 10}, {Key: "skill", Kind: "number", Min: 0, Max: 10}}},
		{Key: "npc", Kind: "flag", Word: "npc"},
		{Key: "dc", Kind: "number", Min: 5, Max: 30, Optional: true, Default: ptr(15), Prefix: "dc"},
	}}
	khForm = Form{Key: "kh.test", Command: "kh", Fields: []Field{
		{Key: "cap", Kind: "number", Min: 0, Max: 20},
		{Key: "s", Kind: "number", Max: 10, Default: ptr(0), Suffix: "s"},
		{Key: "i", Kind: "number", Max: 10, Default: ptr(0), Suffix: "i"},
		{Key: "dc", Kind: "number", Min: 1, Max: 60, Optional: true, Prefix: "dc"},
	}}
	rqForm = Form{Key: "rq.roll", Command: "rq", Fields: []Field{
		{Key: "skill", Kind: "number", Min: -300, Max: 400},
		{Key: "diff", Kind: "number", Min: -150, Max: 50, Default: ptr(0)},
	}}
	dhForm = Form{Key: "dh.attack", Command: "dh", Fields: []Field{
		{Key: "weapon", Kind: "word", Before: "επίθεση", Choices: []Choice{{Value: "μακρύ-σπαθί"}, {Value: "στιλέτο"}}},
		{Key: "armour", Kind: "word", Before: "vs", Choices: []Choice{{Value: "θώρακας"}}},
	}}
)

func FuzzPageAction(f *testing.F) {
	f.Add("set", "Drake", "fuerza", "5", "zaria.check", "fuerza+atletismo", "dc15", 1, 20, 0)
	f.Add("roll", "", "", "", "kh.test", "6", "17", 0, 0, 0)
	f.Add("rows", "", "Botín", "oro\nplata", "", "", "", 0, 0, 0)
	f.Add("hp", "Drake", "pv", "", "", "", "", -3, 0, 0)
	forms := map[string]*Form{"zaria.check": &zariaForm, "kh.test": &khForm, "rq.roll": &rqForm, "dh.attack": &dhForm}
	f.Fuzz(func(t *testing.T, op, char, name, value, form, first, diff string, n, sides, mod int) {
		// The form's first field gets first, its last diff.
		q := doReq{Op: op, Char: char, Name: name, Value: value, Form: form, Diff: diff, N: n, Sides: sides, Mod: mod, tray: &tray, form: forms[form], lim: coreLimits}
		if q.form != nil {
			fs := q.form.Fields
			q.Fields = map[string]string{fs[0].Key: first, fs[len(fs)-1].Key: diff}
		}
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
