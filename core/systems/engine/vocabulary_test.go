package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// hitsFile is a small game the project does not ship, written with the
// word vocabulary (docs/systems-format.md#word-vocabulary): a blade's
// dice ("2d8", or a blade by name, which gives its dice and edge), a
// signed modifier added up ("+2 +3"), an edge set or moved ("edge2",
// "edge+1"), and after "vs" armour ("2ar", "ar+1", an old die "old8"
// looked up in a table), the armour die in a set (d4, d6, d8, d12) and a
// shield by name, Greek declined.
const hitsFile = `system: hits
title: {es: Golpes, el: Χτυπήματα, en: Hits}
command: hits
inputs:
  - {key: n, type: number, min: 0, max: 6, default: 1, chat: {min: 1, max: 6}, again: last, names: {es: dados, el: ζάρια, en: dice}}
  - {key: s, type: number, min: 0, max: 12, prefixes: [d], count: n, chat: {min: 2, max: 12}, again: last, errors: {dice: hits.error.dice}, names: {es: caras, el: έδρες, en: faces}}
  - {key: mod, type: number, min: -9, max: 9, default: 0, signed: true, again: add, names: {es: mod, el: τροπ, en: mod}}
  - {key: edge, type: number, min: 0, max: 5, default: 0, prefixes: [edge], relative: {up: [edge+], down: [edge-], max: 5}, again: last, names: {es: filo, el: κόψη, en: edge}}
  - {key: armour, type: number, min: 0, max: 9, default: 0, suffixes: [ar], passive: true, relative: {up: [ar+]}, lookup: {prefixes: [old], table: old}, names: {es: armadura, el: πανοπλία, en: armour}}
  - {key: die, type: number, min: 4, max: 12, default: 6, prefixes: [d], faces: [4, 6, 8, 12], passive: true, names: {es: dado, el: ζάρι, en: die}}
  - key: blade
    type: number
    min: 1
    max: 3
    optional: true
    rest: true
    errors: {name: hits.error.blade}
    gives: {table: blades, inputs: {n: 1, s: 2, edge: 3}}
    names: {es: hoja, el: λεπίδα, en: blade}
    named:
      - {value: 1, key: knife, names: {es: cuchillo, el: μαχαίρι, en: knife}}
      - {value: 2, key: twin_blades, names: {es: hojas gemelas, el: δίδυμες λεπίδες, en: twin blades}, keywords: [twins]}
      - {value: 3, key: great_blade, names: {es: gran hoja, el: μεγάλη λεπίδα, en: great blade}}
  - key: shield
    type: number
    min: 1
    max: 2
    optional: true
    passive: true
    rest: true
    errors: {name: hits.error.shield}
    gives: {table: shields, inputs: {armour: 1}}
    names: {es: escudo, el: ασπίδα, en: shield}
    named:
      - {value: 1, key: buckler, names: {es: rodela, el: μικρός θυρεός, en: buckler}}
      - {value: 2, key: tower, names: {es: pavés, el: πύργος, en: tower shield}}
tables:
  - {key: blades, rows: {from: 1, to: 3}, columns: {from: 1, to: 3}, cells: [[1, 6, 0], [2, 4, 1], [1, 10, 2]]}
  - {key: shields, rows: {from: 1, to: 2}, columns: {from: 1, to: 1}, cells: [[1], [2]]}
  - {key: old, rows: {from: 4, to: 8}, cells: [[1, "-", 2, "-", 3]]}
outcomes:
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: hit
    names: {es: golpe, el: χτύπημα, en: hit}
    inputs: [n, s, mod, edge, armour, die, blade, shield]
    glued: true
    bare: [mod]
    steps:
      - {roll: d, dice: n, faces_of: s}
      - {let: total, is: d.sum + mod + edge - armour}
    total: total
    result:
      on: total
      bands:
        - {at_least: "1", outcome: success}
        - {outcome: failure}
  - key: push
    names: {es: empuje, el: ώθηση, en: push}
    inputs: [edge, blade, mod]
    glued: true
    alone: edge
    bare: [mod]
    again: {edge: twice}
    steps:
      - {let: total, is: edge}
    total: total
    result:
      bands:
        - {outcome: success}
vectors:
  - {name: one, inputs: {n: "1", s: "6"}, dice: [4], expect: {total: "4", outcome: success}}
`

