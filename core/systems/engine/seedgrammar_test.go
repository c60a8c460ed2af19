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

// Tagged counts add up, a sheet key's text among them (Kingdom Hearts'
// specialty); a text that gives none is a "sheet" error naming the key.
func TestParseTaggedCounts(t *testing.T) {
	s := MustBuiltin("kh")
	p, err := s.Parse(strings.Fields("fisico fuerza 1s dc17"))
	if err != nil || len(p.Active.Sheets) != 1 || p.Active.Sheets[0] != "fuerza" || p.Active.Terms["cap"][0].Key != "fisico" {
		t.Fatalf("fisico fuerza: %+v %v", p, err)
	}
	if err := s.More(p.Check, &p.Active, "fuerza", "2s, 1i"); err != nil || p.Active.Inputs["s"] != 3 || p.Active.Inputs["i"] != 1 {
		t.Fatalf("2s 1i more: %+v %v", p.Active.Inputs, err)
	}
	var pe *ParseError
	if err := s.More(p.Check, &p.Active, "rara", "tres"); !errors.As(err, &pe) || pe.Kind != "sheet" || pe.Got != "rara" || pe.Input.Key != "s" {
		t.Errorf("tres: %v", err)
	}
	if err := s.More(p.Check, &p.Active, "llave", "-9s"); !errors.As(err, &pe) || pe.Kind != "range" || pe.Value != -6 {
		t.Errorf("-9s: %v", err)
	}
	for _, c := range []struct{ words, kind, number string }{
		{"6 vs 5", "opposed", ""},
		{"5 dc99999999999999999999", "range", "99999999999999999999"},
		{"5 dc-99999999999999999999", "range", "-99999999999999999999"},
	} {
		_, err := s.Parse(strings.Fields(c.words))
		if !errors.As(err, &pe) || pe.Kind != c.kind || pe.Number != c.number {
			t.Errorf("%q: %v", c.words, err)
		}
	}
	// "muy dificl": the sheet key before the wrong word is kept.
	_, err = s.Parse(strings.Fields("6 muy dificl"))
	if !errors.As(err, &pe) || pe.Before != "muy" || pe.Unnamed == nil || pe.Unnamed.Key != "dc" {
		t.Errorf("muy dificl: %+v", err)
	}
}

// A file's own errors are of kinds a whole file has.
func TestFileErrorsRefused(t *testing.T) {
	f := strings.Replace(base, "command: ro\n", "command: ro\nerrors: {range: ro.error.x}\n", 1)
	if _, err := Load([]byte(f)); err == nil || !strings.Contains(err.Error(), "range") {
		t.Errorf("a file's range error: %v", err)
	}
	f = strings.Replace(base, "command: ro\n", "command: ro\nerrors: {word: ro.error.word, opposed: ro.error.opposed}\n", 1)
	if _, err := Load([]byte(f)); err != nil {
		t.Errorf("a file's word and opposed errors: %v", err)
	}
}

// A term out of its part's range names the part, whose errors may name
// the message (Ζαριά's stat and skill).
func TestResolvePartNamed(t *testing.T) {
	s := MustBuiltin("zaria")
	for words, part := range map[string]string{"11+2 dc15": "stat", "4+11": "skill"} {
		p, err := s.Parse(strings.Fields(words))
		if err != nil {
			t.Fatal(err)
		}
		var pe *ParseError
		if _, err := s.Resolve(&p.Active, sheetOf(nil)); !errors.As(err, &pe) || pe.Part == nil || pe.Part.Key != part || pe.Value != 11 {
			t.Errorf("%q: %v", words, err)
		}
	}
}

// In a check that is not opposed, "vs" gives the passive inputs (RQ's
// defensive value), with their own @Name; a characteristic × multiplier
// is read in its forms, each side with its own default multiplier; a
// typed number keeps to the chat's range.
func TestParsePassiveAndTimes(t *testing.T) {
	s := MustBuiltin("rq")
	p, err := s.Parse(strings.Fields("c14 vs @Mira c:fue x2"))
	if err != nil || p.Check != "opposed" || p.Passive == nil || p.Passive.Who != "Mira" {
		t.Fatalf("c14 vs @Mira c:fue x2: %+v %v", p, err)
	}
	if ts := p.Active.Terms["off"]; len(ts) != 1 || ts[0].N != 14 || ts[0].Times != 5 {
		t.Errorf("c14 offensive: %+v", p.Active.Terms)
	}
	if ts := p.Passive.Terms["def"]; len(ts) != 1 || ts[0].Key != "fue" || ts[0].Times != 2 {
		t.Errorf("c:fue x2 defensive: %+v", p.Passive.Terms)
	}
	labels, err := s.Resolve(p.Passive, sheetOf(map[string]int{"fue": 12}))
	if err != nil || p.Passive.Inputs["def"] != 24 || labels["def"][0] != "fue 12×2" {
		t.Errorf("fue 12×2: %v %v %v", p.Passive.Inputs, labels, err)
	}
	for words, want := range map[string]int{"c14": 42, "c14x5 -10": 70, "c:con x4": 40, "con": 30, "c ΣΥΝ x5": 50} {
		p, err := s.Parse(strings.Fields(words))
		if err != nil || p.Check != "roll" {
			t.Errorf("%q: %+v %v", words, p, err)
			continue
		}
		if _, err := s.Resolve(&p.Active, sheetOf(map[string]int{"con": 10, "ΣΥΝ": 10})); err != nil || p.Active.Inputs["skill"] != want {
			t.Errorf("%q: %v %v, want %d", words, p.Active.Inputs, err, want)
		}
	}
	var pe *ParseError
	for words, kind := range map[string]string{"c41": "range", "c14x11": "by", "301": "range", "60 difícil vs 45": "check"} {
		_, err := s.Parse(strings.Fields(words))
		if !errors.As(err, &pe) || pe.Kind != kind {
			t.Errorf("%q: %v, want %s", words, err, kind)
		}
	}
	if _, err := s.Parse([]string{"c41"}); !errors.As(err, &pe) || pe.Times == nil || pe.Value != 41 {
		t.Errorf("c41 names the characteristic's range: %v", err)
	}
	if _, err := s.Parse([]string{"301"}); !errors.As(err, &pe) || pe.Max != 300 {
		t.Errorf("301 names the chat's range: %v", err)
	}
}

// times, chat and passive are checked when the file loads.
func TestTimesAndChatRefused(t *testing.T) {
	in := "prefixes: [tn], names: {es: objetivo"
	for _, c := range []struct{ name, with string }{
		{"chat outside", "prefixes: [tn], chat: {min: 0, max: 99}, names: {es: objetivo"},
		{"times without signs", "prefixes: [tn], times: {prefixes: [c], min: 1, max: 9, by: 1, by_min: 1, by_max: 2}, names: {es: objetivo"},
		{"times by outside", "prefixes: [tn], times: {prefixes: [c], signs: [x], min: 1, max: 9, by: 3, by_min: 1, by_max: 2}, names: {es: objetivo"},
	} {
		if _, err := Load([]byte(strings.Replace(base, in, c.with, 1))); err == nil {
			t.Errorf("%s: loaded", c.name)
		}
	}
}
