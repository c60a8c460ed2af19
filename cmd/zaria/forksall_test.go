package main

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/reply"
)

// The Ζαριά forked: a band moved (a margin of −1 a marginal success) and
// the epic win from 9-9; /zaria, /odds zaria and the reply's chance use
// the fork in that chat, the book in another; /sistema lists both
// changes; an undo takes back the last, /sistema original the fork.
func TestForkZaria(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false, "copia de Ζαριά", "/zaria", "/sistema editar zaria éxito épico 9")
	d.want(d.send("a", true, "/sistema editar zaria banda éxito justo -1"), false,
		"banda Éxito justo ≥0 → ≥-1", "atributo + habilidad 4+2, CD 15: Éxito justo 14 % en vez de 5 %", "/sistema deshacer")
	d.want(d.send("a", true, "/sistema editar zaria éxito épico 11"), true, "«éxito épico» va de 2 a 10", "No se ha cambiado nada")
	d.want(d.send("a", true, "/sistema editar zaria éxito épico 9"), false,
		"éxito épico 10 → 9", "¡ÉXITO ÉPICO! 4 % en vez de 1 %", "Z5 major win: ÉXITO MAYOR → ¡ÉXITO ÉPICO!")

	// 8, 8: 4 + 2 + 8 = 14 against 15, a margin of −1.
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 8), false, "Éxito justo · CD 15", "Probabilidad: 15 %")
	d.want(d.send("b", false, "/zaria 4+2 dc15", 8, 8), false, "Fallo · CD 15", "Probabilidad: 6 %")
	// 9, 9: an EPIC WIN in the fork, a major failure in the book.
	d.want(d.send("a", false, "/zaria 4+2 dc20", 9, 9), false, "¡ÉXITO ÉPICO!", "Probabilidad: 4 %")
	d.want(d.send("b", false, "/zaria 4+2 dc20", 9, 9), false, "FALLO GRAVE", "Probabilidad: 1 %")
	d.want(d.send("a", false, "/odds zaria 4+2 dc15"), false, "CD 15 · media: 15 %", "¡ÉXITO ÉPICO!  4 %")
	d.want(d.send("b", false, "/odds zaria 4+2 dc15"), false, "CD 15 · media: 6 %", "¡ÉXITO ÉPICO!  1 %")
	d.want(d.send("a", false, "/sistema"), false, "/zaria · copia de Ζαριά", "banda Éxito justo ≥0 → ≥-1", "éxito épico 10 → 9")

	d.want(d.send("a", true, "/sistema deshacer"), false, "como antes del último cambio")
	d.want(d.send("a", false, "/zaria 4+2 dc20", 9, 9), false, "FALLO GRAVE")
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 8), false, "Éxito justo", "Probabilidad: 15 %")
	d.want(d.send("a", true, "/sistema original zaria"), false, "vuelve a ser el del libro")
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 8), false, "Fallo · CD 15", "Probabilidad: 6 %")
}

