package systems_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/core/systems/engine"
	"zaria/i18n"
	"zaria/storage/memory"
)

var myPrefixes = []string{"sys.", "zaria.", "daegon.", "rq.", "kh.", "dh.", "option.zaria", "option.dh_"}

func mine(k string) bool {
	for _, p := range myPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// Every key of the systems catalogs exists in es, el and en.
func TestCatalogsComplete(t *testing.T) {
	_, have := catalogKeys(t)
	sets := map[string]map[string]bool{}
	for l, keys := range have {
		sets[l] = map[string]bool{}
		for k := range keys {
			if mine(k) {
				sets[l][k] = true
			}
		}
	}
	for _, a := range core.Langs() {
		for _, b := range core.Langs() {
			for k := range sets[a] {
				if !sets[b][k] {
					t.Errorf("%s has %q, %s does not", a, k, b)
				}
			}
		}
	}
	if len(sets["es"]) < 250 {
		t.Errorf("only %d keys: catalogs not loaded?", len(sets["es"]))
	}
}

// Every option, value and command has its label and help in every language.
func TestOptionsAndHelpLabelled(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New()})
	systems.Register(r)
	want := map[string]string{"zaria": "media_baja", "zaria_pnj_epico": "no", "dh_blindaje": "suma", "dh_pen": "redondeo", "dh_dado": "d6", "daegon_00": "cien"}
	opts := r.Options()
	if len(opts) != len(want) {
		t.Errorf("%d options registered, want %d", len(opts), len(want))
	}
	for _, o := range opts {
		if want[o.Key] != o.Default {
			t.Errorf("option %s default %q, want %q", o.Key, o.Default, want[o.Key])
		}
		keys := []string{"option." + o.Key}
		for _, v := range o.Values {
			keys = append(keys, "option."+o.Key+"."+v, "option."+o.Key+"."+v+".word")
		}
		for _, k := range keys {
			for _, l := range core.Langs() {
				if got := cat.Translate(l, k, nil); got == k || got == "" {
					t.Errorf("%s: no %q", l, k)
				}
			}
		}
	}
	for _, c := range r.Commands() {
		if !c.Roll {
			t.Errorf("/%s is not marked Roll", c.Name)
		}
		// /help (core/general) explains each command from the help catalog.
		for _, k := range []string{"cmdhelp." + c.Name + ".short", "cmdhelp." + c.Name + ".long"} {
			for _, l := range core.Langs() {
				if got := cat.Translate(l, k, nil); got == k {
					t.Errorf("%s: no %q", l, k)
				}
			}
		}
	}
	for _, alias := range []string{"z", "ζαριά", "ζ", "ΖΑΡΙΑ", "dg", "rq", "kh", "dh"} {
		if _, ok := r.Lookup(alias); !ok {
			t.Errorf("alias %q not registered", alias)
		}
	}
}

// Garbage never crashes a handler nor produces an internal error: every
// reply is a roll or a localized user error, in every language.
func TestGarbageInput(t *testing.T) {
	b := newBot(t, newSheets())
	words := []string{"4+2", "dc15", "vs", "contra", "κατά", "npc", "?", "+", "-", "d", "d0", "d-1", "0", "-5", "99999999999999999999", "2d8", "n17", "pen2", "pen+", "@", "@x", "db+1", "3db", "c14", "c14x0", "c:", "x", "2s", "11i", "espada-larga", "coraza", "μέτριο", "dificil", "+-+", "1d0", "ataque", "rompe", "uso", "repara", "pen", "montura", "asfixia", "magica", "carga", "¿", ";", "dc", "1e9", "½", "٣", "\u200b"}
	cmds := []string{"/zaria", "/daegon", "/rq", "/kh", "/dh", "/dh ataque", "/dh uso", "/dh repara", "/dh rompe"}
	src := dice.Seeded(42)
	internal := map[string]bool{}
	for _, l := range core.Langs() {
		internal[l] = true
	}
	cat, _ := i18n.Load()
	for i := 0; i < 1200; i++ {
		n := 1 + src.IntN(5)
		parts := []string{cmds[src.IntN(len(cmds))]}
		for j := 0; j < n; j++ {
			parts = append(parts, words[src.IntN(len(words))])
		}
		text := strings.Join(parts, " ")
		lang := core.Langs()[i%3]
		rep, ok := b.r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "u1"}, Text: text}, dice.Seeded(uint64(i)))
		if !ok || rep == nil {
			t.Fatalf("%q: not handled", text)
		}
		got := strings.Join(func() []string {
			var s []string
			for _, l := range rep.Lines {
				for _, sp := range l {
					s = append(s, sp.Text)
				}
			}
			return s
		}(), "")
		if strings.Contains(got, cat.Translate(lang, "error.internal", nil)) || strings.Contains(got, cat.Translate("es", "error.internal", nil)) {
			t.Errorf("%q: internal error", text)
		}
		if !rep.Error && rep.Check == nil {
			t.Errorf("%q: a roll without Check: %q", text, got)
		}
	}
}

