package engine

import (
	"errors"
	"strings"
	"testing"
)

func sheetOf(m map[string]int) func(string) (int, error) {
	return func(k string) (int, error) {
		v, ok := m[k]
		if !ok {
			return 0, errors.New("no " + k)
		}
		return v, nil
	}
}

// The chat's words are read from the file's inputs in any order, in es,
// el and en.
func TestParseAnyOrder(t *testing.T) {
	s := MustBuiltin("zaria")
	sheet := sheetOf(map[string]int{"fuerza": 4, "atletismo": 2})
	for _, words := range []string{
		"dc15 fuerza+atletismo",
		"fuerza+atletismo dc15 @Elara",
		"fuerza+atletismo dc 15",
		"@Elara medio fuerza+atletismo",
		"fuerza+atletismo Μέτριο",
		"fuerza+atletismo medium",
		"4+2 15",
	} {
		p, err := s.Parse(strings.Fields(words))
		if err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		if _, err := s.Resolve(&p.Active, sheet); err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		if p.Check != "check" || p.Active.Inputs["mod"] != 6 || p.Active.Inputs["dc"] != 15 {
			t.Errorf("%q: %+v", words, p.Active)
		}
		if strings.Contains(words, "@") && p.Active.Who != "Elara" {
			t.Errorf("%q: who %q", words, p.Active.Who)
		}
	}
	p, err := s.Parse(strings.Fields("npc 6 vs 4+4"))
	if err != nil || p.Check != "opposed" || p.Active.Inputs["npc"] != 1 || p.Passive == nil {
		t.Fatalf("opposed: %+v %v", p, err)
	}
	if _, err := s.Resolve(p.Passive, sheet); err != nil || p.Passive.Inputs["mod"] != 8 {
		t.Fatalf("opposed passive: %+v %v", p.Passive, err)
	}
	ro, err := Load([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range []string{"tn30 -10", "-10 TN 30", "−10 tn30"} {
		p, err := ro.Parse(strings.Fields(words))
		if err != nil || p.Active.Inputs["bonus"] != -10 || p.Active.Inputs["target"] != 30 {
			t.Errorf("%q: %+v %v", words, p, err)
		}
	}
	p, err = s.Parse(strings.Fields("4+2 muy difícil"))
	if err != nil || p.Active.Inputs["dc"] != 25 {
		t.Fatalf("two-word name: %+v %v", p, err)
	}
}

// What is wrong is named: the word, the input and its range.
func TestParseErrors(t *testing.T) {
	s := MustBuiltin("zaria")
	for _, c := range []struct{ words, kind, input, got string }{
		{"4+2 dc40", "range", "dc", "dc40"},
		{"4+2 dc15 dc20", "twice", "dc", "dc20"},
		{"4+2 dcx", "word", "", "dcx"},
		{"4+2+1 dc15", "terms", "mod", "4+2+1"},
		{"4+2 15 16", "word", "", "16"},
		{"4+2 vs 3 vs 4", "vs", "", "vs"},
		{"dc15", "missing", "mod", ""},
	} {
		_, err := s.Parse(strings.Fields(c.words))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Kind != c.kind || pe.Got != c.got || (c.input != "" && (pe.Input == nil || pe.Input.Key != c.input)) {
			t.Errorf("%q: %v", c.words, err)
		}
	}
	p, _ := s.Parse([]string{"11+2", "dc15"})
	var pe *ParseError
	if _, err := s.Resolve(&p.Active, sheetOf(nil)); !errors.As(err, &pe) || pe.Kind != "range" || pe.Min != 1 || pe.Max != 10 {
		t.Errorf("stat 11: %v", err)
	}
}
