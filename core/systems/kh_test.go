package systems_test

import (
	"testing"

	"zaria/core/roll"
)

func TestKHChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// K1: the seed's example.
		{lang: "es", text: "/kh 6 +2s +1i dc17?", dice: []int{4, 2, 6, 4, 3}, has: []string{"🎲 dado completo 4 · Sincorazón 2, 6 (no suman) · Incorpóreo 4 · tiradas extra 3", "6 + 4 + 4 + 3 = 17 · dificultad 17 (muy difícil)", "Probabilidad: 28,49 %"}, bold: "Éxito", outcome: "success", total: ip(17), chance: "79763/279936"},
		{lang: "el", text: "/kh 6 2s 1i 17", dice: []int{4, 2, 6, 4, 2}, has: []string{"Heartless 2, 6"}, bold: "Αποτυχία", outcome: "failure", total: ip(16), noOdds: true},
		{lang: "en", text: "/kh 6 2h 1n dc 17?", dice: []int{4, 2, 6, 4, 3}, has: []string{"Chance: 28.49%"}, outcome: "success", total: ip(17)},
		// K3: a second 6 does not reroll.
		{lang: "es", text: "/kh 3 dc12", dice: []int{6, 6}, has: []string{"3 + 6 + 6 = 15"}, outcome: "success", total: ip(15)},
		// K4, K5.
		{lang: "en", text: "/kh 3 1s dc16", dice: []int{6, 6, 2, 5}, outcome: "success", total: ip(16)},
		{lang: "es", text: "/kh 4 3s", dice: []int{5, 6, 6, 1, 6, 6}, has: []string{"4 + 5 + 6 + 6 = 21"}, total: ip(21)},
		// K6, K7.
		{lang: "es", text: "/kh 2 1i dc12", dice: []int{3, 6}, outcome: "failure", total: ip(11)},
		{lang: "en", text: "/kh 5 2s", dice: []int{2, 5, 4}, has: []string{"(not added)", "5 + 2 = 7"}, total: ip(7)},
		// §4.4 chances, and named tiers (their lowest DC).
		{lang: "es", text: "/kh 3 normal?", dice: []int{5}, has: []string{"dificultad 8 (normal)", "Probabilidad: 33,33 %"}, outcome: "success", chance: "1/3"},
		{lang: "es", text: "/kh 4 1s difícil", dice: []int{1, 1}, outcome: "failure", chance: "41/216"},
		{lang: "el", text: "/kh 5 2i πολύ δύσκολο", dice: []int{5, 6, 5}, has: []string{"δυσκολία 16 (πολύ δύσκολο)"}, outcome: "success", chance: "85/162"},
		{lang: "en", text: "/kh 5 2i very hard", dice: []int{1, 1, 1}, outcome: "failure", chance: "85/162"},
		{lang: "es", text: "/kh 3 imposible", dice: []int{6, 6}, has: []string{"normalmente es un fallo automático"}, outcome: "failure", chance: "0/1"},
		{lang: "es", text: "/kh 6 +2s? +1i dc17", dice: []int{4, 2, 6, 4, 3}, has: []string{"Probabilidad: 28,49 %"}, outcome: "success"},
	})
}

func TestKHBadInput(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/kh 21 dc17", errHas: "La Capacidad va de 0 a 20; has puesto 21"},
		{lang: "es", text: "/kh 6 dc61", errHas: "La dificultad va de 1 a 60"},
		{lang: "en", text: "/kh 6 6s 5i", errHas: "At most 10 Heartless and Nobody dice"},
		{lang: "es", text: "/kh 6 muy dificl", errHas: "¿Quisiste decir «muy difícil»?"},
		{lang: "es", text: "/kh 6 dificl", errHas: "¿Quisiste decir «difícil»?"},
		{lang: "es", text: "/kh 6 vs 5", errHas: "no tiene tiradas enfrentadas"},
		{lang: "es", text: "/kh 6 dc17 18", errHas: "No entiendo «18»"},
		{lang: "es", text: "/kh", errHas: "Uso: /kh"},
	})
}

func TestKHSheet(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Bestia"
	sh.chars["bestia"] = map[string]string{"fisico": "6", "fuerza": "2s 1i", "rara": "tres"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/kh fisico fuerza dc17", dice: []int{4, 2, 6, 4, 3}, has: []string{"6 + 4 + 4 + 3 = 17"}, outcome: "success", chance: "79763/279936"},
		{lang: "es", text: "/kh @Bestia fisico dc17", dice: []int{4}, outcome: "failure"},
		{lang: "es", text: "/kh fisico rara dc17", errHas: "debería ser como «2s 1i»"},
	})
}

// The file's requirement bounds the bonus dice in all, a specialty's
// included: 8s typed and "2s 1i" from the sheet are 11; in each
// language, the catalog's message with the file's 10.
func TestKHSpecialtyDiceLimit(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Bestia"
	sh.chars["bestia"] = map[string]string{"fisico": "6", "fuerza": "2s 1i"}
	b := newBot(t, sh)
	roll.RegisterOdds(b.r)
	run(t, b, []expect{
		{lang: "es", text: "/kh fisico fuerza 8s dc17", errHas: "Como mucho 10 dados Sincorazón e Incorpóreo por tirada."},
		// 9 heartless and 1 nobody: 10, allowed.
		{lang: "el", text: "/kh fisico fuerza 7s dc17", dice: []int{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6}, has: []string{"fisico 6 + 5 + 6 = 17"}, bold: "Επιτυχία", outcome: "success"},
		{lang: "el", text: "/kh 6 5s 6i", errHas: "Το πολύ 10 ζάρια Heartless και Nobody ανά ρίψη."},
		{lang: "en", text: "/odds kh 6 5s 6i dc17", errHas: "At most 10 Heartless and Nobody dice per roll."},
	})
}
