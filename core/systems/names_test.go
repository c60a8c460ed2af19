package systems_test

import (
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/systems"
	"zaria/core/systems/engine"
)

// Every word that named a system before the files named them (the
// commands' aliases registered by hand, /odds's and /pj's lists) still
// does, in es, el and en, through the router: a command's alias rolls as
// the command does, an /odds word shows the command's odds and, alone,
// the same example as before, and a /pj word gives the sheet its system.
func TestSystemWordsFromTheFiles(t *testing.T) {
	r := fullBot(t)
	for _, lang := range []string{"es", "el", "en"} {
		say := chatAs(t, r, "words-"+lang, core.User{ID: "u1", Name: "Ana"}, true)
		say("/lang " + lang)

		// The commands' aliases.
		aliases := map[string][]string{
			"zaria": {"z", "ζαριά", "ζ", "Z"}, "daegon": {"dg"}, "kh": nil, "rq": nil, "dh": nil,
			"coc": {"cthulhu", "llamada", "κθούλου"}, "v5": {"vampiro", "vampire", "βαμπίρ"},
			"wfrp": {"warhammer", "whfrp", "γουόρχαμερ"}, "pbta": {"apocalypse", "apocalipsis", "αποκάλυψη"},
			"fate": {"fudge", "φέιτ"}, "sw": {"savage", "salvaje", "σάβατζ"},
		}
		for key, words := range aliases {
			args := systems.OddsExample(key, lang)
			want, isErr := say("/" + key + " " + args)
			if isErr {
				t.Fatalf("%s /%s %s: %s", lang, key, args, want)
			}
			for _, w := range words {
				// A hint names the command as typed: "/z 4+2 dc15".
				if got, _ := say("/" + w + " " + args); strings.ReplaceAll(got, "/"+w+" ", "/"+key+" ") != want {
					t.Errorf("%s /%s %s: %q, want /%s's %q", lang, w, args, got, key, want)
				}
			}
		}

		// /odds's words, and its example for each system as before.
		examples := map[string]string{"zaria": "4+2", "daegon": "6 d3", "rq": "45", "kh": "5 2s 1i",
			"dh": map[string]string{"es": "ataque espada-larga vs coraza", "el": "επίθεση μακρύ-σπαθί εναντίον θώρακα", "en": "attack longsword vs breastplate"}[lang]}
		odds := map[string][]string{
			"zaria": {"zaria", "z", "ζαρια", "ζαριά", "ζ", "ZARIA"}, "daegon": {"daegon", "dg", "νταεγκον", "Νταέγκον"},
			"rq": {"rq", "runequest", "RuneQuest"}, "kh": {"kh", "kingdomhearts"}, "dh": {"dh", "dungeonhack"},
		}
		for key, words := range aliases {
			if odds[key] == nil {
				odds[key] = append([]string{key}, words...)
				examples[key] = engine.MustBuiltin(key).Example(lang)
			}
		}
		for key, words := range odds {
			ex := examples[key]
			want, isErr := say("/odds " + key + " " + ex)
			if isErr {
				t.Fatalf("%s /odds %s %s: %s", lang, key, ex, want)
			}
			_, want, _ = strings.Cut(want, "\n") // the first line is the words as typed
			for _, w := range words {
				got, isErr := say("/odds " + w + " " + ex)
				if _, got, _ = strings.Cut(got, "\n"); isErr || got != want {
					t.Errorf("%s /odds %s %s: %q, want %q", lang, w, ex, got, want)
				}
				got, isErr = say("/odds " + w)
				if wantEx := "/odds " + w + " " + ex; !isErr || !strings.Contains(got, wantEx) {
					t.Errorf("%s /odds %s: %q, want an error with %q", lang, w, got, wantEx)
				}
			}
		}

		// /pj's words: the sheet's system as its title names it; ζ and
		// νταεγκον, which /odds took, now too.
		say("/pj crear Lyra")
		sheets := map[string][]string{
			"Ζαριά": {"zaria", "ζαρια", "z", "ζ"}, "Daegon": {"daegon", "dg", "νταεγκον"},
			"Dungeon Hack": {"dh", "dungeonhack"}, "Kingdom Hearts": {"kh", "kingdomhearts"}, "RQ": {"rq", "runequest", "RUNEQUEST"},
			// The file systems' sheets (issue 33, item 5).
			"Warhammer Fantasy": {"wfrp", "warhammer"}, "PbtA": {"pbta", "apocalipsis"}, "Fate": {"fate", "fudge"}, "Savage Worlds": {"sw", "savage"},
		}
		for title, words := range sheets {
			for _, w := range words {
				say("/pj sistema ninguno")
				if got, isErr := say("/pj sistema " + w); isErr || !strings.Contains(got, title) {
					t.Errorf("%s /pj sistema %s: %q, want %s", lang, w, got, title)
				}
				if got, _ := say("/pj"); !strings.Contains(got, "Lyra · "+title) {
					t.Errorf("%s /pj after /pj sistema %s: %q", lang, w, got)
				}
			}
		}
		for _, w := range []string{"ninguno", "none", "no", "κανένα"} {
			say("/pj sistema rq")
			if got, isErr := say("/pj sistema " + w); isErr {
				t.Errorf("%s /pj sistema %s: %q", lang, w, got)
			}
			if got, _ := say("/pj"); strings.Contains(got, "RQ") {
				t.Errorf("%s /pj after /pj sistema %s: %q", lang, w, got)
			}
		}
		for _, w := range []string{"gurps", "dungeon"} {
			if got, isErr := say("/pj crear Otro " + w); !isErr || !strings.Contains(got, "zaria, daegon, kh, rq, dh, coc, v5, wfrp, pbta, fate, sw.") {
				t.Errorf("%s /pj crear Otro %s: %q", lang, w, got)
			}
		}
		say("/pj crear Mira runequest")
		if got, _ := say("/pj"); !strings.Contains(got, "Mira · RQ") {
			t.Errorf("%s /pj crear Mira runequest: %q", lang, got)
		}
	}
}
