package systems_test

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

func TestZariaChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// Z1 in three languages, with and without the odds.
		{lang: "es", text: "/zaria 4+2 dc15", dice: []int{3, 8}, has: []string{"Ζαριά 3, 8 → media 5", "4 + 2 + 5 = 11", "CD 15 (media)", "−4"}, bold: "Fallo", outcome: "failure", chance: "3/50", total: ip(11), noOdds: true},
		{lang: "es", text: "/zaria 4+2 dc15?", dice: []int{3, 8}, has: []string{"Probabilidad: 6 %"}, bold: "Fallo", outcome: "failure", chance: "3/50"},
		{lang: "el", text: "!ζαριά 4+2 μέτριο?", dice: []int{3, 8}, has: []string{"DC 15 (Μέτριο)", "Πιθανότητα: 6 %"}, bold: "Αποτυχία", outcome: "failure", chance: "3/50"},
		{lang: "en", text: "/z 4 + 2 medium ?", dice: []int{3, 8}, has: []string{"DC 15 (medium)", "Chance: 6%"}, bold: "Failure", outcome: "failure", chance: "3/50"},
		{lang: "es", text: "/zaria 4+2 metrio", dice: []int{3, 8}, outcome: "failure", chance: "3/50"},
		{lang: "es", text: "/zaria 4+2 15", dice: []int{3, 8}, outcome: "failure", chance: "3/50"},
		// Z2, Z3: epics from the pair of dice.
		{lang: "el", text: "/zaria 4+0 dc5", dice: []int{1, 1}, bold: "EPIC FAIL", outcome: "epic_fail", chance: "99/100"},
		{lang: "es", text: "/zaria 2+0 dc20", dice: []int{10, 10}, has: []string{"+1 punto de progreso"}, bold: "¡ÉXITO ÉPICO!", outcome: "epic_win"},
		{lang: "el", text: "/zaria 2+0 ζόρικο", dice: []int{10, 10}, has: []string{"skill progression point"}, bold: "EPIC WIN", outcome: "epic_win"},
		// Z4, Z5.
		{lang: "es", text: "/zaria 4+0 dc5", dice: []int{1, 2}, bold: "Éxito justo", outcome: "marginal", level: ip(0)},
		{lang: "en", text: "/zaria 8 dc12", dice: []int{9, 9}, has: []string{"DC 12 (between easy and medium)", "+5"}, bold: "MAJOR WIN", outcome: "major_success", level: ip(1), total: ip(17)},
		{lang: "el", text: "/zaria 8 dc12", dice: []int{5, 5}, has: []string{"ανάμεσα σε Εύκολο και Μέτριο"}, bold: "Επιτυχία", outcome: "success", total: ip(13)},
		// Z6: floor → major fail.
		{lang: "es", text: "/zaria 3 dc12", dice: []int{4, 5}, bold: "FALLO GRAVE", outcome: "major_failure"},
		// Z8: NPC d10.
		{lang: "es", text: "/zaria npc 6 dc12", dice: []int{3}, has: []string{"d10 3", "6 + 3 = 9"}, outcome: "failure", chance: "1/2"},
		// Z9: opposed, tie → attacker.
		{lang: "es", text: "/zaria 5+3 vs npc 8 ?", dice: []int{1, 3, 2}, has: []string{"Empate: gana el activo", "Prob. de que gane el activo: 52,4 %"}, outcome: "success", winner: "active", chance: "131/250"},
		{lang: "en", text: "/zaria 5+3 against npc 8?", dice: []int{1, 3, 2}, has: []string{"52.4%"}, outcome: "success", winner: "active", chance: "131/250"},
		{lang: "el", text: "!ζ 5+3 εναντίον npc 8", dice: []int{1, 3, 9}, bold: "Νικάει ο αμυνόμενος", outcome: "failure", winner: "passive"},
		// Z10: epic win in an opposed roll.
		{lang: "en", text: "/zaria 9 vs 12", dice: []int{10, 10, 8, 8}, bold: "EPIC WIN", has: []string{"+1 skill progression point"}, outcome: "epic_win", winner: "active"},
		// Levels of success above the first are spelled out; "dc 15" with a space.
		{lang: "es", text: "/zaria 20 dc5", dice: []int{10, 9}, has: []string{"4 niveles de éxito"}, bold: "ÉXITO MAYOR", outcome: "major_success", level: ip(4)},
		{lang: "el", text: "/zaria 10+10 dc 15", dice: []int{9, 10}, has: []string{"2 επίπεδα επιτυχίας"}, outcome: "major_success", level: ip(2)},
		// No DC: dice and total only.
		{lang: "es", text: "/zaria 4+2", dice: []int{6, 7}, has: []string{"4 + 2 + 6 = 12"}, total: ip(12)},
	})
}

