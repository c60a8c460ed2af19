package systems_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/systems"
	"zaria/core/systems/engine"
)

// formCommand writes f's command as the page does: each field's default
// (or its first choice, or its lowest number; a terms part where the page
// starts it), vals overriding.
func formCommand(f systems.Form, vals map[string]string) string {
	words := []string{"/" + f.Command}
	for _, fd := range f.Fields {
		v, ok := vals[fd.Key]
		switch {
		case ok:
		case fd.Kind == "flag":
			continue
		case fd.Kind == "word":
			v = fd.Choices[0].Value
		case fd.Kind == "terms":
			var ps []string
			for _, p := range fd.Parts {
				// Where the page starts a part: its lowest value, or 0
				// when the range holds it (an adjustment of -99..99).
				start := 0
				if p.Min > 0 || p.Max < 0 {
					start = p.Min
				}
				ps = append(ps, strconv.Itoa(start))
			}
			v = strings.Join(ps, "+")
		case fd.Default != nil:
			v = strconv.Itoa(*fd.Default)
		case fd.Optional:
			continue
		default:
			v = strconv.Itoa(max(fd.Min, 1))
		}
		if fd.Kind == "flag" {
			if v == "" {
				continue
			}
			v = fd.Word
		}
		if fd.Before != "" {
			words = append(words, fd.Before)
		}
		if fd.Kind == "number" {
			v = fd.Prefix + v + fd.Suffix
		}
		words = append(words, v)
	}
	return strings.Join(words, " ")
}

// TestFormsAreTheFiles: issue 33, the page's forms come from the file.
// The dice screen's checks are every system file's checks a side rolls
// alone, and Dungeon Hack's attack; a Ζαριά check is attribute + skill
// against a named DC that starts at «media» (15); each form's command,
// with its defaults and with every named value, is a check the system
// rolls, in each language.
func TestFormsAreTheFiles(t *testing.T) {
	r := choicesBot(t)
	ctx := context.Background()
	labels := map[string][3]string{ // es, el, en
		"zaria.check": {"atributo", "χαρακτηριστικό", "stat"},
		"kh.test":     {"dados sincorazón", "ζάρια χωρίς καρδιά", "heartless dice"},
		"dh.attack":   {"Arma", "", "Weapon"},
	}
	for li, lang := range []string{"es", "el", "en"} {
		say(t, r, lang, "/pj")
		msg := core.Message{Chat: core.ChatRef{Platform: "console", ID: "choices-" + lang}, From: core.User{ID: "u1", Name: "Ana"}}
		fs, err := systems.Forms(ctx, r, msg)
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string]systems.Form{}
		commands := map[string]bool{}
		for _, f := range fs {
			byKey[f.Key] = f
			commands[f.Command] = true
		}
		for _, key := range engine.Shipped() {
			if !commands[engine.MustBuiltin(key).File.Command] {
				t.Errorf("%s: no form for the system file %s", lang, key)
			}
		}
		if !commands["dh"] {
			t.Errorf("%s: no Dungeon Hack form", lang)
		}
		z := byKey["zaria.check"]
		if len(z.Fields) != 3 || z.Fields[0].Kind != "terms" || len(z.Fields[0].Parts) != 2 || z.Fields[2].Prefix != "dc" ||
			z.Fields[2].Default == nil || *z.Fields[2].Default != 15 || len(z.Fields[2].Choices) != 6 {
			t.Fatalf("%s: Ζαριά's form %+v", lang, z)
		}
		if got := z.Fields[2].Choices[2]; got.Value != "15" || got.Label != [3]string{"media", "Μέτριο", "medium"}[li] {
			t.Errorf("%s: Ζαριά's DC 15 is %+v", lang, got)
		}
		for _, k := range []string{"zaria.opposed", "rq.opposed", "daegon.opposed"} {
			if _, ok := byKey[k]; ok {
				t.Errorf("%s: %s offered", lang, k)
			}
		}
		if k := byKey["kh.test"]; len(k.Fields) != 4 || k.Fields[1].Suffix != "s" || k.Fields[2].Suffix != "i" {
			t.Errorf("%s: Kingdom Hearts' form %+v", lang, k)
		}
		if d := byKey["dh.attack"]; len(d.Fields) != 2 || len(d.Fields[0].Choices) != 46 || len(d.Fields[1].Choices) != 13 || d.Fields[1].Before != "vs" {
			t.Errorf("%s: Dungeon Hack's form %+v", lang, d)
		}
		for key, want := range labels {
			f := byKey[key]
			got := f.Fields[0].Label
			if f.Fields[0].Kind == "terms" {
				got = f.Fields[0].Parts[0].Label
			}
			if key == "kh.test" {
				got = f.Fields[1].Label
			}
			if want[li] != "" && got != want[li] {
				t.Errorf("%s: %s's first label %q, want %q", lang, key, got, want[li])
			}
		}
		for _, f := range fs {
			runs := []string{formCommand(f, nil)}
			for _, fd := range f.Fields {
				for _, c := range fd.Choices {
					runs = append(runs, formCommand(f, map[string]string{fd.Key: c.Value}))
				}
				if fd.Kind == "flag" {
					runs = append(runs, formCommand(f, map[string]string{fd.Key: "1"}))
				}
			}
			for _, cmd := range runs {
				// The words reach the form's check, not another of its system.
				if sys, check, _ := strings.Cut(f.Key, "."); f.Command != "dh" {
					p, err := engine.MustBuiltin(sys).Parse(strings.Fields(cmd)[1:])
					if err != nil || p.Check != check {
						t.Errorf("%s: %s's %q reads as %+v %v", lang, f.Key, cmd, p, err)
					}
				}
				rep := say(t, r, lang, cmd)
				if rep.Error || rep.Command == "" {
					t.Errorf("%s: %s's %q: %v", lang, f.Key, cmd, rep.Lines)
				}
			}
		}
	}
}