// The file systems forked: PbtA's weak hit from 8, Call of Cthulhu's
// fumble from 91, Warhammer's automatic success up to 10; each roll's
// outcome and chance, and /odds, move in that chat only.
func TestForkFileSystems(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar pbta"), false, "copia de PbtA", "/pbta", "/sistema editar pbta banda éxito total 11")
	d.want(d.send("a", true, "/sistema editar pbta banda éxito parcial 8"), false,
		"banda Éxito parcial ≥7 → ≥8", "Éxito parcial 30,56 % en vez de 41,67 %", "P3 AW 7-9 bottom: Éxito parcial → Fallo")
	d.want(d.send("a", false, "/pbta +1", 3, 3), false, "Fallo", "Probabilidad: 58,33 %")
	d.want(d.send("b", false, "/pbta +1", 3, 3), false, "Éxito parcial", "Probabilidad: 72,22 %")
	d.want(d.send("a", false, "/odds pbta +1"), false, "éxito: 58,33 %", "Fallo         41,67 %")
	d.want(d.send("b", false, "/odds pbta +1"), false, "éxito: 72,22 %")

	d.want(d.send("a", true, "/sistema copiar coc"), false, "copia de La llamada de Cthulhu", "/sistema editar coc pifia 95")
	d.want(d.send("a", true, "/sistema editar coc pifia 91"), false, "pifia 96 → 91", "habilidad 45: Pifia 10 % en vez de 5 %")
	// The units die 3, the tens die 9: 93 with skill 40.
	d.want(d.send("a", false, "/coc 40", 3, 9), false, "Pifia")
	d.want(d.send("b", false, "/coc 40", 3, 9), false, "Fallo")

	d.want(d.send("a", true, "/sistema copiar wfrp"), false)
	d.want(d.send("a", true, "/sistema editar wfrp éxito automático 10"), false, "éxito automático 5 → 10", "objetivo 3: Éxito 10 % en vez de 5 %")
	d.want(d.send("a", false, "/wfrp 5", 8), false, "Éxito", "Probabilidad: 10 %")
	d.want(d.send("b", false, "/wfrp 5", 8), false, "Fallo", "Probabilidad: 5 %")

	// An outcome named in words: the longest name that fits, the rest the new name.
	d.want(d.send("a", true, "/sistema copiar v5"), false)
	d.want(d.send("a", true, "/sistema editar v5 nombre fallo bestial La Bestia"), false, "Fallo bestial → La Bestia")
	d.want(d.send("a", false, "/v5 1 hambre 1", 1), false, "La Bestia")
	d.want(d.send("b", false, "/v5 1 hambre 1", 1), false, "Fallo bestial")

	d.want(d.send("a", false, "/sistema"), false, "/pbta · copia de PbtA", "banda Éxito parcial ≥7 → ≥8",
		"/coc · copia de La llamada de Cthulhu", "pifia 96 → 91", "éxito automático 5 → 10")
	d.want(d.send("a", true, "/sistema original pbta"), false)
	d.want(d.send("a", false, "/pbta +1", 3, 3), false, "Éxito parcial", "Probabilidad: 72,22 %")
	d.want(d.send("a", false, "/coc 40", 3, 9), false, "Pifia")
}

// Kingdom Hearts forked: a success from one under the difficulty; the
// roll's outcome, its chance and the renamed outcome are the fork's.
func TestForkKH(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar kh"), false, "copia de Kingdom Hearts")
	d.want(d.send("a", true, "/sistema editar kh banda éxito -1"), false, "banda Éxito ≥0 → ≥-1")
	d.want(d.send("a", false, "/kh 5 dc11", 5), false, "Éxito", "Probabilidad: 33,33 %")
	d.want(d.send("b", false, "/kh 5 dc11", 5), false, "Fallo", "Probabilidad: 16,67 %")
	d.want(d.send("a", true, "/sistema editar kh nombre éxito Lo lograste"), false, "Éxito → Lo lograste")
	d.want(d.send("a", false, "/kh 5 dc11", 5), false, "Lo lograste")
	d.want(d.send("a", false, "/odds kh 5 dc11"), false, "Lo lograste")
}

// In Greek and English, the numbers and bands by their names in words.
func TestForkAllLanguages(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("g", true, "/lang el"), false)
	d.want(d.send("g", true, "!σύστημα αντιγραφή wfrp"), false, "αντίγραφο του συστήματος Warhammer Fantasy")
	d.want(d.send("g", true, "!σύστημα αλλαγή wfrp αυτόματη επιτυχία 10"), false, "αυτόματη επιτυχία 5 → 10", "στόχος 3: Επιτυχία 10 %")
	d.want(d.send("g", true, "!σύστημα αντιγραφή zaria"), false)
	d.want(d.send("g", true, "!σύστημα αλλαγή zaria epic win 9"), false, "epic win 10 → 9", "EPIC WIN 4 %")
	d.want(d.send("g", false, "/zaria 4+2 dc20", 9, 9), false, "EPIC WIN")
	d.want(d.send("g", true, "!σύστημα αλλαγή zaria μέτριο 14"), false, "DC Μέτριο 15 → 14", "DC Μέτριο: Οριακή επιτυχία 9 % αντί για 2 %")

	d.want(d.send("e", true, "/lang en"), false)
	d.want(d.send("e", true, "/system copy pbta"), false, "own copy of PbtA", "/system edit pbta band strong hit 11")
	d.want(d.send("e", true, "/system edit pbta band weak hit 8"), false, "band Weak hit ≥7 → ≥8", "Weak hit 30.56% instead of 41.67%")
	d.want(d.send("e", false, "/pbta +1", 3, 3), false, "Miss")
	d.want(d.send("e", true, "/system copy zaria"), false)
	d.want(d.send("e", true, "/system edit zaria medium 14"), false, "DC medium 15 → 14")
	d.want(d.send("e", false, "/zaria 4+2 medium", 8, 8), false, "DC 14 (medium)")
	d.want(d.send("e", true, "/system copy coc"), false, "/system edit coc fumble 95")
	d.want(d.send("e", true, "/system edit coc fumble 101"), true, "fumble goes from 2 to 100", "Nothing was changed")
	d.want(d.send("e", true, "/system edit coc fumble 91"), false, "fumble 96 → 91", "skill 45: Fumble 10% instead of 5%")
	d.want(d.send("e", false, "/coc 40", 3, 9), false, "Fumble")
}

