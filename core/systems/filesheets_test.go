package systems_test

import (
	"strings"
	"testing"

	"zaria/core/systems"
	"zaria/core/systems/engine"
)

// Issue 33, item 5: the six file systems (Call of Cthulhu, Vampire V5,
// Warhammer FRP, PbtA, Fate, Savage Worlds) are sheet systems too. /pj
// crear Lyra coc starts a sheet with the file's keys in the chat's
// language, the chat's default system does the same, and the games'
// checks read the sheet's values by name.
func TestFileSystemSheets(t *testing.T) {
	es := newTable(t, "es", 0)
	es.ok("/pj crear Lyra coc", nil, "Lyra creado con la hoja de La llamada de Cthulhu", "/pj poner FUE 5",
		"FUE 50", "EDU 50", "Suerte 50", "Cordura 50", "Buscar-libros 20", "Descubrir 25", "Mitos-de-Cthulhu 0")
	// The skill of the sheet: 20 % (01–20), 15 a regular success.
	es.ok("/coc buscar-libros", []int{5, 1}, "15", "Éxito", "20 %")
	es.ok("/coc descubrir difícil", []int{1, 1}, "11", "Éxito", "12 %")
	es.ok("/coc fue", []int{5, 4}, "45", "50 %") // a characteristic of the sheet
	es.ok("/pj crear Vera v5", nil, "hoja de Vampiro V5", "Fuerza 1", "Astucia 1", "Pelea 0", "Callejeo 0")
	es.ok("/pj poner fuerza 3", nil)
	es.ok("/pj poner pelea 2", nil)
	// Fuerza 3 + Pelea 2: five dice, the last the Hunger die.
	es.ok("/v5 fuerza+pelea hambre 1", []int{6, 6, 2, 3, 4}, "🎲 6 6 2 3 | 4", "2 éx.")
	es.ok("/v5 fuerza+pelea+1 hambre 1 dif 3", []int{6, 7, 2, 3, 4, 10}, "🎲 6 7 2 3 4 | 10")
	es.ok("/pj crear Wil wfrp", nil, "hoja de Warhammer Fantasy", "HA 30", "HProy 30", "FV 30", "Emp 30", "Esquivar 30")
	es.ok("/wfrp esquivar", []int{31}, "Fallo", "30 %")
	es.ok("/pj poner ha 45", nil)
	es.ok("/wfrp ha combate", []int{44}, "Crítico", "45 %")
	es.ok("/pj crear Pia pbta", nil, "hoja de PbtA", "Frialdad 0", "Dureza 0", "Atractivo 0", "Agudeza 0", "Rareza 0")
	es.ok("/pj poner dureza 2", nil)
	es.ok("/pbta dureza", []int{3, 4}, "→ 9")
	es.ok("/pj crear Fer fate", nil, "hoja de Fate", "Atletismo 0", "Compenetración 0", "Voluntad 0")
	es.ok("/pj poner atletismo 3", nil)
	es.ok("/fate atletismo contra 2", []int{3, 3, 2, 1}, "+4")
	es.ok("/pj crear Sol sw", nil, "hoja de Savage Worlds", "Agilidad d4", "Vigor d4", "Pelear d4")
	es.ok("/pj poner agilidad d8", nil)
	// The trait's die from the sheet: the d8 aces on 8 (8+3), the Wild Die 2.
	es.ok("/sw agilidad +1", []int{8, 3, 2}, "🎲 8 3 · 2 → 12")
	es.ok("/pj poner pelear d9", nil)
	out, rep := es.send(false, "/sw pelear", 3, 2)
	if !rep.Error || !strings.Contains(out, "«d9», el valor pelear de la hoja, no vale como dado de rasgo: pon d4, d6, d8, d10, d12 (por ejemplo /pj poner pelear d8)") {
		t.Errorf("/sw pelear with «d9»: %q", out)
	}
	es.gm("/ajustes sistema coc", "La llamada de Cthulhu")
	es.ok("/pj crear Mia", nil, "hoja de La llamada de Cthulhu", "FUE 50")
	// A value that is no number says so, and rolls nothing.
	es.ok("/pj poner buscar-libros mucho", nil)
	out, rep = es.send(false, "/coc buscar-libros", 5, 1)
	if !rep.Error || !strings.Contains(out, "no un número") {
		t.Errorf("/coc buscar-libros with «mucho»: %q", out)
	}

	el := newTable(t, "el", 0)
	el.ok("/pj δημιουργία Λύρα coc", nil, "φύλλο Κάλεσμα του Κθούλου", "ΔΥΝ 50", "ΜΟΡ 50", "Βιβλιοθήκη 20")
	el.ok("/coc βιβλιοθήκη", []int{5, 1}, "15", "Επιτυχία", "20 %")
	el.ok("/pj δημιουργία Βέρα v5", nil, "φύλλο Vampire V5", "Δύναμη 1", "Πάλη 0")
	el.ok("/pj όρισε πάλη 2", nil)
	el.ok("/v5 δύναμη+πάλη", []int{6, 6, 1}, "🎲 6 6 1")
	el.ok("/pj δημιουργία Φαίη fate", nil, "Αθλητισμός 0", "Θέληση 0")
	el.ok("/pj όρισε θέληση 2", nil)
	el.ok("/fate θέληση εναντίον 1", []int{2, 2, 2, 2}, "+2")
	el.ok("/pj δημιουργία Σόλ sw", nil, "Ευκινησία d4")
	el.ok("/pj όρισε ευκινησία δ6", nil)
	el.ok("/sw ευκινησία", []int{5, 1}, "🎲 5 1 → 5", "Επιτυχία") // a d6 and the Wild Die: no «·»
	el.ok("/pj όρισε μάχη 7", nil)
	out, rep = el.send(false, "/sw μάχη", 5, 1)
	if !rep.Error || !strings.Contains(out, "Η τιμή μάχη του φύλλου, «7», δεν είναι ζάρι γνωρίσματος") {
		t.Errorf("/sw μάχη with «7»: %q", out)
	}
	el.gm("/ajustes sistema wfrp", "Warhammer Fantasy")
	el.ok("/pj δημιουργία Γουίλ", nil, "φύλλο Warhammer Fantasy", "ΙΟ 30", "ΓΟΗ 30", "Αποφυγή 30")
	el.ok("/wfrp αποφυγή", []int{30}, "Επιτυχία", "30 %")

	en := newTable(t, "en", 0)
	en.ok("/pj create Lyra coc", nil, "created with the Call of Cthulhu sheet", "/pj set STR 5", "STR 50", "Library 20", "Spot-Hidden 25")
	en.ok("/coc spot-hidden", []int{5, 2}, "→ 25", "Regular success", "«spot-hidden» marked", "Chance: 25%")
	en.ok("/pj create Pia pbta", nil, "PbtA sheet", "Cool 0", "Weird 0")
	en.ok("/pj set weird -1", nil)
	en.ok("/pbta weird", []int{6, 6}, "→ 11")
	en.ok("/pj create Sol sw", nil, "Savage Worlds sheet", "Agility d4", "Common-Knowledge d4")
	en.ok("/pj set vigor 10", nil) // the die's value reads as well
	en.ok("/sw vigor", []int{9, 1}, "🎲 9 · 1 → 9", "Raise", "Chance: 85%")
	en.ok("/pj create Vera v5", nil, "Vampire V5 sheet", "Strength 1", "Brawl 0")
	en.ok("/pj set brawl 2", nil)
	// Strength 1 + Brawl 2 + 2 dice more: five, none of them Hunger dice.
	en.ok("/v5 strength+brawl+2 diff 3", []int{6, 6, 6, 1, 1}, "🎲 6 6 6 1 1", "3 succ.")
	en.ok("/pj create Fer fate", nil, "Fate sheet", "Fight 0", "Will 0")
	en.ok("/pj set fight 2", nil)
	// Fight +2, the dice +1 (+ + 0 −): +3 against Good (+3), a tie.
	en.ok("/fate fight vs good", []int{3, 3, 2, 1}, "Tie")
}

// Every key of every sheet system shows on a new sheet by its own name in
// each language: no name of a file is taken for another value (as «HP»
// would be the hit points).
func TestSheetKeysShowByTheirNames(t *testing.T) {
	for _, lang := range []string{"es", "el", "en"} {
		tb := newTable(t, lang, 0)
		for i, sys := range engine.SheetSystems() {
			keys := systems.SheetKeys(sys)
			if len(keys) == 0 {
				continue
			}
			var want []string
			for _, k := range keys {
				want = append(want, k.Names.In(lang)+" "+k.Value)
			}
			tb.ok("/pj crear P"+string(rune('a'+i))+" "+sys, nil, want...)
		}
	}
}
