package systems_test

import "testing"

// The default reading, 00 = 100: the chance of success is the table value
// (docs/daegon.md; the seed's "competente" has "un 80%" at D1).
func TestDaegonChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// D3: NH 6 D1 roll 80 → success level 0; the chance is the table's 80 %.
		{lang: "es", text: "/daegon 6 d1?", dice: []int{8, 10}, has: []string{"🎲 80", "NH 6 (competente) · D1 (fácil) → Éxito", "Probabilidad: 80 %"}, not: []string{"81", "tabla"}, bold: "Éxito", outcome: "success", chance: "4/5", level: ip(0), total: ip(80)},
		{lang: "en", text: "/dg 6 easy", dice: []int{8, 1}, has: []string{"🎲 81", "D1 (easy) → Failure"}, bold: "Failure", outcome: "failure", level: ip(-1), noOdds: true},
		// D5, D6 with named difficulties in three languages.
		{lang: "es", text: "/daegon 6 dificil", dice: []int{3, 5}, bold: "Éxito +1", outcome: "success", level: ip(1), chance: "1/2"},
		{lang: "el", text: "!dg 6 δύσκολο", dice: []int{10, 5}, has: []string{"🎲 05"}, bold: "Επιτυχία +3", outcome: "success", level: ip(3)},
		{lang: "en", text: "/daegon 6 HARD?", dice: []int{10, 5}, has: []string{"Chance: 50%"}, not: []string{"table"}, bold: "Success +3", outcome: "success", level: ip(3)},
		// D7: 00 is 100, the highest roll: it fails NH 1 D4 (1 %), 01 passes.
		{lang: "es", text: "/daegon 1 d4", dice: []int{10, 10}, has: []string{"🎲 00 = 100"}, bold: "Fallo", outcome: "failure", level: ip(-1), total: ip(100), chance: "1/100"},
		{lang: "es", text: "/daegon 1 d4", dice: []int{10, 1}, has: []string{"🎲 01"}, outcome: "success", level: ip(0)},
		// D7b: 00 = 100 still passes a 100 cell.
		{lang: "es", text: "/daegon 8 d1", dice: []int{10, 10}, has: []string{"🎲 00 = 100"}, bold: "Éxito", outcome: "success", level: ip(0), chance: "1/1"},
		// D8: impossible.
		{lang: "es", text: "/daegon 5 casi imposible?", dice: []int{10, 10}, has: []string{"D6 (casi imposible) → Imposible", "Probabilidad: 0 %"}, bold: "Imposible", outcome: "impossible", chance: "0/1"},
		// D9.
		{lang: "en", text: "/daegon 15 d1", dice: []int{9, 9}, bold: "Success +2", outcome: "success", level: ip(2), chance: "1/1"},
		// Default difficulty is "media", and the reply says so.
		{lang: "es", text: "/daegon 6", dice: []int{6, 5}, has: []string{"D2 (media)", "Sin dificultad indicada: D2 (media)."}, outcome: "success", level: ip(0)},
		// D11, D12: the seed's example; the passive side wins ties.
		{lang: "es", text: "/daegon 12 vs 7?", dice: []int{9, 8, 3, 10}, has: []string{"Activo 12 (maestro) · D2 (100 %) · 🎲 98", "Pasivo 7 (hábil) · D4 (42 %) · 🎲 30", "Prob. de que gane el activo: 91,6 %"}, bold: "Gana el activo", outcome: "success", winner: "active", chance: "229/250", level: ip(1)},
		{lang: "el", text: "/daegon 12 εναντίον 7", dice: []int{9, 8, 2, 6}, bold: "Ισοπαλία: νικάει ο αμυνόμενος", outcome: "failure", winner: "passive"},
		{lang: "en", text: "/daegon 6 vs 6?", dice: []int{4, 10, 4, 5}, has: []string{"34%"}, bold: "Tie: the passive side wins", outcome: "failure", winner: "passive", chance: "17/50"},
		// D14: both fail.
		{lang: "es", text: "/daegon 6 contra 6", dice: []int{7, 10, 9, 10}, bold: "Fallan los dos", outcome: "failure", winner: "passive"},
	})
}

