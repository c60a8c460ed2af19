package main

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// The second outsider's files (core/systems/engine/testdata/outsider:
// Year Zero, L5R, Mothership, oWoD, AGE, Tiny d6) as a GM uses them: each
// imported into a chat in Spanish, Greek and English, then rolled by its
// command with chosen dice: the dice as the file's show writes them, the
// further result (Year Zero's damage, AGE's stunt points) after the
// total, the outcome and its level, the exact chance; a requirement's
// message in the chat's language; /odds of it.
func TestForkImportOutsider2Files(t *testing.T) {
	d := newForkDesk(t)
	files := []struct{ file, name string }{
		{"yze", "Year Zero"}, {"l5r", "La leyenda de los cinco anillos"}, {"mothership", "Mothership"},
		{"owod", "Narrador (oWoD)"}, {"age", "AGE"}, {"tinyd6", "Tiny d6"},
	}
	for _, chat := range []string{"es", "el", "en"} {
		if chat != "es" {
			d.want(d.send(chat, true, "/lang "+chat), false)
		}
		for _, f := range files {
			src := readOutsider(t, f.file+".yaml")
			d.want(d.send(chat, true, "/sistema importar\n"+src), false, "/"+strings.SplitN(strings.SplitN(src, "command: ", 2)[1], "\n", 2)[0])
		}
	}
	d.want(d.send("es", true, "/sistema"), false, "Year Zero", "Mothership", "Tiny d6")
	for _, c := range []struct {
		chat, text string
		dice       []int
		want       []string
	}{
		// Year Zero: 6s succeed, the base dice's 1s are damage.
		{"es", "/yz 3 2 1", []int{6, 1, 3, 4, 2, 5}, []string{"🎲 6 1 3 | 4 2 | 5 = 1 éx. 1 de daño", "éxito", "66,51 %"}},
		{"el", "/yz 3 2 1", []int{1, 1, 3, 4, 2, 5}, []string{"= 0 επιτ. 2 ζημιές", "αποτυχία", "66,51 %"}},
		{"en", "/yz 1 2", []int{5, 1, 1}, []string{"🎲 5 | 1 1 = 0 succ.", "failure", "42.13%"}},
		// L5R: 3k2 keeps the two best, a 10 explodes.
		{"es", "/l5r 3k2 nd15", []int{10, 4, 3, 2}, []string{"= 17", "éxito", "46,98 %"}},
		{"el", "/l5r 2k1 βσ15", []int{10, 10, 7, 5}, []string{"= 27", "επιτυχία", "11,64 %"}},
		// Mothership: under the stat, doubles critical, [+] the better.
		{"es", "/ms 45 [+]", []int{7, 2, 4, 1}, []string{"🎲 7 2 / 4 1 = 41", "éxito", "69,75 %"}},
		{"en", "/ms 45", []int{10, 10}, []string{"🎲 0 0 = 0", "critical success", "45%"}},
		{"el", "/ms 99", []int{9, 9}, []string{"= 99", "κρίσιμη αποτυχία", "90 %"}},
		// oWoD: 1s cancel, a botch, the net successes as the level.
		{"es", "/wod 5 dif 7", []int{7, 10, 3, 1, 8}, []string{"🎲 7 0 3 1 8 = 2 éx.", "éxito · nivel +2", "76,24 %"}},
		{"el", "/wod 3", []int{5, 1, 2}, []string{"= 0 επιτ.", "καταστροφή", "74 %"}},
		{"en", "/wod 2 diff 8 spec", []int{10, 1}, []string{"= 1 succ.", "success · level +1"}},
		// AGE: doubles on a success give the Dragon Die's stunt points.
		{"es", "/age 3 nd13", []int{4, 2, 4}, []string{"🎲 4 2 🐉4 = 13 4 puntos de proeza", "éxito", "62,5 %"}},
		{"en", "/age 0 tn11", []int{1, 1, 6}, []string{"= 8", "failure", "50%"}},
		// Tiny d6: 2d6, 3 with advantage, 1 with disadvantage.
		{"es", "/tiny ventaja", []int{1, 2, 6}, []string{"éxito", "70,37 %"}},
		{"el", "/tiny μειονέκτημα εστίαση", []int{4}, []string{"επιτυχία", "50 %"}},
		{"en", "/tiny", []int{4, 3}, []string{"failure", "55.56%"}},
	} {
		d.want(d.send(c.chat, false, c.text, c.dice...), false, c.want...)
	}
	if got := reply.PlainText(d.send("es", false, "/yz 2", 6, 2)); strings.Contains(got, "daño") {
		t.Errorf("a roll with no 1 on the base dice shows damage: %q", got)
	}
	// A requirement of the file, in the chat's language.
	d.want(d.send("es", false, "/ms 45 [+] [-]"), true, "Ventaja y desventaja se anulan")
	d.want(d.send("en", false, "/l5r 3k4"), true, "You can't keep more dice (4) than you roll (3).")
	d.want(d.send("es", false, "/wod 3 dif 11"), true, "«dificultad» va de 2 a 10")
	// A dice word out of range names both ranges; "k2" is one die kept
	// of one rolled, so after "3" it gives the dice rolled twice.
	d.want(d.send("es", false, "/l5r 11k2"), true, "«11k2»: dados tirados de 1 a 10 y dados guardados de 1 a 10.")
	d.want(d.send("el", false, "/l5r 3k0"), true, "«3k0»: ζάρια που ρίχνεις από 1 έως 10 και ζάρια που κρατάς από 1 έως 10.")
	d.want(d.send("en", false, "/l5r 3 k2"), true, "You wrote the dice rolled twice («k2»).")
	d.want(d.send("es", false, "/odds wod 3"), false, "fracaso", "6,1 %", "éxito", "74 %")
	// /odds gives a further result's chances too, when some rolls lack
	// it: Year Zero's damage (25/72, 5/72, 1/216), AGE's stunt points.
	d.want(d.send("es", false, "/odds yz 3 2 1"), false, "Además, en la misma tirada:", "1 de daño 34,72 %", "2 de daño  6,94 %", "3 de daño  0,46 %")
	d.want(d.send("en", false, "/odds age 3 tn13"), false, "Also, in the same roll:", "6 stunt points 6.94%", "1 stunt point  0.93%")
	// Six d10 exploding 5 times (10³⁶ rolls) read by their kept sum:
	// exact (odds2.py: 6k6 tn30 is 18376729/25000000). 5k3, which the
	// file refused before sum_highest, rolls.
	if got := reply.PlainText(d.send("es", false, "/odds l5r 6k6 nd30")); strings.Contains(got, "≈") || !strings.Contains(got, "73,51 %") {
		t.Errorf("the odds of 6k6 are not exact: %q", got)
	}
	d.want(d.send("el", false, "/l5r 5k3"), false, "= ")
	// Past the engine's budget (20 d6 read by their sum and their highest
	// die: 6²⁰ rolls, not one reading) the chances are sampled, and /odds
	// says so as the roll does.
	d.want(d.send("es", true, "/sistema importar\n"+sampledFile), false, "/grande")
	d.want(d.send("es", false, "/odds grande 20 nd70"), false, "🎯 éxito: ≈", "fallo ≈")
	d.want(d.send("es", false, "/grande 20 nd70"), false, "📊 Probabilidad de éxito: ≈")
	if got := reply.PlainText(d.send("es", false, "/odds l5r 3k2 nd15")); strings.Contains(got, "≈") || !strings.Contains(got, "46,98 %") {
		t.Errorf("the exact odds of 3k2 are written as sampled: %q", got)
	}
}

