package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"zaria/core/fold"
	"zaria/i18n"
)

// withNames is the base file with top-level fields added after its
// command.
func withNames(fields string) string {
	return strings.Replace(base, "command: ro\n", "command: ro\n"+fields, 1)
}

// Spellings, an order and an /odds example load and name the system; bad
// ones are refused, naming what is wrong.
func TestNamesRefusals(t *testing.T) {
	s, err := Load([]byte(withNames("aliases: [tirada]\nspellings: [rollover, ΡΊΨΗ]\norder: 12\nodds_example: {es: \"2\", el: \"2\", en: \"2\"}\n")))
	if err != nil {
		t.Fatalf("good names: %v", err)
	}
	for _, w := range []string{"roll_over", "ro", "RO", "tirada", "Tirada", "rollover", "ρίψη", "ριψη"} {
		if !s.Names(w) {
			t.Errorf("%q does not name the system", w)
		}
	}
	for _, w := range []string{"", "roll", "zaria", "ro2"} {
		if s.Names(w) {
			t.Errorf("%q names the system", w)
		}
	}
	if s.File.Order != 12 || s.OddsExample("el") != "2" {
		t.Errorf("order %d, odds example %q", s.File.Order, s.OddsExample("el"))
	}
	cases := []struct{ name, fields, want string }{
		{"two words", "spellings: [roll over]\n", "one word"},
		{"empty", "spellings: [\"\"]\n", "one word"},
		{"the command again", "spellings: [RO]\n", "names the system twice"},
		{"an alias again", "aliases: [tirada]\nspellings: [tirada]\n", "names the system twice"},
		{"twice", "spellings: [rollover, Rollover]\n", "names the system twice"},
		{"order below 0", "order: -1\n", "order: a number from 0"},
		{"order too high", "order: 1000\n", "order: a number from 0"},
		{"odds example in one language", "odds_example: {es: \"2\"}\n", "es, el and en"},
		{"odds example unread", "odds_example: {es: \"2 tn99\", el: \"2\", en: \"2\"}\n", "not a check the command reads"},
	}
	for _, c := range cases {
		_, err := Load([]byte(withNames(c.fields)))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want naming %q", c.name, err, c.want)
		}
	}
	// The limit of spellings, with its message in es, el and en.
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, MaxSpellings+1)
	for i := range many {
		many[i] = fmt.Sprintf("w%d", i)
	}
	_, err = Load([]byte(withNames("spellings: [" + strings.Join(many, ", ") + "]\n")))
	var e *Error
	if !errors.As(err, &e) || e.Key != "engine.limit.spellings" {
		t.Fatalf("too many spellings: %v", err)
	}
	for _, lang := range []string{"es", "el", "en"} {
		if msg := cat.Translate(lang, e.Key, e.Args); !strings.Contains(msg, fmt.Sprint(MaxSpellings)) {
			t.Errorf("%s: %q", lang, msg)
		}
	}
}

// The shipped systems are listed in /help's order, each file with its own
// place; every word that named a system in /odds, /pj and the commands
// still names it, and no word names two.
func TestShippedNames(t *testing.T) {
	want := []string{"zaria", "daegon", "kh", "rq", "dh", "coc", "v5", "wfrp", "pbta", "fate", "sw"}
	if got := Listed(); !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	named := map[string][]string{
		"zaria":  {"zaria", "Zaria", "z", "ζαριά", "ζαρια", "ΖΑΡΙΆ", "ζ"},
		"daegon": {"daegon", "dg", "νταεγκον", "Νταέγκον"},
		"rq":     {"rq", "RQ", "runequest", "RuneQuest"},
		"kh":     {"kh", "kingdomhearts", "KingdomHearts"},
		"dh":     {"dh", "dungeonhack", "DungeonHack"},
		"coc":    {"coc", "cthulhu", "llamada", "κθούλου"},
		"v5":     {"v5", "vampiro", "vampire", "βαμπίρ"},
		"wfrp":   {"wfrp", "warhammer", "whfrp", "γουόρχαμερ"},
		"pbta":   {"pbta", "apocalypse", "apocalipsis", "αποκάλυψη"},
		"fate":   {"fate", "fudge", "φέιτ"},
		"sw":     {"sw", "savage", "salvaje", "σάβατζ"},
	}
	for key, words := range named {
		for _, w := range words {
			if got := Named(w); got != key {
				t.Errorf("%q names %q, want %q", w, got, key)
			}
		}
	}
	for _, w := range []string{"", "gurps", "dungeon", "ninguno"} {
		if got := Named(w); got != "" {
			t.Errorf("%q names %q", w, got)
		}
	}
	seen := map[string]string{}
	for _, k := range Shipped() {
		f := MustBuiltin(k).File
		for _, w := range append(append([]string{f.System, f.Command}, f.Aliases...), f.Spellings...) {
			if o, ok := seen[fold.Key(w)]; ok && o != k {
				t.Errorf("%q names %s and %s", w, o, k)
			}
			seen[fold.Key(w)] = k
		}
	}
}

// /odds's example of each shipped system: its odds_example, else its
// example; every one has one.
func TestShippedOddsExamples(t *testing.T) {
	for _, k := range Shipped() {
		s := MustBuiltin(k)
		for _, lang := range []string{"es", "el", "en"} {
			ex := s.OddsExample(lang)
			if ex == "" {
				t.Errorf("%s %s: no /odds example", k, lang)
			}
			if s.File.OddsExample == nil && ex != s.Example(lang) {
				t.Errorf("%s %s: %q, not the example %q", k, lang, ex, s.Example(lang))
			}
		}
	}
	if got := MustBuiltin("rq").OddsExample("es"); got != "45" {
		t.Errorf("rq: %q", got)
	}
	if got := MustBuiltin("coc").OddsExample("en"); got != "65 bonus 1" {
		t.Errorf("coc: %q", got)
	}
}