// A house rule chosen in the Ζαριά's fork is the chat's default: 8, 9
// read as 9 (media alta) there; /ajustes still overrides it.
func TestForkZariaHouseRule(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false)
	d.want(d.send("a", true, "/sistema editar zaria regla zaria media_alta"), false, "media redondeada hacia arriba")
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 9), false, "media 9", "Éxito justo")
	d.want(d.send("b", false, "/zaria 4+2 dc15", 8, 9), false, "media 8", "Fallo")
	d.want(d.send("a", true, "/ajustes zaria baja"), false)
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 9), false, "media 8", "Fallo")
}

// The 📊 button of a roll in a forked chat shows the fork's odds; the
// same roll's in another chat, the book's.
func TestForkOddsButton(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar pbta"), false)
	d.want(d.send("a", true, "/sistema editar pbta banda éxito parcial 8"), false)
	for chat, want := range map[string]string{"a": "éxito: 58,33 %", "b": "éxito: 72,22 %"} {
		rep := d.send(chat, false, "/pbta +1", 3, 3)
		var odds *reply.Action
		for _, b := range rep.Buttons {
			if b.Kind == reply.ButtonOdds {
				odds = b.Action
			}
		}
		if odds == nil {
			t.Fatalf("chat %s: no 📊 button: %+v", chat, rep.Buttons)
		}
		msg := core.Message{Chat: core.ChatRef{Platform: "cli", ID: chat}, From: core.User{ID: "u2", Name: "Ana"}}
		press, ok := d.r.Press(context.Background(), msg, *odds)
		if !ok || press.Error {
			t.Fatalf("chat %s: press: %v %s", chat, ok, reply.PlainText(press))
		}
		if text := reply.PlainText(press); !strings.Contains(text, want) {
			t.Errorf("chat %s: the 📊 shows\n%s\nwant %q", chat, text, want)
		}
	}
}

// A named DC moved in the Ζαριά's fork: «media» is 14 there, so 4+2 with
// 8, 8 (14) reaches it, and the reply names the tier; elsewhere «media»
// is still 15. A value past a neighbour's tier, and Kingdom Hearts'
// tiers, are refused.
func TestForkZariaNamedDC(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false)
	d.want(d.send("a", true, "/sistema editar zaria media 10"), true, "«media» va de 11 a 19", "No se ha cambiado nada")
	d.want(d.send("a", true, "/sistema editar zaria cd media 14"), false, "CD media 15 → 14",
		"atributo + habilidad 4+2, CD media: Éxito justo 9 % en vez de 5 %")
	d.want(d.send("a", false, "/zaria 4+2 media", 8, 8), false, "Éxito justo · CD 14 (media)", "Probabilidad: 15 %")
	d.want(d.send("b", false, "/zaria 4+2 media", 8, 8), false, "Fallo · CD 15 (media)", "Probabilidad: 6 %")
	d.want(d.send("a", false, "/zaria 4+2 dc15", 8, 8), false, "Fallo · CD 15 (entre media y dura)")
	d.want(d.send("a", false, "/odds zaria 4+2 media"), false, "CD 14 · media: 15 %")
	d.want(d.send("a", false, "/sistema"), false, "CD media 15 → 14")

	d.want(d.send("a", true, "/sistema copiar kh"), false)
	d.want(d.send("a", true, "/sistema editar kh normal 12"), true, "«normal»")
}