func FuzzSystems(f *testing.F) {
	for _, s := range []string{"/zaria 4+2 dc15?", "/daegon 12 vs 7", "/rq c14x5 vs 60", "/kh 6 +2s +1i dc17", "/dh ataque 2d8 n17 vs pieles d4 +1", "/dh repara coraza 2 d4", "/dh uso magica"} {
		f.Add(s, 1)
	}
	cat, err := i18n.Load()
	if err != nil {
		f.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), Limits: command.Limits{Burst: 1 << 30}})
	systems.Register(r)
	internal := cat.Translate("es", "error.internal", nil)
	f.Fuzz(func(t *testing.T, text string, seed int) {
		rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "f"}, Text: text}, dice.Seeded(uint64(seed)))
		if ok && rep == nil {
			t.Fatal("nil reply")
		}
		if ok && !rep.Error && rep.Check == nil && rep.Command != "" {
			t.Fatalf("%q: roll without Check", text)
		}
		if ok && rep.Error && len(rep.Lines) > 0 && len(rep.Lines[0]) > 0 && strings.Contains(rep.Lines[0][0].Text, internal) {
			t.Fatalf("%q: internal error (a panic or a Go error)", text)
		}
	})
}

// A whole command through the router: parse, roll, exact odds, render.
func BenchmarkCommands(b *testing.B) {
	cat, err := i18n.Load()
	if err != nil {
		b.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), Limits: command.Limits{Burst: 1 << 30}})
	systems.Register(r)
	for _, text := range []string{"/zaria 4+2 dc15?", "/zaria 5+3 vs 4+4?", "/daegon 12 vs 7?", "/rq 45 normal?", "/kh 6 +2s +1i dc17?", "/dh ataque espada-larga vs coraza?"} {
		b.Run(strings.Fields(text)[0][1:], func(b *testing.B) {
			b.ReportAllocs()
			src := dice.Seeded(1)
			for b.Loop() {
				rep, _ := r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "b"}, Text: text}, src)
				if rep.Error {
					b.Fatal(rep.Lines)
				}
			}
		})
	}
}

// The slowest inputs found: long unknown names that go through "did you
// mean" against every weapon, armour and difficulty label (input ≤ 500).
func BenchmarkWorstInput(b *testing.B) {
	cat, err := i18n.Load()
	if err != nil {
		b.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), Limits: command.Limits{Burst: 1 << 30}})
	systems.Register(r)
	for name, text := range map[string]string{
		"dh_weapon": "/dh ataque " + strings.Repeat("espadalargx ", 40),
		"dh_armour": "/dh ataque 1d8 vs " + strings.Repeat("corazx ", 65),
		"rq_diff":   "/rq 45 " + strings.Repeat("dificilx ", 54),
		"kh_words":  "/kh 6 " + strings.Repeat("muy ", 120),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rep, _ := r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "w"}, Text: text}, dice.Seeded(1))
				if !rep.Error {
					b.Fatal("accepted garbage")
				}
			}
		})
	}
}

