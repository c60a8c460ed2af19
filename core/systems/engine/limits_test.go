package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"zaria/i18n"
)

// base is a small file of a game the project does not ship: d20 + a
// bonus against a target number, a natural 20 always a critical.
const base = `system: roll_over
title: {es: Tirada, el: Ρίψη, en: Roll}
command: ro
inputs:
  - {key: bonus, type: number, min: -10, max: 10, names: {es: bono, el: μπόνους, en: bonus}}
  - {key: target, type: number, min: 1, max: 30, default: 10, prefixes: [tn], names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: critical, success: true, names: {es: crítico, el: κρίσιμη, en: critical}}
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: check
    names: {es: tirada, el: ρίψη, en: check}
    inputs: [bonus, target]
    steps:
      - {roll: d, dice: "1", faces: 20}
      - {let: total, is: d.sum + bonus}
    total: total
    result:
      overrides:
        - {when: d.all(20), outcome: critical}
      on: total - target
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
vectors:
  - {name: hit, inputs: {bonus: "2", target: "12"}, dice: [10], expect: {outcome: success, total: "12"}}
  - {name: miss, inputs: {bonus: "2", target: "12"}, dice: [9], expect: {outcome: failure}}
  - {name: natural 20, inputs: {bonus: "-10", target: "30"}, dice: [20], expect: {outcome: critical}}
  - {name: odds, inputs: {bonus: "2", target: "12"}, expect: {chance: 11/20}}
`