// The house rule daegon_00 = cero keeps the old reading: 00 = 0, the best
// roll, every chance one point above the table, and the reply says both.
func TestDaegonHouseRuleZero(t *testing.T) {
	b := newBot(t, nil)
	b.set("daegon_00", "cero")
	run(t, b, []expect{
		{lang: "es", text: "/daegon 6 d1?", dice: []int{8, 10}, has: []string{"🎲 80", "Probabilidad: 81 % (tabla: 80 %"}, outcome: "success", chance: "81/100", level: ip(0)},
		{lang: "en", text: "/daegon 6 HARD?", dice: []int{10, 5}, has: []string{"Chance: 51% (table: 50%"}, outcome: "success", level: ip(3)},
		{lang: "es", text: "/daegon 1 d4", dice: []int{10, 10}, has: []string{"🎲 00"}, not: []string{"100"}, outcome: "success", level: ip(0), chance: "1/50", total: ip(0)},
		{lang: "es", text: "/daegon 5 casi imposible", dice: []int{10, 10}, bold: "Imposible", outcome: "impossible"},
		{lang: "es", text: "/daegon 12 vs 7?", dice: []int{9, 8, 3, 10}, has: []string{"91,59 %"}, outcome: "success", winner: "active", chance: "9159/10000"},
		{lang: "en", text: "/daegon 6 vs 6?", dice: []int{4, 10, 4, 5}, has: []string{"34.44%"}, outcome: "failure", winner: "passive", chance: "861/2500"},
	})
}

func TestDaegonBadInput(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/daegon 16 d3", errHas: "El nivel de habilidad va de 1 a 15; has puesto 16"},
		{lang: "en", text: "/daegon 0 d3", errHas: "The skill level goes from 1 to 15"},
		{lang: "el", text: "/daegon 6 d8", errHas: "Η δυσκολία είναι από 1 έως 7"},
		{lang: "es", text: "/daegon 6 dificl", errHas: "¿Quisiste decir «difícil»?"},
		{lang: "es", text: "/daegon 6 zzzzzzzzz", errHas: "Usa d1–d7"},
		{lang: "es", text: "/daegon 12 d2 vs 7", errHas: "la dificultad sale de la tabla"},
		{lang: "es", text: "/daegon", errHas: "Uso: /daegon"},
		{lang: "en", text: "/daegon 12 vs 16", errHas: "The skill level goes from 1 to 15; you wrote 16"},
	})
}

func TestDaegonSheet(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Ana"
	sh.chars["ana"] = map[string]string{"sigilo": "12", "torpe": "16"}
	sh.chars["drake"] = map[string]string{"sigilo": "6"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/daegon sigilo vs 7", dice: []int{9, 8, 3, 10}, outcome: "success", winner: "active", chance: "229/250"},
		{lang: "es", text: "/daegon @Drake sigilo difícil", dice: []int{3, 5}, outcome: "success", level: ip(1)},
		{lang: "en", text: "/daegon Drake sigilo hard", dice: []int{3, 5}, outcome: "success", level: ip(1)},
		{lang: "es", text: "/daegon sigilo vs @Drake sigilo", dice: []int{9, 8, 3, 10}, has: []string{"Activo sigilo 12 (maestro) · D2", "Pasivo sigilo 6 (competente) · D4"}, outcome: "success", winner: "active"},
		{lang: "es", text: "/daegon torpe d3", errHas: "El nivel de habilidad va de 1 a 15; has puesto 16"},
	})
}

// A keyword without its value is a clear error that shows what to type,
// in every system and language (it used to be dropped: "/kh 6 dc" rolled
// with no difficulty).
func TestKeywordWithoutValue(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/kh 6 dc", errHas: "Falta el valor después de «dc». Escribe, por ejemplo: /kh 6 dc17"},
		{lang: "en", text: "/kh 6 +2s dc", errHas: "«dc» needs a value after it. Type, for example: /kh 6 +2s dc17"},
		{lang: "es", text: "/zaria 4+2 dc", errHas: "/zaria 4+2 dc15"},
		{lang: "es", text: "/zaria 4+2 contra", errHas: "Falta el valor después de «contra». Escribe, por ejemplo: /zaria 4+2 contra 4+4"},
		{lang: "el", text: "!ζ 4+2 εναντίον", errHas: "Λείπει η τιμή μετά το «εναντίον». Γράψε, για παράδειγμα: !ζ 4+2 εναντίον 4+4"},
		{lang: "es", text: "/daegon 7 d", errHas: "Escribe, por ejemplo: /daegon 7 d3"},
		{lang: "el", text: "/dg 7 δ", errHas: "/dg 7 δ3"},
		{lang: "en", text: "/daegon 12 vs", errHas: "/daegon 12 vs 7"},
		{lang: "es", text: "/rq 60 contra", errHas: "/rq 60 contra 45"},
		{lang: "en", text: "/dh attack longsword vs", errHas: "/dh attack longsword vs breastplate"},
		{lang: "el", text: "/dh επίθεση μακρύ-σπαθί εναντίον", errHas: "εναντίον θώρακας"},
	})
}