// Every message a shipped file's input names for an error (its errors:)
// is in the catalogs in es, el and en, and a "name" error's "_suggest"
// too: a key the catalogs lack would reach the user as a key.
func TestFileErrorKeysInCatalogs(t *testing.T) {
	cat, have := catalogKeys(t)
	n := 0
	check := func(where string, errs map[string]string) {
		for kind, msg := range errs {
			keys := []string{msg}
			if kind == "name" {
				keys = append(keys, msg+"_suggest")
			}
			for _, l := range core.Langs() {
				for _, k := range keys {
					n++
					if !have[l][k] {
						t.Errorf("%s: errors: %s: %q is not in the %s catalog", where, kind, k, l)
					}
				}
			}
		}
	}
	for _, key := range engine.Shipped() {
		f := engine.MustBuiltin(key).File
		check(key, f.Errors)
		for _, in := range f.Inputs {
			check(key+": input "+in.Key, in.Errors)
			for _, p := range in.Parts {
				check(key+": input "+in.Key+": part "+p.Key, p.Errors)
			}
		}
		// A requirement's message, with its vars and the check's inputs,
		// names nothing it is not given.
		for _, c := range f.Checks {
			for _, r := range c.Require {
				if r.Error == "" {
					continue
				}
				check(key+": check "+c.Key, map[string]string{"require " + r.That: r.Error})
				args := map[string]any{}
				for _, k := range c.Inputs {
					args[k] = 1
				}
				for k, v := range r.Vars {
					args[k] = v
				}
				for _, l := range core.Langs() {
					if msg := cat.Translate(l, r.Error, args); strings.Contains(msg, "<no value>") {
						t.Errorf("%s: check %s: require %q: %s: %q lacks a var", key, c.Key, r.That, l, msg)
					}
				}
			}
		}
		for _, c := range f.Checks {
			check(key+": check "+c.Key, c.Errors)
		}
	}
	if n == 0 {
		t.Error("no file names an error: nothing checked")
	}
}

// Every message a shipped file's reply layout says is in the es, el and
// en catalogs, and names no arg the layout does not give: its parts'
// messages (within values made of parts too), the messages a value names
// (between, above) and the names a value takes from the catalog (say:
// an outcome's, a named value's).
func TestFileLayoutKeysInCatalogs(t *testing.T) {
	cat, have := catalogKeys(t)
	n := 0
	for _, key := range engine.Shipped() {
		f := engine.MustBuiltin(key).File
		if f.Show == nil {
			continue
		}
		check := func(where, msg string, args map[string]any) {
			for _, lang := range core.Langs() {
				n++
				if got := cat.Translate(lang, msg, args); !have[lang][msg] || strings.Contains(got, "<no value>") {
					t.Errorf("%s: %s: %q in %s: %q", key, where, msg, lang, got)
				}
			}
		}
		var parts func(where string, ps []engine.ReplyPart)
		value := func(where string, a engine.ReplyArg) {
			parts(where, a.Parts)
			if a.Between != "" {
				check(where, a.Between, map[string]any{"low": "x", "high": "y"})
			}
			if a.Above != "" {
				check(where, a.Above, map[string]any{"name": "x"})
			}
			if a.Say == "" {
				return
			}
			if a.As == "outcome" {
				for _, o := range f.Outcomes {
					check(where, a.Say+"."+o.Key, nil)
				}
			}
			for _, in := range f.Inputs {
				for _, nv := range in.Named {
					if a.As == "named" && in.Key == a.Of {
						check(where, a.Say+"."+nv.Key, nil)
					}
				}
			}
		}
		parts = func(where string, ps []engine.ReplyPart) {
			for _, p := range ps {
				if p.Say != "" {
					args := map[string]any{}
					for k := range p.Args {
						args[k] = 1
					}
					check(where, p.Say, args)
				}
				for _, a := range p.Args {
					value(where, a)
				}
				if p.Value != nil {
					value(where, *p.Value)
				}
			}
		}
		for i, l := range f.Show.Reply {
			for _, sp := range l.Spans {
				parts(fmt.Sprintf("reply line %d", i+1), sp.Parts)
			}
		}
	}
	if n == 0 {
		t.Error("no file's layout says a message: nothing checked")
	}
}

// catalogKeys are the real catalogs and, by language, the keys each has.
func catalogKeys(t *testing.T) (*i18n.Catalog, map[string]map[string]bool) {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]map[string]bool{}
	for _, l := range core.Langs() {
		have[l] = map[string]bool{}
		for _, k := range cat.Keys(l) {
			have[l][k] = true
		}
	}
	return cat, have
}
