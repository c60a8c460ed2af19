package engine

import (
	"errors"
	"strings"
	"testing"

	"zaria/core/dice"
	"zaria/i18n"
)

// duel is a d20 + attack − defence against an optional difficulty, with
// two requirements over its inputs together: a catalog key's, and the
// file's own message in es, el and en.
const duel = `system: duel
title: {es: Duelo, el: Μονομαχία, en: Duel}
command: duel
inputs:
  - {key: atk, type: number, min: 0, max: 10, default: 0, suffixes: [a], names: {es: ataque, el: επίθεση, en: attack}}
  - {key: def, type: number, min: 0, max: 10, default: 0, suffixes: [d], names: {es: defensa, el: άμυνα, en: defence}}
  - {key: dc, type: number, min: 1, max: 30, optional: true, prefixes: [dc], names: {es: dificultad, el: δυσκολία, en: difficulty}}
outcomes:
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: check
    names: {es: tirada, el: ρίψη, en: check}
    inputs: [atk, def, dc]
    require:
      - {that: "atk + def <= 12", error: duel.error.points, vars: {max: 12}}
      - that: dc > atk
        message:
          es: "La dificultad ({dc}) ha de superar el ataque ({atk})."
          el: "Η δυσκολία ({dc}) πρέπει να ξεπερνά την επίθεση ({atk})."
          en: "The difficulty ({dc}) must exceed the attack ({atk})."
    steps:
      - {roll: d, dice: "1", faces: 20}
      - {let: total, is: d.sum + atk - def}
    total: total
    result:
      on: total - dc
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
vectors:
  - {name: hit, inputs: {atk: "3", def: "1", dc: "12"}, dice: [10], expect: {outcome: success, total: "12"}}
  - {name: no dc, inputs: {atk: "10", def: "2"}, dice: [1], expect: {total: "9"}}
  - {name: odds, inputs: {atk: "3", def: "1", dc: "12"}, expect: {chance: 11/20}}
`

// unmetOf parses words of the duel and checks its requirements, as a
// command does before rolling.
func unmetOf(t *testing.T, s *System, words string) (*Unmet, Params) {
	t.Helper()
	p, err := s.Parse(strings.Fields(words))
	if err != nil {
		t.Fatalf("%q: %v", words, err)
	}
	pr := s.Params(p)
	err = s.Require(p.Check, pr)
	var un *Unmet
	if err != nil && !errors.As(err, &un) {
		t.Fatalf("%q: %v", words, err)
	}
	return un, pr
}

