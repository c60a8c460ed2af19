package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/reply"
)

// outsider4 is a file of the fourth outsider (core/systems/engine/
// testdata/outsider4) with edits (old, new, …) applied.
func outsider4(t *testing.T, file string, edits ...string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "core", "systems", "engine", "testdata", "outsider4", file+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			t.Fatalf("%s: %q is no longer in the file", file, edits[i])
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	return text
}

// wgZero is Wrath & Glory's file as the outsider tried it: a pool of 0
// allowed, its other dice "pool - 1", under the command /wgz.
func wgZero(t *testing.T) string {
	return outsider4(t, "wg", "system: wg\n", "system: wgz\n", "command: wg\n", "command: wgz\n",
		"{key: pool, type: number, min: 1,", "{key: pool, type: number, min: 0,")
}

// dh2Signed is Dark Heresy 2e's file with its modifier signed: true.
func dh2Signed(t *testing.T) string {
	return outsider4(t, "dh2", "default: 0, names: {es: modificador", "default: 0, signed: true, names: {es: modificador")
}

// halfFile rolls half its input's dice: an odd input gives no whole
// number of dice.
const halfFile = `system: half
title: {es: Mitad, el: Μισό, en: Half}
command: half
inputs:
  - {key: n, type: number, min: 1, max: 10, names: {es: dados, el: ζάρια, en: dice}}
outcomes:
  - {key: success, success: true, names: {es: Éxito, el: Επιτυχία, en: Success}}
  - {key: failure, success: false, names: {es: Fallo, el: Αποτυχία, en: Failure}}
checks:
  - key: test
    names: {es: prueba, el: δοκιμή, en: test}
    inputs: [n]
    steps:
      - {roll: r, dice: n / 2, faces: 6}
    total: r.sum
    result:
      on: r.sum
      bands:
        - {at_least: "4", outcome: success}
        - {outcome: failure}
example: {es: "4", el: "4", en: "4"}
vectors:
  - {name: H1, inputs: {n: "4"}, dice: [3, 2], expect: {outcome: success, total: "5"}}
  - {name: H2, inputs: {n: "2"}, expect: {chance: 1/2}}
`

// The fourth outsider's files (Chronicles of Darkness, Burning Wheel,
// Wrath & Glory, Cortex, Dark Heresy 2e) imported into a chat in
// Spanish, Greek and English and used as a GM would: a pool whose count
// comes below 0 rolls no dice (Wrath & Glory's pool of 0: the Wrath die
// alone), in a roll and in /odds; a signed number goes to the signed
// modifier wherever it is typed; /odds of a file without its target
// suggests the file's odds_example and gives the chance at each value of
// the target, as /odds zaria does at each DC; a pool's count that is no
// whole number is refused by name in the chat's language.
func TestForkImportOutsider4Files(t *testing.T) {
	d := newForkDesk(t)
	files := []string{outsider4(t, "cofd"), outsider4(t, "bw"), outsider4(t, "wg"), outsider4(t, "cortex"), dh2Signed(t), wgZero(t), halfFile}
	for _, chat := range []string{"es", "el", "en"} {
		if chat != "es" {
			d.want(d.send(chat, true, "/lang "+chat), false)
		}
		for _, src := range files {
			cmd := strings.SplitN(strings.SplitN(src, "command: ", 2)[1], "\n", 2)[0]
			d.want(d.send(chat, true, "/sistema importar\n"+src), false, "/"+cmd)
		}
	}
	for _, c := range []struct {
		chat, text string
		dice       []int
		want       []string
	}{
		// Each file rolled with chosen dice: the exact chance as oddsB.py gives it.
		{"es", "/cofd 5", []int{8, 10, 9, 3, 1, 2}, []string{"Éxito", "83,19 %"}},
		{"el", "/bw 4 γκρίζα εμπ2", []int{4, 3, 1, 1}, []string{"Επιτυχία", "88,89 %"}},
		{"en", "/wg 5 dn4", []int{4, 5, 6, 1, 2}, []string{"Success", "44.21%"}},
		{"es", "/cortex 2d8 1d6 10", []int{8, 3, 4}, []string{"Éxito", "48,18 %"}},
		// Wrath & Glory with a pool of 0: "pool - 1" is -1, no dice; the
		// Wrath die alone (4+ is an icon: 1/2).
		{"es", "/wgz 0 dn1", []int{5}, []string{"🎲 5 = 1 iconos", "Éxito", "50 %"}},
		{"el", "/wgz 0 δα1", []int{1}, []string{"0 εικονίδια", "Επιπλοκή", "Αποτυχία", "50 %"}},
		{"en", "/wgz 0 dn2", []int{6}, []string{"= 2 icons", "Wrath critical", "Success", "16.67%"}},
		// The signed modifier first, the characteristic after it.
		{"en", "/dh2 +10 35", []int{23}, []string{"🎲 23 = 23", "Success · degrees +3", "45%"}},
		{"es", "/dh2 -10 35", []int{23}, []string{"Éxito · grados +1", "25 %"}},
		{"el", "/dh2 35 +10", []int{46}, []string{"Αποτυχία", "45 %"}},
	} {
		d.want(d.send(c.chat, false, c.text, c.dice...), false, c.want...)
	}
	// /odds of a pool of 0: the Wrath die's chances, not an error.
	d.want(d.send("es", false, "/odds wgz 0 dn1"), false, "🎯 éxito: 50 %", "Crítico de Cólera 16,67 %", "Complicación      16,67 %")
	d.want(d.send("en", false, "/odds wgz 0 dn2"), false, "🎯 success: 16.67%")
	// /odds without the check: the file's odds_example, not its example.
	d.want(d.send("es", false, "/odds bw"), true, "/odds bw 4 gris (")
	if got := reply.PlainText(d.send("el", false, "/odds bw")); !strings.HasSuffix(got, "Για παράδειγμα: /odds bw 4 γκρίζα") {
		t.Errorf("/odds bw in Greek: %q, want the odds_example", got)
	}
	d.want(d.send("en", false, "/odds bw"), true, "/odds bw 4 grey (")
	d.want(d.send("en", false, "/odds wg"), true, "/odds wg 5 dn3")
	// Without the obstacle, the chance at each: 4 grey dice succeed on
	// 3+ (2/3 each): 80/81, 8/9, 16/27, 16/81, then none.
	d.want(d.send("es", false, "/odds bw 4 gris"), false, "Probabilidad de éxito:",
		"obstáculo 1    98,77 %", "obstáculo 2    88,89 %", "obstáculo 3    59,26 %", "obstáculo 4    19,75 %", "obstáculo 5–12     0 %")
	d.want(d.send("el", false, "/odds bw 4 γκρίζα"), false, "εμπόδιο 3    59,26 %")
	d.want(d.send("en", false, "/odds bw 4 grey open"), false, "obstacle 1")
	// Cortex without its difficulty: the table, and the botch that needs none.
	d.want(d.send("en", false, "/odds cortex 2d8 1d6"), false, "difficulty 10    48.18%", "difficulty 16–30     0%", "Botch 0.26%")
	if got := reply.PlainText(d.send("en", false, "/odds cortex 2d8 1d6")); strings.Contains(got, "🎯") {
		t.Errorf("/odds cortex without a difficulty gives a chance of success beside the table: %s", got)
	}
	// A shipped file the same: Fate's +2 at each opposition, 4dF
	// beating it by 1 (80/81 against −2, 31/81 against +2).
	d.want(d.send("en", false, "/odds fate +2"), false, "opposition −2   98.77% Terrible", "opposition 2    38.27% Fair")
	// With the obstacle typed, no table: that obstacle's chance.
	d.want(d.send("en", false, "/odds bw 4 grey ob3"), false, "🎯 success: 59.26%")
	if got := reply.PlainText(d.send("en", false, "/odds bw 4 grey ob3")); strings.Contains(got, "obstacle 1") {
		t.Errorf("/odds with the obstacle typed gives the table: %s", got)
	}
	// A pool's count that is no whole number: named, in the chat's language.
	d.want(d.send("es", false, "/half 3"), true, "La reserva «r» no da un número entero de dados con estos valores.")
	d.want(d.send("el", false, "/odds half 3"), true, "Η ομάδα ζαριών «r» δεν δίνει ακέραιο αριθμό ζαριών")
	d.want(d.send("en", false, "/odds half 5"), true, "The pool «r» gives no whole number of dice for these values.")
	d.want(d.send("en", false, "/half 4", 3, 4), false, "= 7", "Success")
}

