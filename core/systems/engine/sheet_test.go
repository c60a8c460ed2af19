package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"zaria/i18n"
)

// withSheet is base with a sheet section.
func withSheet(sheet string) string {
	return strings.Replace(base, "vectors:\n", "sheet:\n"+sheet+"vectors:\n", 1)
}

const okSheet = `  keys:
    - {key: might, kind: stat, value: "3", min: 1, max: 10, names: {es: Poder, el: Ισχύς, en: Might}}
    - {key: gear, kind: text, value: espada, names: {es: Equipo, el: Εξοπλισμός, en: Gear}}
  marks:
    - {check: check, outcomes: [critical], on: bonus, add: 2, max: 5}
`

// A sheet section gives the keys a new sheet starts with and the marks
// an outcome leaves, with add and max filled in.
func TestSheetSection(t *testing.T) {
	s, err := Load([]byte(withSheet(okSheet)))
	if err != nil {
		t.Fatal(err)
	}
	keys := s.SheetKeys()
	if len(keys) != 2 || keys[0].Names.In("el") != "Ισχύς" || keys[1].Value != "espada" {
		t.Fatalf("keys %+v", keys)
	}
	if m := s.MarksFor("check", "critical"); len(m) != 1 || m[0].Add != 2 || m[0].Max != 5 || m[0].On != "bonus" {
		t.Errorf("marks of a critical: %+v", m)
	}
	if m := s.MarksFor("check", "success"); len(m) != 0 {
		t.Errorf("a success marks: %+v", m)
	}
	// The shipped files: the Ζαριά's EPIC WIN adds a point to the skill
	// part, RQ's success ticks the skill once, Kingdom Hearts has four
	// capacities and no marks.
	z := MustBuiltin("zaria").MarksFor("check", "epic_win")
	if len(z) != 1 || z[0].On != "mod.skill" || z[0].Add != 1 || z[0].Max != MaxMarkPoints {
		t.Errorf("zaria epic win: %+v", z)
	}
	if r := MustBuiltin("rq").MarksFor("roll", "success"); len(r) != 1 || r[0].Max != 1 {
		t.Errorf("rq success: %+v", r)
	}
	if r := MustBuiltin("rq").MarksFor("roll", "failure"); len(r) != 0 {
		t.Errorf("rq failure marks: %+v", r)
	}
	var caps []string
	for _, k := range MustBuiltin("kh").SheetKeys() {
		caps = append(caps, k.Names.ES)
	}
	if got := strings.Join(caps, " "); got != "Conocimientos Físico Personalidad Tenacidad" {
		t.Errorf("kh capacities: %s", got)
	}
}

// Every sheet limit refuses a file past it, its message in es, el and en
// naming the number; a sheet that names what the file lacks is refused
// naming it.
func TestSheetLimits(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	key := func(i int) string {
		return fmt.Sprintf("    - {key: k%d, kind: skill, value: \"0\", names: {es: e%d, el: g%d, en: n%d}}\n", i, i, i, i)
	}
	mark := "    - {check: check, outcomes: [success], on: bonus}\n"
	cases := []struct {
		limit string
		max   int
		file  string
	}{
		{"sheet_keys", MaxSheetKeys, withSheet("  keys:\n" + repeat(MaxSheetKeys+1, key))},
		{"sheet_name", MaxSheetName, withSheet("  keys:\n    - {key: a, kind: skill, value: \"0\", names: {es: " + strings.Repeat("a", MaxSheetName+1) + ", el: b, en: c}}\n")},
		{"sheet_value", MaxSheetValue, withSheet("  keys:\n    - {key: a, kind: text, value: " + strings.Repeat("v", MaxSheetValue+1) + ", names: {es: a, el: b, en: c}}\n")},
		{"marks", MaxMarks, withSheet("  keys:\n" + key(0) + "  marks:\n" + strings.Repeat(mark, MaxMarks+1))},
		{"mark_add", MaxMarkAddStep, withSheet("  keys:\n" + key(0) + "  marks:\n    - {check: check, outcomes: [success], on: bonus, add: 11}\n")},
		{"mark_points", MaxMarkPoints, withSheet("  keys:\n" + key(0) + "  marks:\n    - {check: check, outcomes: [success], on: bonus, max: 100}\n")},
	}
	for _, c := range cases {
		_, err := Load([]byte(c.file))
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
	refused := []struct{ name, sheet, want string }{
		{"no keys", "  keys: []\n", "at least one"},
		{"same key", "  keys:\n" + key(1) + key(1), "twice"},
		{"same name", "  keys:\n" + key(1) + "    - {key: k2, kind: skill, value: \"0\", names: {es: E1, el: x, en: y}}\n", "E1"},
		{"unknown kind", "  keys:\n    - {key: a, kind: colour, value: \"0\", names: {es: a, el: b, en: c}}\n", "colour"},
		{"a name with a space", "  keys:\n    - {key: a, kind: skill, value: \"0\", names: {es: dos palabras, el: b, en: c}}\n", "dos palabras"},
		{"value out of range", "  keys:\n    - {key: a, kind: stat, value: \"11\", min: 1, max: 10, names: {es: a, el: b, en: c}}\n", "from 1 to 10"},
		{"unknown check", "  keys:\n" + key(0) + "  marks:\n    - {check: fight, outcomes: [success], on: bonus}\n", "fight"},
		{"unknown outcome", "  keys:\n" + key(0) + "  marks:\n    - {check: check, outcomes: [glory], on: bonus}\n", "glory"},
		{"unknown input", "  keys:\n" + key(0) + "  marks:\n    - {check: check, outcomes: [success], on: skill}\n", "skill"},
		{"unknown part", "  keys:\n" + key(0) + "  marks:\n    - {check: check, outcomes: [success], on: bonus.skill}\n", "part"},
		{"unknown field", "  keys:\n" + key(0) + "  colour: red\n", "colour"},
	}
	for _, c := range refused {
		_, err := Load([]byte(withSheet(c.sheet)))
		var e *Error
		if !errors.As(err, &e) || e.Key != "engine.error.file" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a file error naming %q", c.name, err, c.want)
		}
	}
}

// A sheet may belong to a system whose file declares a sheet section, or
// whose checks read a sheet value (an input with sheet: true) or write
// one; not to a file whose checks never touch a sheet. The shipped
// sheet systems follow, in the bot's order.
func TestHasSheet(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want bool
	}{
		{"no sheet", base, false},
		{"a sheet section", withSheet(okSheet), true},
		{"a sheet input", strings.Replace(base, "names: {es: bono, el: μπόνους, en: bonus}}", "names: {es: bono, el: μπόνους, en: bonus}, sheet: true}", 1), true},
	}
	for _, c := range cases {
		s, err := Load([]byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.HasSheet(); got != c.want {
			t.Errorf("%s: HasSheet %v, want %v", c.name, got, c.want)
		}
	}
	want := "zaria daegon kh rq dh coc v5 wfrp pbta fate sw"
	if got := strings.Join(SheetSystems(), " "); got != want {
		t.Errorf("sheet systems %q, want %q", got, want)
	}
}
