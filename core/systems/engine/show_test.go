package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"zaria/i18n"
)

// withShow is the base file with sections added before its vectors.
func withShow(sections string) string {
	return strings.Replace(base, "vectors:\n", sections+"vectors:\n", 1)
}

// A bad show, example or development section is refused, naming what is
// wrong; a good one loads.
func TestShowRefusals(t *testing.T) {
	good := withShow(`example: {es: 2 tn12, el: 2 tn12, en: 2 tn12}
show:
  faces: {20: "⭐", 1: "💀"}
  split: [{sides: true, text: " · "}]
  total: {signed: true, text: {es: "{n} en total", el: "σύνολο {n}", en: "{n} in all"}}
  level: {text: {es: "nivel {n}", el: "επίπεδο {n}", en: "level {n}"}, hide_zero: true}
  json: [total_margin]
`)
	good = strings.Replace(good, "      - {let: total, is: d.sum + bonus}\n", "      - {let: total, is: d.sum + bonus}\n      - {let: total_margin, is: total - target}\n", 1)
	if _, err := Load([]byte(good)); err != nil {
		t.Fatalf("a good show: %v", err)
	}
	cases := []struct{ name, sections, want string }{
		{"unknown field", "show: {glyphs: {1: x}}\n", "glyphs"},
		{"face 0", "show: {faces: {0: x}}\n", "a face from 1"},
		{"empty face", "show: {faces: {1: \"\"}}\n", "one line"},
		{"split both", "show: {split: [{before: d, sides: true, text: \" | \"}]}\n", "either before"},
		{"split neither", "show: {split: [{text: \" | \"}]}\n", "either before"},
		{"split no pool", "show: {split: [{before: hunger, text: \" | \"}]}\n", "no pool \"hunger\""},
		{"total without {n}", "show: {total: {text: {es: éxitos, el: επιτυχίες, en: successes}}}\n", "{n} once"},
		{"level in two languages", "show: {level: {text: {es: \"NE {n}\", en: \"{n} SL\"}}}\n", "es, el and en"},
		{"json taken", "show: {json: [total]}\n", "gives already"},
		{"json unknown", "show: {json: [ladder]}\n", "no let or further result \"ladder\""},
		{"example unread", "example: {es: 2 tn99, el: 2 tn12, en: 2 tn12}\n", "not a check the command reads"},
		{"example in one language", "example: {es: 2 tn12}\n", "es, el and en"},
		{"development on a number", "development: {check: check, on: bonus, keep: marks, words: {es: mejorar, el: βελτίωση, en: improve}, example: {es: a, el: a, en: a}, roll: 100, from: 96, gain: 10}\n", "no terms input"},
		{"development no check", "development: {check: nope, on: bonus, keep: marks, words: {es: mejorar, el: βελτίωση, en: improve}, example: {es: a, el: a, en: a}, roll: 100, from: 96, gain: 10}\n", "no check \"nope\""},
	}
	for _, c := range cases {
		_, err := Load([]byte(withShow(c.sections)))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want naming %q", c.name, err, c.want)
		}
	}
}

// The show section's limits refuse a file past them, each with its
// message in es, el and en naming the limit's number.
func TestShowLimits(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		limit    string
		max      int
		sections string
	}{
		{"show_faces", MaxShowFaces, "show: {faces: {" + repeat(MaxShowFaces+1, func(i int) string { return fmt.Sprintf("%d: x, ", i+1) }) + "}}\n"},
		{"show_list", MaxShowList, "show: {split: [" + repeat(MaxShowList+1, func(int) string { return "{sides: true, text: \" \"}, " }) + "]}\n"},
		{"show_text", MaxShowText, "show: {faces: {1: " + strings.Repeat("x", MaxShowText+1) + "}}\n"},
	}
	for _, c := range cases {
		_, err := Load([]byte(withShow(c.sections)))
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
