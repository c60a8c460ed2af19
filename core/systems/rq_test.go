package systems_test

import "testing"

func TestRQChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// R1: skill 45, Normal −30 → 65; crit ≤ 07, fumble ≥ 99.
		{lang: "es", text: "/rq 45 normal?", dice: []int{7}, has: []string{"🎲 07 vs 65 (50 + 45 − 30 normal)", "crítico ≤07 · pifia ≥99", "Marca la habilidad", "Probabilidad: 65 % (crítico 7 %, pifia 2 %)"}, bold: "¡Crítico!", outcome: "critical", chance: "13/20", total: ip(7)},
		{lang: "en", text: "/rq 45 -30", dice: []int{8}, has: []string{"🎲 08 vs 65 (50 + 45 − 30 normal)", "Mark the skill"}, bold: "Success", outcome: "success", chance: "13/20", noOdds: true},
		{lang: "el", text: "/rq 45 κανονικό", dice: []int{66}, bold: "Αποτυχία", outcome: "failure"},
		{lang: "es", text: "/rq 45 normal", dice: []int{99}, bold: "¡Pifia!", outcome: "fumble"},
		{lang: "es", text: "/rq 45 -30", dice: []int{100}, bold: "¡Pifia!", outcome: "fumble"},
		// §5.5: chance 45.
		{lang: "es", text: "/rq 25 normal?", dice: []int{50}, has: []string{"Probabilidad: 45 % (crítico 5 %, pifia 3 %)"}, outcome: "failure", chance: "9/20"},
		// R2, R3: chance 100 and 120.
		{lang: "es", text: "/rq 50 algo facil?", dice: []int{100}, has: []string{"Probabilidad: 99 % (crítico 10 %, pifia 1 %)"}, outcome: "fumble", chance: "99/100"},
		{lang: "en", text: "/rq 70 +0?", dice: []int{100}, has: []string{"no fumble", "Chance: 99% (critical 12%, fumble 0%)"}, bold: "Failure", outcome: "failure", chance: "99/100"},
		// R4, R5: chance 0 and −40.
		{lang: "es", text: "/rq 0 -50", dice: []int{1}, has: []string{"sin crítico", "pifia ≥96"}, outcome: "failure"},
		{lang: "es", text: "/rq 0 -90", dice: []int{96}, outcome: "fumble", chance: "0/1"},
		// No difficulty: 0 and the reply says so.
		{lang: "es", text: "/rq 45", dice: []int{95}, has: []string{"vs 95 (50 + 45)", "algo fácil (0)"}, outcome: "success"},
		// R9: characteristic 12 ×3, Fácil +10 → 96; no skill to mark.
		{lang: "es", text: "/rq c12 facil", dice: []int{10}, has: []string{"vs 96 (50 + 12×3 + 10 fácil)"}, outcome: "critical"},
		{lang: "en", text: "/rq c12x5 -10", dice: []int{97}, has: []string{"vs 100 (50 + 12×5 − 10 no difficulty)"}, outcome: "success"},
		// R10, R11: opposed with the 1D4.
		{lang: "es", text: "/rq 60 vs 45?", dice: []int{5, 2}, has: []string{"vs 65 (50 + 60 − 45)", "crítico ≤07 · pifia ≥98", "1D4: 2 (par)", "Prob. de que gane el ofensivo: 65 % (crítico 7 %, pifia 3 %)"}, bold: "¡Crítico!", outcome: "critical", winner: "active", chance: "13/20"},
		{lang: "el", text: "/rq 60 εναντίον 45", dice: []int{5, 3}, has: []string{"1D4: 3 (μονό)", "Επιτιθέμενος: Επιτυχία · Αμυνόμενος: Κρίσιμη αποτυχία!"}, outcome: "success", winner: "active"},
		{lang: "en", text: "/rq 60 vs 45", dice: []int{98, 4}, has: []string{"Offensive: Fumble! · Defensive: Success"}, outcome: "fumble", winner: "passive", total: ip(98)},
		{lang: "es", text: "/rq 60 contra 45", dice: []int{98, 1}, has: []string{"Ofensivo: Fallo · Defensivo: ¡Crítico!"}, outcome: "failure", winner: "passive"},
		// R13, R14: no critical at chance 4; 92+ at chance 5.
		{lang: "en", text: "/rq 20 vs 66", dice: []int{1}, has: []string{"no critical · fumble ≥91"}, outcome: "success", winner: "active"},
		{lang: "en", text: "/rq 21 vs 66", dice: []int{91}, has: []string{"critical ≤01 · fumble ≥92"}, outcome: "failure", winner: "passive"},
		// R15: chance 120, a 100 fails.
		{lang: "en", text: "/rq 80 vs 10", dice: []int{100}, has: []string{"no fumble"}, outcome: "failure", winner: "passive"},
		// R16: characteristics ×5.
		{lang: "es", text: "/rq c14 vs c12", dice: []int{6, 2}, has: []string{"vs 60 (50 + 14×5 − 12×5)", "crítico ≤06 · pifia ≥97"}, outcome: "critical", winner: "active"},
		{lang: "es", text: "/rq 60 vs c12", dice: []int{50}, has: []string{"vs 50 (50 + 60 − 12×5)"}, outcome: "success", winner: "active"},
	})
}