func hits(t *testing.T) *System {
	t.Helper()
	s, err := Load([]byte(hitsFile))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// side reads one side of check hit, failing the test on an error.
func side(t *testing.T, s *System, passive bool, words string) *Side {
	t.Helper()
	sd, err := s.ParseSide("hit", passive, strings.Fields(words))
	if err != nil {
		t.Fatalf("%q: %v", words, err)
	}
	return sd
}

// sideErr reads one side of check hit, which must fail with a ParseError.
func sideErr(t *testing.T, s *System, check string, passive bool, words string) *ParseError {
	t.Helper()
	_, err := s.ParseSide(check, passive, strings.Fields(words))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%q: got %v, want a ParseError", words, err)
	}
	return pe
}

func wantInputs(t *testing.T, words string, sd *Side, want map[string]int) {
	t.Helper()
	if fmt.Sprint(sd.Inputs) != fmt.Sprint(want) {
		t.Errorf("%q: inputs %v, want %v", words, sd.Inputs, want)
	}
}

// A dice word gives its count and its sides, each in its chat range;
// the last one typed counts (again: last).
func TestVocabularyDice(t *testing.T) {
	s := hits(t)
	for words, want := range map[string]map[string]int{
		"2d8":       {"n": 2, "s": 8},
		"d10":       {"n": 1, "s": 10},
		"D12":       {"n": 1, "s": 12},
		"2d8 d6":    {"n": 1, "s": 6},
		"6d12 +1":   {"n": 6, "s": 12, "mod": 1},
		"d4 edge2":  {"n": 1, "s": 4, "edge": 2},
		"3d6 edge5": {"n": 3, "s": 6, "edge": 5},
	} {
		wantInputs(t, words, side(t, s, false, words), want)
	}
	for _, w := range []string{"7d6", "0d6", "2d13", "2d1", "d0", "99999999999999999999d6", "2d99999999999999999999"} {
		pe := sideErr(t, s, "hit", false, w)
		if pe.Kind != "dice" || pe.Input.Key != "s" || pe.Count == nil || pe.Count.Key != "n" || pe.Got != w {
			t.Errorf("%q: %+v, want a dice error of s and n naming the word", w, pe)
		}
	}
	// Not dice words: the blade's words, which name none.
	for _, w := range []string{"d", "2d", "d-6", "1d-8", "dd8"} {
		if pe := sideErr(t, s, "hit", false, w); pe.Kind != "name" || pe.Input.Key != "blade" || pe.Got != w {
			t.Errorf("%q: %+v, want a name error of blade", w, pe)
		}
	}
}

// A signed number alone adds up (again: add), each one in range; one
// without its sign is no modifier; one too long to read is named whole.
func TestVocabularySignedAgain(t *testing.T) {
	s := hits(t)
	wantInputs(t, "+2 +3", side(t, s, false, "+2 +3"), map[string]int{"mod": 5})
	wantInputs(t, "+9 +9 −4", side(t, s, false, "+9 +9 −4"), map[string]int{"mod": 14})
	if pe := sideErr(t, s, "hit", false, "+10"); pe.Kind != "range" || pe.Value != 10 || pe.Max != 9 {
		t.Errorf("+10: %+v", pe)
	}
	if pe := sideErr(t, s, "hit", false, "+1 -10"); pe.Kind != "range" || pe.Value != -10 {
		t.Errorf("-10 after +1: %+v, want each word in range", pe)
	}
	if pe := sideErr(t, s, "hit", false, "3"); pe.Kind != "name" || pe.Got != "3" {
		t.Errorf("3: %+v, want no modifier without its sign", pe)
	}
	if pe := sideErr(t, s, "hit", false, "+99999999999999999999"); pe.Kind != "range" || pe.Input.Key != "mod" || pe.Number != "+99999999999999999999" {
		t.Errorf("+99…: %+v", pe)
	}
}

// Relative words add to the input's value (Side.Adds), never set it;
// each number at most relative's max; glued words only.
func TestVocabularyRelative(t *testing.T) {
	s := hits(t)
	sd := side(t, s, false, "knife edge+2 edge−1 EDGE+3")
	if sd.Adds["edge"] != 4 || sd.Inputs["edge"] != 0 {
		t.Errorf("adds %v, inputs %v: want edge 0 from the knife, +4", sd.Adds, sd.Inputs)
	}
	sd = side(t, s, false, "edge2 edge3 edge-5")
	if sd.Inputs["edge"] != 3 || sd.Adds["edge"] != -5 || strings.Join(sd.Words["edge"], " ") != "edge3" {
		t.Errorf("edge2 edge3 edge-5: %v %v %v", sd.Inputs, sd.Adds, sd.Words)
	}
	if pe := sideErr(t, s, "hit", false, "edge+6"); pe.Kind != "range" || pe.Value != 6 || pe.Max != 5 {
		t.Errorf("edge+6: %+v", pe)
	}
	if pe := sideErr(t, s, "hit", false, "edge6"); pe.Kind != "range" || pe.Value != 6 {
		t.Errorf("edge6: %+v", pe)
	}
	for _, w := range []string{"edge-99999999999999999999", "edge99999999999999999999"} {
		if pe := sideErr(t, s, "hit", false, w); pe.Kind != "range" || pe.Number != w {
			t.Errorf("%s: %+v, want the whole word named (glued)", w, pe)
		}
	}
	// A glued check takes no number apart from its prefix, nor a sign
	// but a relative word's: these are words that name no blade.
	for _, w := range []string{"edge 2", "edge+", "edge"} {
		if pe := sideErr(t, s, "hit", false, w); pe.Kind != "name" || pe.Got != w {
			t.Errorf("%q: %+v", w, pe)
		}
	}
}