func TestZariaHouseRules(t *testing.T) {
	b := newBot(t, nil)
	b.set("zaria", "media_exacta")
	run(t, b, []expect{
		// Z6 with the exact mean: 7,5 vs 12 is a failure, not a major fail.
		{lang: "es", text: "/zaria 3 dc12", dice: []int{4, 5}, has: []string{"→ media 4,5", "= 7,5", "−4,5"}, bold: "Fallo", outcome: "failure"},
		{lang: "en", text: "/zaria 3 dc12", dice: []int{4, 5}, has: []string{"= 7.5"}, outcome: "failure"},
	})
	b.set("zaria", "media_alta")
	run(t, b, []expect{
		{lang: "es", text: "/zaria 1+0 dc10", dice: []int{9, 10}, outcome: "success", chance: "1/10"},
		{lang: "es", text: "/zaria 4+0 dc10", dice: []int{9, 10}, outcome: "success", chance: "11/20"},
	})
	b.set("zaria_pnj_epico", "si")
	run(t, b, []expect{
		{lang: "es", text: "/zaria npc 6 dc5", dice: []int{1}, outcome: "epic_fail"},
	})
}

func TestZariaBadInput(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/zaria 4+2 dc31", errHas: "La CD va de 5 a 30; has puesto 31"},
		{lang: "el", text: "/zaria 4+2 dc4", errHas: "Το DC είναι από 5 έως 30"},
		{lang: "en", text: "/zaria 4+2 dc99", errHas: "The DC goes from 5 to 30"},
		{lang: "es", text: "/zaria 4+2 metrioo", errHas: "¿Quisiste decir «metrio»?"},
		{lang: "el", text: "/zaria 4+2 μετριοο", errHas: "Μήπως εννοείς «μέτριο»;"},
		{lang: "es", text: "/zaria 11+2 dc15", errHas: "El atributo va de 1 a 10; has puesto 11"},
		{lang: "en", text: "/zaria 4+11 dc15", errHas: "The skill goes from 0 to 10; you wrote 11"},
		{lang: "es", text: "/zaria 21 dc15", errHas: "Atributo + habilidad va de 1 a 20"},
		{lang: "es", text: "/zaria", errHas: "Uso: /zaria"},
		{lang: "es", text: "/zaria 4+2+1 dc15", errHas: "atributo+habilidad"},
		{lang: "es", text: "/zaria 4+2 dc15 vs 3+3", errHas: "no lleva CD"},
		{lang: "es", text: "/zaria 4+2 vs 3+3 vs 2", errHas: "un «vs»"},
		// A name with no sheet store: the router's error, nothing crashes.
		{lang: "es", text: "/zaria fuerza+atletismo dc15", errHas: "fichas"},
	})
}

