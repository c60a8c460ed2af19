package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"zaria/core/dice"
	"zaria/i18n"
)

// Dungeon Hack's usage check writes the die left on the sheet value it
// was read from: d12 from a d20 rolled 2, "agotado" (shown in the chat's
// language) from a d4 rolled 1, nothing when the die holds.
func TestSetsWriteTheUsageDie(t *testing.T) {
	s := MustBuiltin("dh")
	roll := func(die, face int) []SheetWrite {
		t.Helper()
		res, err := s.Roll("usage", Params{Inputs: map[string]int{"die": die}}, dice.NewScripted([]int{face}))
		if err != nil {
			t.Fatal(err)
		}
		return s.WritesFor(res)
	}
	if w := roll(20, 2); len(w) != 1 || w[0].On != "die" || w[0].Text != "d12" || w[0].Shown != nil {
		t.Errorf("d20 rolled 2: %+v", w)
	}
	w := roll(4, 1)
	if len(w) != 1 || w[0].Text != "agotado" || w[0].Shown == nil || w[0].Shown.In("el") != "εξαντλημένο" || w[0].Shown.In("en") != "exhausted" {
		t.Errorf("d4 rolled 1: %+v", w)
	}
	if w := roll(8, 3); len(w) != 0 {
		t.Errorf("d8 rolled 3 holds, yet writes %+v", w)
	}
}

// A usage die the sheet keeps as spent is read so in any language and in
// the file's other spellings, without case or accents; anything else,
// an empty value or another check's input, is not.
func TestReadsZero(t *testing.T) {
	s := MustBuiltin("dh")
	for _, v := range []string{"agotado", "Agotado", "EXHAUSTED", "εξαντλημένο", "Εξαντλημένη", "agotada", "0", "-", " – "} {
		if !s.ReadsZero("usage", "die", v) {
			t.Errorf("%q is not read as spent", v)
		}
	}
	for _, v := range []string{"", " ", "d8", "agotados", "00", "--"} {
		if s.ReadsZero("usage", "die", v) {
			t.Errorf("%q is read as spent", v)
		}
	}
	if s.ReadsZero("repair", "die", "agotado") || s.ReadsZero("usage", "magic", "agotado") || s.ReadsZero("nope", "die", "agotado") {
		t.Error("a check or input with no zero reads one")
	}
}

// A set that names what its check lacks, or writes past the sheet's
// limits, is refused when the file loads, saying what.
func TestSetsRefused(t *testing.T) {
	src, ok := ShippedSource("dh")
	if !ok {
		t.Fatal("no dh.yaml")
	}
	const sets = `    sets:
      - outcomes: [steps_down]
        on: die
        to: after
        write: "d{after}"
        # A sheet may also say so as these, read as agotado.
        zero: {text: agotado, names: {es: agotado, el: εξαντλημένο, en: exhausted}, also: [agotada, εξαντλημένη, "0", "-", "–"]}
`
	if !strings.Contains(string(src), sets) {
		t.Fatal("dh.yaml's usage check has no sets")
	}
	with := func(set string) []byte {
		return []byte(strings.Replace(string(src), sets, "    sets:\n"+set, 1))
	}
	refused := []struct{ name, set, want string }{
		{"unknown outcome", "      - {outcomes: [glory], on: die, to: after}\n", "glory"},
		{"no outcomes", "      - {on: die, to: after}\n", "outcomes"},
		{"unknown input", "      - {outcomes: [steps_down], on: round, to: after}\n", "round"},
		{"unknown let", "      - {outcomes: [steps_down], on: die, to: before}\n", "before"},
		{"write without the value", "      - {outcomes: [steps_down], on: die, to: after, write: dado}\n", "{after}"},
		{"zero without text", "      - {outcomes: [steps_down], on: die, to: after, zero: {names: {es: a, el: b, en: c}}}\n", "zero"},
		{"zero spelled empty", "      - {outcomes: [steps_down], on: die, to: after, zero: {text: x, names: {es: a, el: b, en: c}, also: [\" \"]}}\n", "also"},
		{"zero without a language", "      - {outcomes: [steps_down], on: die, to: after, zero: {text: x, names: {es: a, en: c}}}\n", "es, el and en"},
	}
	for _, c := range refused {
		_, err := Load(with(c.set))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a file error naming %q", c.name, err, c.want)
		}
	}
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	limits := []struct {
		limit string
		max   int
		set   string
	}{
		{"sets", MaxSets, strings.Repeat("      - {outcomes: [steps_down], on: die, to: after}\n", MaxSets+1)},
		{"zero_also", MaxZeroAlso, "      - {outcomes: [steps_down], on: die, to: after, zero: {text: z, names: {es: a, el: b, en: c}, also: [" + strings.Repeat("x, ", MaxZeroAlso) + "x]}}\n"},
		{"sheet_value", MaxSheetValue, "      - {outcomes: [steps_down], on: die, to: after, zero: {text: z, names: {es: a, el: b, en: c}, also: [" + strings.Repeat("y", MaxSheetValue+1) + "]}}\n"},
		{"sheet_value", MaxSheetValue, "      - {outcomes: [steps_down], on: die, to: after, zero: {text: " + strings.Repeat("z", MaxSheetValue+1) + ", names: {es: a, el: b, en: c}}}\n"},
	}
	for _, c := range limits {
		_, err := Load(with(c.set))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.limit."+c.limit {
			t.Errorf("%s: got %v", c.limit, err)
			continue
		}
		for _, lang := range []string{"es", "el", "en"} {
			msg := cat.Translate(lang, e.Key, e.Vars())
			if msg == "" || msg == e.Key || !strings.Contains(msg, fmt.Sprint(c.max)) {
				t.Errorf("%s in %s: %q", c.limit, lang, msg)
			}
		}
	}
}