// After "vs": a lookup adds the table's cell; a die's size in its set;
// a count typed twice is an error naming both words.
func TestVocabularyPassive(t *testing.T) {
	s := hits(t)
	sd := side(t, s, true, "@Bo 2ar old8 ar+1 d8 @Ana")
	if sd.Inputs["armour"] != 2 || sd.Adds["armour"] != 4 || sd.Inputs["die"] != 8 || sd.Who != "Ana" {
		t.Errorf("@Bo 2ar old8 ar+1 d8 @Ana: %v %v %q, want the last @Name", sd.Inputs, sd.Adds, sd.Who)
	}
	for _, w := range []string{"old5", "old9", "old99999999999999999999"} {
		if pe := sideErr(t, s, "hit", true, w); pe.Kind != "lookup" || pe.Got != strings.TrimPrefix(w, "old") {
			t.Errorf("%s: %+v, want a lookup error naming the number", w, pe)
		}
	}
	for w, v := range map[string]int{"d10": 10, "d2": 2, "d99999999999999999999": 0} {
		if pe := sideErr(t, s, "hit", true, w); pe.Kind != "faces" || pe.Value != v || (v == 0) != (pe.Number == w[1:]) {
			t.Errorf("%s: %+v, want a faces error of %d (the digits when too long)", w, pe, v)
		}
	}
	for words, first := range map[string]string{"d4 d6": "d4", "2ar 3ar": "2ar", "1ar rodela 5ar": "1ar"} {
		pe := sideErr(t, s, "hit", true, words)
		if pe.Kind != "twice" || pe.First != first || pe.Got != strings.Fields(words)[len(strings.Fields(words))-1] {
			t.Errorf("%q: %+v, want twice naming %q", words, pe, first)
		}
	}
	if pe := sideErr(t, s, "hit", true, "-3ar"); pe.Kind != "name" || pe.Input.Key != "shield" {
		t.Errorf("-3ar: %+v, want no armour count with a sign", pe)
	}
	// The sides are apart: the attacker's words are no armour, and the
	// attacker's "@Name" is the caller's.
	if pe := sideErr(t, s, "hit", false, "2ar"); pe.Kind != "name" || pe.Input.Key != "blade" {
		t.Errorf("2ar before vs: %+v", pe)
	}
	if pe := sideErr(t, s, "hit", false, "@Ana"); pe.Kind != "name" || pe.Got != "@Ana" {
		t.Errorf("@Ana before vs: %+v", pe)
	}
}

// The words no other input takes name one value together, wherever they
// are, in any language, by a keyword or a Greek name declined; the value
// gives its row's inputs that the words did not type.
func TestVocabularyRestGives(t *testing.T) {
	s := hits(t)
	for words, want := range map[string]map[string]int{
		"twin blades":       {"blade": 2, "n": 2, "s": 4, "edge": 1},
		"twin +1 blades":    {"blade": 2, "n": 2, "s": 4, "edge": 1, "mod": 1},
		"Hojas Gemelas d10": {"blade": 2, "n": 1, "s": 10, "edge": 1},
		"twins edge0":       {"blade": 2, "n": 2, "s": 4, "edge": 0},
		"μεγάλη λεπίδα":     {"blade": 3, "n": 1, "s": 10, "edge": 2},
	} {
		wantInputs(t, words, side(t, s, false, words), want)
	}
	for words, want := range map[string]map[string]int{
		"μικρό θυρεό":      {"shield": 1, "armour": 1},
		"μικρος θυρεος d4": {"shield": 1, "armour": 1, "die": 4},
		"tower shield 5ar": {"shield": 2, "armour": 5},
	} {
		wantInputs(t, words, side(t, s, true, words), want)
	}
	pe := sideErr(t, s, "hit", false, "twin +1 blade")
	if pe.Kind != "name" || pe.Input.Key != "blade" || strings.Join(pe.Rest, " ") != "twin blade" || pe.Got != "twin blade" {
		t.Errorf("twin blade: %+v, want the leftover words named", pe)
	}
	// A value from elsewhere (a character's sheet): only what the words
	// left out.
	sd := side(t, s, false, "d12")
	s.Give(sd, "blade", 3)
	wantInputs(t, "d12 + great blade", sd, map[string]int{"n": 1, "s": 12, "edge": 2})
}