// zaria system try writes the further results by their outcomes, and no
// chance when no band applies (L5R without a target number), as the chat
// does; the usage names try.
func TestSystemTryOutsider2(t *testing.T) {
	wantSystemTry(t, "4,2,4", "age.yaml", "3 nd13", []string{"total 13, success, stunts sp4", "chance = 5/8"})
	wantSystemTry(t, "9,8,3", "l5r.yaml", "3k2", []string{"total 17\n", "no chance of success"}, "chance =")
	_, out, errs := runZaria(t, "help")
	if !strings.Contains(out+errs, "zaria system try [--dice 3,8] FILE|NAME 'WORDS'") {
		t.Errorf("the usage lacks system try: %s%s", out, errs)
	}
}

// sampledFile is a pool of d6 read two ways, its sum less its highest
// die: past 10^15 rolls its odds are sampled.
const sampledFile = `system: grande
title: {es: Grande, el: Μεγάλο, en: Big}
command: grande
inputs:
  - {key: n, type: number, min: 1, max: 32, names: {es: dados, el: ζάρια, en: dice}}
  - {key: tn, type: number, min: 0, max: 200, prefixes: [nd], names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: roll
    names: {es: tirada, el: ρίψη, en: roll}
    inputs: [n, tn]
    steps:
      - {roll: d, dice: n, faces: 6}
    total: d.sum - d.highest
    result:
      on: d.sum - d.highest - tn
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
example: {es: 3 nd2, el: 3 nd2, en: 3 nd2}
`