func TestRQBadInput(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/rq 45 -160", errHas: "La dificultad va de −150 a +50; has puesto −160"},
		{lang: "en", text: "/rq 45 +60", errHas: "The difficulty goes from −150 to +50"},
		{lang: "es", text: "/rq 45 nomal", errHas: "¿Quisiste decir «normal»?"},
		{lang: "el", text: "/rq 45 δυσκολο πολυ πολυ", errHas: "Δεν ξέρω τη δυσκολία"},
		{lang: "es", text: "/rq 301", errHas: "La habilidad va de 0 a 300"},
		{lang: "es", text: "/rq c41", errHas: "La característica va de 1 a 40"},
		{lang: "es", text: "/rq c14x11", errHas: "El multiplicador va de ×1 a ×10"},
		{lang: "es", text: "/rq 60 normal vs 45", errHas: "no lleva dificultad"},
		{lang: "es", text: "/rq", errHas: "Uso: /rq"},
	})
}

func TestRQSheet(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Drake"
	sh.chars["drake"] = map[string]string{"espadas": "45", "fue": "14"}
	sh.chars["mira"] = map[string]string{"esquivar": "30"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/rq espadas normal", dice: []int{7}, has: []string{"vs 65 (50 + espadas 45 − 30 normal)"}, outcome: "critical"},
		{lang: "es", text: "/rq @Mira esquivar", dice: []int{80}, has: []string{"vs 80 (50 + esquivar 30)"}, outcome: "success"},
		{lang: "es", text: "/rq Mira esquivar normal", dice: []int{51}, has: []string{"vs 50 (50 + esquivar 30 − 30 normal)"}, outcome: "failure"},
		{lang: "es", text: "/rq c:fue", dice: []int{92}, has: []string{"vs 92 (50 + fue 14×3)"}, outcome: "success"},
		{lang: "es", text: "/rq espadas vs 40", dice: []int{55}, has: []string{"vs 55 (50 + espadas 45 − 40)"}, outcome: "success", winner: "active"},
		{lang: "es", text: "/rq espadas vs @Mira esquivar", dice: []int{65}, has: []string{"vs 65 (50 + espadas 45 − esquivar 30)"}, outcome: "success", winner: "active"},
		{lang: "es", text: "/rq sigilo", errHas: "sigilo"},
	})
}

// The failure chance is capped at 100 % (docs/rq.md, "Where the rules are
// silent"): a chance of −40 fumbles on 96+, as a chance of 0 does, not on
// 94+ as 5 % of a 140 % failure chance would give.
func TestRQFumbleCapBelowZero(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/rq 0 -90", dice: []int{94}, has: []string{"🎲 94 vs −40", "sin crítico · pifia ≥96"}, bold: "Fallo", outcome: "failure"},
		{lang: "en", text: "/rq 0 epico?", dice: []int{95}, has: []string{"🎲 95 vs −100", "no critical · fumble ≥96", "Chance: 0% (critical 0%, fumble 5%)"}, bold: "Failure", outcome: "failure", chance: "0/1"},
		{lang: "el", text: "/rq 10 -150", dice: []int{96}, has: []string{"κρίσιμη αποτυχία ≥96"}, outcome: "fumble"},
	})
}