// A number that is the only word gives the check's alone input; with
// other words, only a bare input takes it (Check.Bare: none unsigned).
func TestVocabularyAlone(t *testing.T) {
	s := hits(t)
	sd, err := s.ParseSide("push", false, []string{"3"})
	if err != nil || sd.Inputs["edge"] != 3 {
		t.Fatalf("3: %v %v", sd, err)
	}
	if pe := sideErr(t, s, "push", false, "9"); pe.Kind != "range" || pe.Value != 9 {
		t.Errorf("9: %+v", pe)
	}
	if pe := sideErr(t, s, "push", false, "3 knife"); pe.Kind != "name" || pe.Got != "3 knife" {
		t.Errorf("3 knife: %+v", pe)
	}
}

// A check's again overrides its input's: the edge typed again is the
// last one in a hit, an error in a push.
func TestVocabularyCheckAgain(t *testing.T) {
	s := hits(t)
	if sd := side(t, s, false, "edge2 edge3"); sd.Inputs["edge"] != 3 {
		t.Errorf("hit edge2 edge3: %v", sd.Inputs)
	}
	if pe := sideErr(t, s, "push", false, "edge2 edge3"); pe.Kind != "twice" || pe.First != "edge2" || pe.Got != "edge3" {
		t.Errorf("push edge2 edge3: %+v", pe)
	}
}

// A file's vocabulary that cannot work is refused, naming what is wrong;
// a named value giving more than MaxGives inputs is over the limit.
func TestVocabularyRefused(t *testing.T) {
	for name, c := range map[string]struct{ old, new, want string }{
		"count":       {"count: n,", "count: mod2,", "count"},
		"again":       {"again: add, names: {es: mod", "again: often, names: {es: mod", "again"},
		"check again": {"again: {edge: twice}", "again: {armour: last}", "again"},
		"rest":        {"      - {value: 1, key: buckler, names: {es: rodela, el: μικρός θυρεός, en: buckler}}\n      - {value: 2, key: tower, names: {es: pavés, el: πύργος, en: tower shield}}\n", "", "rest"},
		"gives col":   {"inputs: {n: 1, s: 2, edge: 3}", "inputs: {n: 1, s: 2, edge: 4}", "gives"},
		"gives input": {"inputs: {armour: 1}", "inputs: {shield: 1}", "gives"},
		"bare":        {"bare: [mod]", "bare: [blade2]", "bare"},
		"alone":       {"alone: edge", "alone: armour", "alone"},
		"lookup":      {"table: old}", "table: blades}", "lookup"},
		"faces":       {"faces: [4, 6, 8, 12]", "faces: [4, 6, 8, 20]", "faces"},
		"relative":    {"relative: {up: [ar+]}", "relative: {}", "relative"},
	} {
		f := strings.Replace(hitsFile, c.old, c.new, 1)
		if f == hitsFile {
			t.Fatalf("%s: %q not in the file", name, c.old)
		}
		_, err := Load([]byte(f))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a file error naming %q", name, err, c.want)
		}
	}
}

// ParseWords reads every input of a check as one side, none required
// and "@Name" the caller's.
func TestVocabularyParseInputs(t *testing.T) {
	s := hits(t)
	sd, err := s.ParseInputs("hit", strings.Fields("2d8 2ar old8 rodela"))
	if err != nil {
		t.Fatal(err)
	}
	wantInputs(t, "2d8 2ar old8 rodela", sd, map[string]int{"n": 2, "s": 8, "armour": 2, "shield": 1})
	if sd.Adds["armour"] != 3 {
		t.Errorf("adds %v, want 3 from old8", sd.Adds)
	}
	if sd, err := s.ParseInputs("hit", nil); err != nil || len(sd.Inputs) != 0 {
		t.Errorf("no words: %v %v", sd, err)
	}
	_, err = s.ParseInputs("hit", []string{"@Ana"})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Kind != "name" || pe.Input.Key != "blade" || pe.Check == nil || pe.Check.Key != "hit" {
		t.Errorf("@Ana: %v", err)
	}
}