func TestBaseFileLoads(t *testing.T) {
	s, err := Load([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if s.VectorCount() != 4 {
		t.Fatalf("%d vectors", s.VectorCount())
	}
}

func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

// Every limit refuses a file past it with its key, and its message in
// es, el and en names the limit's number.
func TestLimits(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	step := func(extra string) string {
		return strings.Replace(base, "      - {let: total, is: d.sum + bonus}\n", "      - {let: total, is: d.sum + bonus}\n"+extra, 1)
	}
	cases := []struct {
		limit string
		max   int
		file  string
	}{
		{"file_size", MaxFileBytes, base + "#" + strings.Repeat("x", MaxFileBytes)},
		{"inputs", MaxInputs, strings.Replace(base, "inputs:\n", "inputs:\n"+repeat(MaxInputs, func(i int) string {
			return fmt.Sprintf("  - {key: x%d, type: flag, keywords: [x%d], names: {es: x, el: x, en: x}}\n", i, i)
		}), 1)},
		{"named", MaxNamed, strings.Replace(base, "prefixes: [tn],", "prefixes: [tn], named: ["+repeat(MaxNamed+1, func(i int) string {
			return fmt.Sprintf("{value: 1, key: n%d, names: {es: a, el: a, en: a}},", i)
		})+"],", 1)},
		{"table_cells", MaxTableCells, strings.Replace(base, "outcomes:\n", "tables:\n  - {key: big, rows: {from: 1, to: 33}, columns: {from: 1, to: 32}, cells: ["+repeat(33, func(int) string {
			return "[" + strings.TrimSuffix(strings.Repeat("1,", 32), ",") + "],"
		})+"]}\noutcomes:\n", 1)},
		{"pool_dice", MaxPoolDice, strings.Replace(base, `dice: "1", faces: 20`, `dice: "40", faces: 20`, 1)},
		{"faces", MaxFaces, strings.Replace(base, `faces: 20`, `faces: 1001`, 1)},
		{"explode", MaxExplode, strings.Replace(base, `faces: 20}`, `faces: 20, explode: {on: [20], times: 11}}`, 1)},
		{"grant_level", MaxGrantLevel, step("      - {roll: g, dice: d.count(20), faces: 6}\n      - {roll: gg, dice: g.count(6), faces: 6}\n")},
		{"bands", MaxBands, strings.Replace(base, "        - {at_least: \"0\", outcome: success}\n", repeat(MaxBands, func(i int) string {
			return fmt.Sprintf("        - {at_least: \"%d\", outcome: success}\n", 100-i)
		}), 1)},
		{"steps", MaxSteps, step(repeat(MaxSteps, func(i int) string { return fmt.Sprintf("      - {let: v%d, is: \"1\"}\n", i) }))},
		{"readings", MaxReadings, step("      - {let: many, is: \"" + strings.TrimSuffix(repeat(MaxReadings+1, func(i int) string { return fmt.Sprintf("d.count(%d)+", i+1) }), "+") + "\"}\n")},
		{"expr_len", MaxExprLen, step("      - {let: long, is: \"" + strings.Repeat("1+", MaxExprLen/2) + "1\"}\n")},
		{"expr_depth", MaxExprDepth, step("      - {let: deep, is: \"" + strings.Repeat("(", MaxExprDepth) + "1" + strings.Repeat(")", MaxExprDepth) + "\"}\n")},
		{"check_dice", MaxCheckDice, strings.Replace(strings.Replace(base, "vectors:\n", "", 1), "      - {let: total, is: d.sum + bonus}\n", repeat(3, func(i int) string {
			return fmt.Sprintf("      - {roll: p%d, dice: \"30\", faces: 2}\n", i)
		})+"      - {let: total, is: d.sum + bonus}\n", 1)[:0] + checkDiceFile},
	}
	cases = append(cases, []struct {
		limit string
		max   int
		file  string
	}{
		{"tables", MaxTables, strings.Replace(base, "outcomes:\n", "tables:\n"+repeat(MaxTables+1, func(i int) string {
			return fmt.Sprintf("  - {key: t%d, rows: {from: 1, to: 2}, cells: [[1, 2]]}\n", i)
		})+"outcomes:\n", 1)},
		{"checks", MaxChecks, strings.Replace(base, "vectors:\n", repeat(MaxChecks, func(i int) string {
			return fmt.Sprintf("  - {key: c%d, names: {es: a, el: a, en: a}, inputs: [], steps: [], result: {bands: [{outcome: success}]}}\n", i)
		})+"vectors:\n", 1)},
		{"outcomes", MaxOutcomes, strings.Replace(base, "outcomes:\n", "outcomes:\n"+repeat(MaxOutcomes, func(i int) string {
			return fmt.Sprintf("  - {key: o%d, names: {es: a, el: a, en: a}}\n", i)
		}), 1)},
		{"rules", MaxRules, strings.Replace(base, "inputs:\n", "house_rules:\n"+repeat(MaxRules+1, func(i int) string {
			return fmt.Sprintf("  - {key: h%d, names: {es: a, el: a, en: a}, default: a, choices: [{key: a, names: {es: a, el: a, en: a}}, {key: b, names: {es: b, el: b, en: b}}]}\n", i)
		})+"inputs:\n", 1)},
		{"numbers", MaxNumbers, strings.Replace(base, "inputs:\n", "numbers:\n"+repeat(MaxNumbers+1, func(i int) string {
			return fmt.Sprintf("  - {key: n%d, names: {es: a, el: a, en: a}, value: 0, min: 0, max: 1}\n", i)
		})+"inputs:\n", 1)},
		{"requires", MaxRequires, strings.Replace(base, "    inputs: [bonus, target]\n", "    inputs: [bonus, target]\n    require:\n"+repeat(MaxRequires+1, func(i int) string {
			return fmt.Sprintf("      - {that: \"bonus <= %d\", error: ro.error.bonus}\n", 10+i)
		}), 1)},
		{"require_text", MaxRequireText, strings.Replace(base, "    inputs: [bonus, target]\n", "    inputs: [bonus, target]\n    require:\n      - {that: \"bonus <= target\", message: {es: "+strings.Repeat("x", MaxRequireText+1)+", el: x, en: x}}\n", 1)},
		{"gives", MaxGives, strings.Replace(hitsFile, "inputs: {n: 1, s: 2, edge: 3}", "inputs: {"+repeat(MaxGives+1, func(i int) string {
			return fmt.Sprintf("g%d: 1, ", i)
		})+"}", 1)},
		{"vectors", MaxVectors, base + repeat(MaxVectors, func(i int) string {
			return fmt.Sprintf("  - {name: v%d, inputs: {bonus: \"0\"}, dice: [1], expect: {outcome: failure}}\n", i)
		})},
	}...)
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
}

// checkDiceFile rolls three pools of 30 dice: each within its limit, 90
// in all.
var checkDiceFile = strings.Replace(strings.Replace(base, `      - {roll: d, dice: "1", faces: 20}`,
	`      - {roll: d, dice: "1", faces: 20}
      - {roll: p, dice: "30", faces: 2}
      - {roll: q, dice: "30", faces: 2}
      - {roll: r, dice: "30", faces: 2}`, 1), "vectors:\n", "vectors:\n  - {name: many dice, inputs: {bonus: \"0\"}, dice: [20], expect: {outcome: critical}}\n", 1)

// A file's unknown field, a band that can never be reached and a vector
// changed are refused, each naming what is wrong.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name, file, key, want string
	}{
		{"unknown field", strings.Replace(base, "command: ro", "command: ro\ncolour: red", 1), "engine.error.file", "colour"},
		{"unknown field deep", strings.Replace(base, "{roll: d, dice: \"1\", faces: 20}", "{roll: d, dice: \"1\", faces: 20, sides: 6}", 1), "engine.error.file", "sides"},
		{"unreachable band", strings.Replace(base, "        - {at_least: \"0\", outcome: success}\n", "        - {at_least: \"0\", outcome: success}\n        - {at_least: \"5\", outcome: critical}\n", 1), "engine.error.file", "never be reached"},
		{"vector changed", strings.Replace(base, "dice: [9], expect: {outcome: failure}", "dice: [9], expect: {outcome: success}", 1), "engine.error.vector", "miss"},
		{"chance changed", strings.Replace(base, "chance: 11/20", "chance: 1/2", 1), "engine.error.vector", "odds"},
		{"too few dice", strings.Replace(base, "dice: [10]", "dice: []", 1), "engine.error.vector", "hit"},
		{"unknown name", strings.Replace(base, "d.sum + bonus", "d.sum + bonnus", 1), "engine.error.file", "bonnus"},
		{"no es name", strings.Replace(base, "names: {es: bono, el: μπόνους, en: bonus}", "names: {el: μπόνους, en: bonus}", 1), "engine.error.file", "es, el and en"},
		{"malformed", "system: [", "engine.error.file", "line"},
	}
	for _, c := range cases {
		_, err := Load([]byte(c.file))
		var e *Error
		if !errors.As(err, &e) || e.Key != c.key || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s naming %q", c.name, err, c.key, c.want)
		}
	}
	// The first failing vector is the one named, with its line.
	f := strings.Replace(base, "dice: [9], expect: {outcome: failure}", "dice: [9], expect: {outcome: success}", 1)
	f = strings.Replace(f, "dice: [20], expect: {outcome: critical}", "dice: [20], expect: {outcome: failure}", 1)
	_, err := Load([]byte(f))
	var e *Error
	if !errors.As(err, &e) || e.Args["vector"] != "miss" || e.Line != strings.Count(f[:strings.Index(f, "name: miss")], "\n")+1 {
		t.Errorf("first failing vector: %v", err)
	}
}