func TestZariaButtons(t *testing.T) {
	b := newBot(t, nil)
	rep := b.roll("es", "/zaria 4+2 dc15", 3, 8)
	kinds := []string{}
	for _, bt := range rep.Buttons {
		kinds = append(kinds, bt.Kind+":"+bt.Label)
	}
	// Again, and the 📊 of the check's picture (issue 16); the chance is in
	// the reply itself, so "?" changes nothing; with no dice, no buttons.
	if strings.Join(kinds, ",") != reply.ButtonAgain+":🎲 Otra vez,"+reply.ButtonOdds+":📊 Probabilidad" {
		t.Errorf("buttons %v", kinds)
	}
	if rep := b.roll("en", "/zaria 4+2 dc15?", 3, 8); len(rep.Buttons) != 2 || rep.Buttons[0].Label != "🎲 Again" || rep.Buttons[1].Label != "📊 Odds" {
		t.Errorf("buttons with ?: %v", rep.Buttons)
	}
	// RQ's replies carry the 📊 the other systems have (issue 33): the
	// chance of the roll at every difficulty, no picture of a flat d100.
	if rep := b.roll("en", "/rq 45", 30); len(rep.Buttons) != 2 || rep.Buttons[1].Kind != reply.ButtonOdds {
		t.Errorf("buttons of /rq: %v", rep.Buttons)
	}
	if rep := b.roll("el", "/dh pen 17"); len(rep.Buttons) != 0 {
		t.Errorf("buttons of /dh pen: %v", rep.Buttons)
	}
}

func TestZariaSheet(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Ana"
	sh.chars["ana"] = map[string]string{"fuerza": "4", "atletismo": "2", "δύναμη": "4", "αθλητισμός": "2"}
	sh.chars["drake"] = map[string]string{"fuerza": "7", "atletismo": "5"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/zaria fuerza+atletismo dc15", dice: []int{3, 8}, has: []string{"fuerza 4 + atletismo 2 + 5 = 11"}, outcome: "failure", chance: "3/50"},
		{lang: "el", text: "!ζ δύναμη+αθλητισμός dc15", dice: []int{3, 8}, has: []string{"δύναμη 4 + αθλητισμός 2 + 5 = 11"}, outcome: "failure"},
		{lang: "es", text: "/zaria @Drake fuerza+atletismo dc15", dice: []int{3, 8}, has: []string{"fuerza 7 + atletismo 5 + 5 = 17"}, outcome: "success", chance: "9/10"},
		{lang: "es", text: "/zaria Drake fuerza+atletismo dc15", dice: []int{3, 8}, has: []string{"fuerza 7 + atletismo 5 + 5 = 17"}, outcome: "success"},
		{lang: "es", text: "/zaria fuerza+atletismo vs npc 7", dice: []int{5, 5, 5}, has: []string{"fuerza 4 + atletismo 2 + 5 = 11", "7 + 5 = 12"}, outcome: "failure", winner: "passive"},
		{lang: "es", text: "/zaria fuerza+atletismo vs @Drake fuerza+atletismo", dice: []int{5, 5, 5, 5}, has: []string{"fuerza 4 + atletismo 2 + 5 = 11", "fuerza 7 + atletismo 5 + 5 = 17"}, outcome: "failure", winner: "passive"},
		{lang: "es", text: "/zaria fuerza+sigilo dc15", errHas: "sigilo"},
	})
}

// The words of a Ζαριά check come in any order the file's inputs allow:
// the DC first, the character last, a named DC in another language.
func TestZariaAnyOrder(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Ana"
	sh.chars["ana"] = map[string]string{"fuerza": "4", "atletismo": "2"}
	sh.chars["elara"] = map[string]string{"fuerza": "7", "atletismo": "5"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/zaria dc15 fuerza+atletismo", dice: []int{3, 8}, has: []string{"fuerza 4 + atletismo 2 + 5 = 11"}, outcome: "failure", chance: "3/50"},
		{lang: "es", text: "/zaria fuerza+atletismo dc15 @Elara", dice: []int{3, 8}, has: []string{"Elara", "fuerza 7 + atletismo 5 + 5 = 17"}, outcome: "success", chance: "9/10"},
		{lang: "en", text: "/zaria Μέτριο 4+2", dice: []int{3, 8}, has: []string{"4 + 2 + 5 = 11"}, outcome: "failure", chance: "3/50"},
		{lang: "es", text: "/zaria 6 npc dc12", dice: []int{3}, has: []string{"6 + 3 = 9"}, outcome: "failure"},
		{lang: "es", text: "/zaria dc40 4+2", errHas: "40"},
	})
}