// Inputs that break a requirement are refused with its message, the
// first broken named first; Roll and the odds refuse them too, rolling
// nothing; a requirement over an input left out does not apply.
func TestRequireRefuses(t *testing.T) {
	s, err := Load([]byte(duel))
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{"6a 6d dc15", "9a 3d", "dc4 3a"} {
		if un, pr := unmetOf(t, s, ok); un != nil {
			t.Errorf("%q: refused by %q", ok, un.That)
		} else if _, err := s.Roll("", pr, dice.NewScripted([]int{10})); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	un, pr := unmetOf(t, s, "9a 4d dc3")
	if un == nil || un.Key != "duel.error.points" || un.Args["max"] != 12 || un.Args["atk"] != 9 || un.Args["def"] != 4 {
		t.Fatalf("9a 4d dc3: %+v", un)
	}
	src := dice.NewScripted([]int{10})
	var ru *Unmet
	if _, err := s.Roll("", pr, src); !errors.As(err, &ru) || ru.Key != "duel.error.points" || src.Used() != 0 {
		t.Errorf("Roll: %v, %d dice", err, src.Used())
	}
	if _, _, err := s.Chance("", pr); !errors.As(err, &ru) {
		t.Errorf("Chance: %v", err)
	}
	if _, err := s.Odds("", pr); !errors.As(err, &ru) {
		t.Errorf("Odds: %v", err)
	}
	if _, err := s.ValueDist("", pr, "total"); !errors.As(err, &ru) {
		t.Errorf("ValueDist: %v", err)
	}

	// The file's own message, in each language, its {name}s the inputs.
	un, _ = unmetOf(t, s, "5a dc5")
	if un == nil || un.Key != "" {
		t.Fatalf("5a dc5: %+v", un)
	}
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"es": "Esta tirada no se puede hacer: La dificultad (5) ha de superar el ataque (5).",
		"el": "Αυτή η ρίψη δεν γίνεται: Η δυσκολία (5) πρέπει να ξεπερνά την επίθεση (5).",
		"en": "This roll can't be made: The difficulty (5) must exceed the attack (5).",
	} {
		key, args := un.Message(lang)
		if got := cat.Translate(lang, key, args); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// A vector whose inputs break a requirement does not hold: the file is
// refused naming it.
func TestRequireVectorRefused(t *testing.T) {
	f := strings.Replace(duel, "vectors:\n", "vectors:\n  - {name: too strong, inputs: {atk: \"10\", def: \"3\"}, dice: [5], expect: {total: \"12\"}}\n", 1)
	_, err := Load([]byte(f))
	var e *Error
	if !errors.As(err, &e) || e.Key != "engine.error.vector" || e.Args["vector"] != "too strong" || !strings.Contains(err.Error(), "atk + def <= 12") || e.Line == 0 {
		t.Errorf("got %v", err)
	}
}

// A requirement that reads anything but its check's inputs, names no
// message or two, a key that is no catalog key, a message missing a
// language or naming what is neither a var nor an input, is refused
// when the file is loaded, naming what is wrong.
func TestRequireRefusedAtLoad(t *testing.T) {
	const req = `      - {that: "atk + def <= 12", error: duel.error.points, vars: {max: 12}}` + "\n"
	with := func(r string) string { return strings.Replace(duel, req, r+"\n", 1) }
	for _, c := range []struct{ name, file, want string }{
		{"unknown name", with(`      - {that: "atk + dfe <= 12", error: duel.error.points}`), `"dfe" is none`},
		{"a pool", with(`      - {that: "d.sum <= 12", error: duel.error.points}`), `"d" is none`},
		{"a let", with(`      - {that: "total <= 12", error: duel.error.points}`), `"total" is none`},
		{"a number", strings.Replace(with(`      - {that: "atk <= cap", error: duel.error.points}`), "inputs:\n", "numbers:\n  - {key: cap, names: {es: tope, el: όριο, en: cap}, value: 12, min: 0, max: 20}\ninputs:\n", 1), `"cap" is none`},
		{"a table", strings.Replace(with(`      - {that: "tb(atk) > 0", error: duel.error.points}`), "outcomes:\n", "tables:\n  - {key: tb, rows: {from: 0, to: 10}, cells: [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]}\noutcomes:\n", 1), `"tb" is none`},
		{"the other side", with(`      - {that: "opp.atk <= 12", error: duel.error.points}`), `"opp" is none`},
		{"no input read", with(`      - {that: "1 <= 12", error: duel.error.points}`), "reads none of the check's inputs"},
		{"neither", with(`      - {that: "atk <= 12"}`), "one of error"},
		{"both", with(`      - {that: "atk <= 12", error: duel.error.points, message: {es: a, el: a, en: a}}`), "one of error"},
		{"no catalog key", with(`      - {that: "atk <= 12", error: "Too many!"}`), "no catalog key"},
		{"no el", with(`      - {that: "atk <= 12", message: {es: Demasiados, en: Too many}}`), "es, el and en"},
		{"unknown placeholder", with(`      - {that: "atk <= 12", message: {es: "{tope}", el: "{tope}", en: "{tope}"}}`), "{tope} is neither a var nor an input"},
		{"bad var", with(`      - {that: "atk <= 12", error: duel.error.points, vars: {Max: 12}}`), `"Max" is no key`},
		{"not an expression", with(`      - {that: "atk <=", error: duel.error.points}`), "atk <="},
	} {
		_, err := Load([]byte(c.file))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) || e.Line == 0 {
			t.Errorf("%s: got %v, want engine.error.file naming %q and a line", c.name, err, c.want)
		}
	}
}

// In an opposed check each side meets the requirement with its own
// inputs: the passive side's breach is named with its numbers.
func TestRequireOpposed(t *testing.T) {
	f := strings.Replace(duel, "vectors:\n", `  - key: contest
    names: {es: enfrentada, el: αντιπαράθεση, en: contest}
    inputs: [atk, def]
    opposed: {compare: [total], tie: active}
    require:
      - {that: "atk + def <= 12", error: duel.error.points, vars: {max: 12}}
    steps:
      - {roll: d, dice: "1", faces: 20}
      - {let: total, is: d.sum + atk - def}
    result:
      overrides:
        - {when: won, outcome: success}
      bands:
        - {outcome: failure}
vectors:
  - {name: contest, check: contest, inputs: {atk: "3"}, passive: {atk: "1"}, dice: [10, 10], expect: {winner: active}}
`, 1)
	s, err := Load([]byte(f))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words    string
		atk, def int // the side named; 0, 0: none breaks it
	}{
		{"3a vs 9a 4d", 9, 4},
		{"8a 5d vs 1a", 8, 5},
		{"8a 4d vs 10a 2d", 0, 0},
	} {
		un, _ := unmetOf(t, s, c.words)
		switch {
		case c.atk == 0 && un != nil:
			t.Errorf("%q: refused by %q", c.words, un.That)
		case c.atk != 0 && (un == nil || un.Check != "contest" || un.Args["atk"] != c.atk || un.Args["def"] != c.def):
			t.Errorf("%q: %+v", c.words, un)
		}
	}
}