// zaria system try names what is wrong as an English chat does: the
// word that fits nothing with the file's example, the number out of its
// input's range, a pool's count that is no whole number; a pool of 0 in
// "pool - 1" rolls no dice.
func TestSystemTryOutsider4(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	wgz, dh2, half := write("wgz.yaml", wgZero(t)), write("dh2.yaml", dh2Signed(t)), write("half.yaml", halfFile)
	for _, c := range []struct {
		args      []string
		code      int
		want, not string
	}{
		{[]string{"--dice", "5", wgz, "0 dn1"}, 0, "dice [5], total 1, success", "engine."},
		{[]string{wgz, "0 dn1"}, 0, "chance = 1/2", "engine."},
		{[]string{"--dice", "23", dh2, "+10 35"}, 0, "map[char:35 mod:10]: dice [23], total 23, success, level 3", "engine."},
		{[]string{dh2, "35 10"}, 2, "I don't understand «10». For example: /dh2 35 +10", "engine:"},
		{[]string{dh2, "101"}, 2, "The characteristic goes from 1 to 100; you wrote 101.", "engine:"},
		{[]string{dh2, "+10"}, 2, "The characteristic is missing. For example: /dh2 35 +10", "engine:"},
		{[]string{"--dice", "4", half, "3"}, 2, "The pool «r» gives no whole number of dice for these values.", "engine."},
	} {
		code, out, errs := runZaria(t, append([]string{"system", "try"}, c.args...)...)
		if code != c.code || !strings.Contains(out+errs, c.want) || strings.Contains(out+errs, c.not) {
			t.Errorf("system try %q: exit %d, %s%s; want exit %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
}

// A pool read more ways than the engine keeps is refused naming the
// pool and the line that reads it, in the chat's language.
func TestForkImportReadingsLimitNamed(t *testing.T) {
	const many = `      - {let: many, is: "r.count(1) + r.count(2) + r.count(3) + r.count(5) + r.count_ge(2) + r.count_ge(3) + r.count_ge(5) + r.sum + r.highest"}` + "\n"
	src := outsider4(t, "wg", "      - {let: shifts,", many+"      - {let: shifts,")
	line := strings.Count(src[:strings.Index(src, "{let: many")], "\n") + 1
	d := newForkDesk(t)
	for _, c := range []struct{ chat, want string }{
		{"es", fmt.Sprintf("Línea %d: la reserva «r» se lee de 9 maneras; como mucho 8.", line)},
		{"el", fmt.Sprintf("Γραμμή %d: η ομάδα ζαριών «r» διαβάζεται με 9 τρόπους· το πολύ 8.", line)},
		{"en", fmt.Sprintf("Line %d: the pool «r» is read 9 ways; at most 8.", line)},
	} {
		if c.chat != "es" {
			d.want(d.send(c.chat, true, "/lang "+c.chat), false)
		}
		d.want(d.send(c.chat, true, "/sistema importar\n"+src), true, c.want)
	}
}
