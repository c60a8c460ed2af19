package engine

import (
	"errors"
	"strings"
	"testing"
)

// A number input with sheet: true takes a sheet key (Daegon's "sigilo"),
// read by Resolve within the input's range; a named value still names.
func TestParseSheetNumber(t *testing.T) {
	s := MustBuiltin("daegon")
	p, err := s.Parse(strings.Fields("difícil sigilo"))
	if err != nil || p.Active.Inputs["d"] != 3 || len(p.Active.Terms["nh"]) != 1 || p.Active.Terms["nh"][0].Key != "sigilo" {
		t.Fatalf("difícil sigilo: %+v %v", p, err)
	}
	if _, err := s.Resolve(&p.Active, sheetOf(map[string]int{"sigilo": 12})); err != nil || p.Active.Inputs["nh"] != 12 {
		t.Fatalf("sigilo 12: %+v %v", p.Active, err)
	}
	p, _ = s.Parse([]string{"torpe"})
	var pe *ParseError
	if _, err := s.Resolve(&p.Active, sheetOf(map[string]int{"torpe": 16})); !errors.As(err, &pe) || pe.Kind != "range" || pe.Value != 16 || pe.Input.Key != "nh" {
		t.Errorf("torpe 16: %v", err)
	}
}

// A word of an input the check does not take is "check" (a difficulty
// in an opposed test); a word that fits nothing names the input whose
// values it may misspell, with the words from it on.
func TestParseWordErrors(t *testing.T) {
	s := MustBuiltin("daegon")
	for _, c := range []struct{ words, kind, input, unnamed, rest string }{
		{"12 d2 vs 7", "check", "d", "", ""},
		{"12 difícil vs 7", "check", "d", "", ""},
		{"6 muy dificl", "word", "", "d", "muy dificl"},
		{"6 d3 zzz", "word", "", "", "zzz"},
	} {
		_, err := s.Parse(strings.Fields(c.words))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Kind != c.kind || (c.input != "") != (pe.Input != nil) || (pe.Input != nil && pe.Input.Key != c.input) {
			t.Errorf("%q: %v", c.words, err)
			continue
		}
		if (c.unnamed != "") != (pe.Unnamed != nil) || (pe.Unnamed != nil && pe.Unnamed.Key != c.unnamed) || (c.rest != "" && strings.Join(pe.Rest, " ") != c.rest) {
			t.Errorf("%q: unnamed %v, rest %q", c.words, pe.Unnamed, pe.Rest)
		}
	}
}

// An input's errors name a kind of error and a catalog key; anything
// else is refused, as is sheet on an input that is no number.
func TestInputErrorsRefused(t *testing.T) {
	in := "prefixes: [tn], names: {es: objetivo"
	for _, c := range []struct{ name, with, want string }{
		{"unknown kind", "prefixes: [tn], errors: {wrong: ro.error.tn}, names: {es: objetivo", "wrong"},
		{"no catalog key", "prefixes: [tn], errors: {range: \"Out of range!\"}, names: {es: objetivo", "catalog"},
		{"sheet flag", "prefixes: [tn], names: {es: objetivo", ""},
	} {
		f := strings.Replace(base, in, c.with, 1)
		if c.want == "" {
			f = strings.Replace(base, "inputs:\n", "inputs:\n  - {key: npc, type: flag, sheet: true, keywords: [npc], names: {es: pnj, el: μπχ, en: npc}}\n", 1)
			c.want = "sheet"
		}
		if _, err := Load([]byte(f)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	f := strings.Replace(base, in, "prefixes: [tn], errors: {range: ro.error.tn, name: ro.error.tn_name}, names: {es: objetivo", 1)
	if _, err := Load([]byte(f)); err != nil {
		t.Errorf("errors of known kinds: %v", err)
	}
}
