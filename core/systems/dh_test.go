package systems_test

import (
	"strings"
	"testing"
)

func TestDHAttackChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// H1: absorb 4 → 2.
		{lang: "es", text: "/dh ataque espada-larga vs coraza?", dice: []int{6, 1, 2, 1}, has: []string{"🗡️ Espada larga 1d8 (pen 1) vs coraza 3 DB d6", "🎲 daño 6 · DB 1, 2, 1 → absorben 4", "6 − 4 = 2 → 2 de daño", "Daño por encima de la penetración: 2,03 %"}, not: []string{"1 natural", "rompe"}, bold: "2 de daño", total: ip(2), chance: "35/1728"},
		// H2: the penetration is the floor.
		{lang: "en", text: "/dh attack longsword vs breastplate", dice: []int{3, 2, 2, 3}, has: []string{"Longsword 1d8 (penetration 1) vs breastplate 3 DB d6", "3 − 7 = −4 → 1 damage (the penetration)"}, bold: "1 damage", total: ip(1), chance: "35/1728", noOdds: true},
		{lang: "el", text: "!dh επίθεση μακρύ σπαθί εναντίον θώρακας", dice: []int{3, 2, 2, 3}, has: []string{"Μακρύ σπαθί 1d8 (διάτρηση 1) · άμυνα: θώρακας 3 ΖΘ d6"}, bold: "ζημιά 1", total: ip(1)},
		// H3: no armour, Pen 3 floor.
		{lang: "es", text: "/dh ataque 1d6 pen3", dice: []int{1}, has: []string{"sin armadura"}, bold: "3 de daño", total: ip(3)},
		// H6: maza vs cuero + escudo +1.
		{lang: "es", text: "/dh ataque maza vs cuero +1", dice: []int{5, 3}, has: []string{"5 − 4 = 1", "cuero 1 DB d6 +1"}, bold: "2 de daño", total: ip(2)},
		// §2.10: espadón vs acolchada worn by a caster (d4).
		{lang: "es", text: "/dh ataque espadon vs acolchada d4", dice: []int{12, 4}, has: []string{"1 DB d4"}, bold: "8 de daño", total: ip(8)},
		// Monster level 17 (pen 2), 2d8, vs pieles (2 DB).
		{lang: "es", text: "/dh ataque 2d8 n17 vs pieles", dice: []int{8, 8, 1, 1}, has: []string{"Monstruo nv. 17 2d8 (pen 2)", "16 − 2 = 14"}, total: ip(14)},
		// Explicit DB count and Efectividad.
		{lang: "en", text: "/dh attack 1d8 pen2 vs 3db", dice: []int{1, 1, 1, 1}, bold: "2 damage", total: ip(2)},
		{lang: "es", text: "/dh ataque espada-larga pen+2 vs coraza db+1", dice: []int{8, 1, 1, 1, 1}, has: []string{"(pen 3)", "4 DB d6"}, total: ip(4)},
		// No damage die, no penetration: no "(the penetration)" note.
		{lang: "es", text: "/dh ataque venda-de-batalla vs coraza", dice: []int{1, 1, 1}, has: []string{"🗡️ Venda de batalla (pen 0) vs coraza", "0 − 3 = −3 → 0 de daño"}, not: []string{"(la penetración)", "  ", "romper un DB"}, total: ip(0), chance: "0/1"},
		// Mounted charge: one more damage die.
		{lang: "es", text: "/dh ataque lanza-de-caballeria carga", dice: []int{12, 12}, has: []string{"2d12"}, total: ip(24)},
		// The Greek word for it, with its accent and final ς.
		{lang: "el", text: "/dh επίθεση δόρυ έφοδος", dice: []int{6, 5}, has: []string{"Δόρυ 2d6 (διάτρηση 2)"}, total: ip(11)},
	})
	// The "mayor" house rule and the d4 default die.
	b.set("dh_blindaje", "mayor")
	b.set("dh_dado", "d4")
	run(t, b, []expect{
		{lang: "es", text: "/dh ataque espada-larga vs coraza", dice: []int{8, 1, 4, 2}, has: []string{"3 DB d4", "absorbe el mayor: 4", "8 − 4 = 4"}, total: ip(4)},
	})
}

func TestDHOtherChat(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		// H4, H5: breaking a DB.
		{lang: "es", text: "/dh rompe n17", has: []string{"penetración 2", "Anota un DB roto"}, bold: "2 de daño", total: ip(2)},
		{lang: "en", text: "/dh break clava", bold: "0 damage", total: ip(0)},
		{lang: "es", text: "/dh rompe pen2", bold: "2 de daño", total: ip(2)},
		// H7.
		{lang: "es", text: "/dh pen 17", has: []string{"Nivel 17:"}, bold: "penetración 2", total: ip(2)},
		{lang: "es", text: "/dh pen 8", has: []string{"Con «redondeo hacia arriba» sería 1"}, bold: "penetración 0", total: ip(0)},
		// The level as dh.yaml's check pen reads it: alone or after its prefix.
		{lang: "en", text: "/dh pen n 17", has: []string{"Level 17:"}, bold: "penetration 2", total: ip(2)},
		{lang: "el", text: "/dh διάτρηση επ17", has: []string{"Επίπεδο 17:"}, total: ip(2)},
		// The sub-command by its check's word, names or keywords (dh.yaml), in any chat.
		{lang: "es", text: "/dh ΣΠΑΣΕ pen2", bold: "2 de daño", total: ip(2)},
		{lang: "en", text: "/dh penetración 17", bold: "penetration 2", total: ip(2)},
		{lang: "el", text: "/dh πνιγμος 5", has: []string{"δεν χρειάζεται ρίψη"}, total: ip(0)},
		// H10, H11: usage die.
		{lang: "es", text: "/dh uso d8?", dice: []int{2}, has: []string{"🎲 d8 → 2", "Probabilidad de bajar de dado: 25 %"}, bold: "baja a d6", outcome: "failure", chance: "3/4"},
		{lang: "en", text: "/dh use d8", dice: []int{5}, bold: "holds (d8)", outcome: "success"},
		{lang: "es", text: "/dh uso clava", dice: []int{1}, has: []string{"Clava · 🎲 d4 → 1"}, bold: "¡agotado: se rompe!", outcome: "failure", chance: "1/2"},
		{lang: "el", text: "/dh χρήση ρόπαλο μαγικό", dice: []int{1}, bold: "δεν χρησιμοποιείται μέχρι να επισκευαστεί", outcome: "failure"},
		// H8: the seed's repair; H9; H12.
		{lang: "es", text: "/dh repara coraza 2?", dice: []int{2, 4}, has: []string{"Coraza: 3 DB, 2 rotos", "d6: 2, 4 (hay que sacar más de 3)", "Coraza: ahora tiene 2 DB.", "Probabilidad de repararlos todos: 25 %"}, bold: "1 reparado, 1 perdido", outcome: "failure", total: ip(2), chance: "1/4"},
		{lang: "es", text: "/dh repara tela 1", bold: "se destruye y no se puede reparar", outcome: "impossible"},
		{lang: "en", text: "/dh repair chain mail 2 d4", bold: "A d4 never rolls above 4", outcome: "impossible"},
		// Magic armour: 1d4 days and 10 % of its value per broken DB.
		{lang: "es", text: "/dh repara coraza 2 magica", dice: []int{3}, has: []string{"coste: 20 % del valor original", "artesano excepcional"}, bold: "3 días de trabajo", outcome: "success", total: ip(3)},
		{lang: "en", text: "/dh repair breastplate 1 magic", dice: []int{1}, bold: "1 day of work", outcome: "success"},
		{lang: "es", text: "/dh repara tela 1 magica", errHas: "ni siendo mágica"},
		// H13.
		{lang: "es", text: "/dh montura?", dice: []int{8}, has: []string{"Probabilidad de que el golpe lo reciba la montura: 65 %"}, bold: "la montura", outcome: "success", chance: "13/20"},
		{lang: "en", text: "/dh mount", dice: []int{7}, bold: "the rider takes the hit", outcome: "failure"},
		// H14.
		{lang: "es", text: "/dh asfixia 13", has: []string{"Asalto 13", "1d10"}, bold: "a −2", total: ip(-2)},
		{lang: "el", text: "/dh ασφυξία 5", has: []string{"δεν χρειάζεται ρίψη"}, total: ip(0)},
		// Heavy armour sinks (rows 6–13), bandas or heavier swims at Desventaja (11–13).
		{lang: "es", text: "/dh asfixia 2 cota de anillas", has: []string{"Cota de anillas: se hunde desde el asalto 2; para subir, tirada de Fuerza."}, not: []string{"Desventaja"}},
		{lang: "en", text: "/dh drown 3 bandas", has: []string{"at Disadvantage"}},
		{lang: "es", text: "/dh asfixia 3 cuero tachonado", not: []string{"se hunde"}},
		// An old Absorción die as DB: d8 → 3 DB.
		{lang: "es", text: "/dh ataque 1d8 vs absd8", dice: []int{8, 1, 1, 1}, has: []string{"3 DB d6"}, total: ip(5)},
	})
}

func TestDHBadInput(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh ataque espada larga vs coraza", dice: []int{1, 1, 1, 1}, total: ip(1)}, // spaces are fine
		{lang: "es", text: "/dh ataque espada-lraga vs coraza", errHas: "¿Quisiste decir «espada larga»?"},
		{lang: "el", text: "/dh ataque μακρυ σπαθι vs θωρακς", errHas: "Μήπως εννοείς «θώρακας»;"},
		{lang: "en", text: "/dh attack longswrd vs breastplate", errHas: "Did you mean “longsword”?"},
		{lang: "es", text: "/dh ataque xyzzyqwerty", errHas: "No conozco el arma"},
		{lang: "es", text: "/dh ataque", errHas: "¿Con qué arma?"},
		{lang: "es", text: "/dh ataque 11d8", errHas: "de 1 a 10 dados"},
		{lang: "es", text: "/dh ataque 1d8 vs 11db", errHas: "Como mucho 10 DB"},
		{lang: "es", text: "/dh ataque 1d8 vs coraza d7", errHas: "El dado de DB es d4, d6"},
		{lang: "es", text: "/dh ataque 1d8 n101", errHas: "El nivel va de 1 a 100"},
		{lang: "es", text: "/dh atake espada-larga", errHas: "¿Quisiste decir «ataque»?"},
		{lang: "es", text: "/dh", errHas: "Uso: /dh ataque"},
		{lang: "es", text: "/dh uso d7", errHas: "El dado de uso es d4"},
		{lang: "es", text: "/dh uso venda-de-batalla", errHas: "Venda de batalla: sin Resistencia"},
		{lang: "es", text: "/dh repara coraza 4", errHas: "solo tiene 3 DB"},
		{lang: "es", text: "/dh repara coraza", errHas: "Uso: /dh repara"},
		{lang: "es", text: "/dh pen", errHas: "Uso: /dh pen 17"},
		{lang: "es", text: "/dh asfixia 0", errHas: "El asalto va de 1 a 1000"},
		{lang: "es", text: "/dh montura ya", errHas: "Sobra «ya»"},
		{lang: "en", text: "/dh mount 3 d8", errHas: "“3 d8” left over"},
		{lang: "en", text: "/dh pen 17 18", errHas: "Usage: /dh pen 17"},
		{lang: "el", text: "/dh pen n17 n18", errHas: "Χρήση: /dh διάτρηση 17"},
		{lang: "es", text: "/dh pen d8", errHas: "Uso: /dh pen 17"},
		{lang: "es", text: "/dh pen -1", errHas: "El nivel va de 1 a 100; has puesto −1"},
		{lang: "en", text: "/dh drown 1001", errHas: "The round goes from 1 to 1000."},
		{lang: "el", text: "/dh ασφυξία θώρακας 13", errHas: "Χρήση: /dh ασφυξία 13"},
		{lang: "es", text: "/dh reparacion tela 1", bold: "se destruye y no se puede reparar", outcome: "impossible"},
		{lang: "es", text: "/dh ataque 1d8 pen21", errHas: "La penetración va de 0 a 20; has puesto 21"},
		{lang: "el", text: "/dh ataque 1d8 +51", errHas: "Ο τροποποιητής ζημιάς είναι από −50 έως +50"},
		{lang: "en", text: "/dh attack 1d8 vs coraza +21", errHas: "Fixed absorption goes from 0 to 20; you wrote 21"},
		{lang: "es", text: "/dh repara coraza 11", errHas: "DB rotos: de 1 a 10; has puesto 11"},
		{lang: "es", text: "/dh rompe 21", errHas: "La penetración va de 0 a 20"},
		{lang: "es", text: "/dh ataque 1d21", errHas: "de 2 a 20 caras"},
		{lang: "es", text: "/dh ataque 1d8 vs absd7", errHas: "La absorción antigua es d4"},
	})
}

// With an active character, the commands read the sheet and say what changed.
func TestDHSheet(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Enyra"
	sh.chars["enyra"] = map[string]string{"arma": "espada-larga", "armadura": "coraza"}
	sh.chars["drake"] = map[string]string{"armadura": "pieles", "dado-db": "d4"}
	b := newBot(t, sh)
	run(t, b, []expect{
		// /dh ataque without a weapon reads "arma"; "vs @Drake" reads his armour and die.
		{lang: "es", text: "/dh ataque vs @Drake", dice: []int{8, 1, 2}, has: []string{"Espada larga 1d8 (pen 1) vs Drake (armadura de pieles) 2 DB d4", "8 − 3 = 5"}, total: ip(5)},
		// Breaking twice: coraza 3 → 2 → 1 intact.
		{lang: "es", text: "/dh rompe pen1", has: []string{"Coraza: DB intactos 2, rotos 1."}, bold: "1 de daño", total: ip(1)},
		{lang: "es", text: "/dh rompe pen1", has: []string{"Coraza: DB intactos 1, rotos 2."}, total: ip(1)},
		// H8 from the sheet: 2 broken of 3, dice 2 and 4.
		{lang: "es", text: "/dh repara", dice: []int{2, 4}, has: []string{"Coraza: 3 DB, 2 rotos", "1 reparado, 1 perdido", "Coraza: ahora tiene 2 DB."}, outcome: "failure", total: ip(2), chance: "1/4"},
		// Usage die of the weapon: d8 → d6, stored.
		{lang: "es", text: "/dh uso", dice: []int{1}, has: []string{"Espada larga · 🎲 d8 → 1", "Ficha: uso-arma = d6"}, bold: "baja a d6", outcome: "failure"},
		{lang: "es", text: "/dh uso arma", dice: []int{6}, has: []string{"🎲 d6 → 6"}, bold: "aguanta (d6)", outcome: "success"},
		{lang: "es", text: "/dh uso armadura", dice: []int{2}, has: []string{"Coraza · 🎲 d12 → 2", "uso-armadura = d10"}, outcome: "failure"},
	})
	if got := sh.chars["enyra"]; got["db"] != "2" || got["db-rotos"] != "0" || got["uso-arma"] != "d6" || got["uso-armadura"] != "d10" {
		t.Errorf("sheet after the session: %v", got)
	}
	// Breaking the last DB destroys the armour.
	sh.chars["enyra"]["db"] = "1"
	rep := b.roll("es", "/dh rompe")
	if !strings.Contains(text(rep), "Coraza: sin DB intactos, se destruye.") {
		t.Errorf("last DB: %q", text(rep))
	}
	run(t, b, []expect{{lang: "es", text: "/dh rompe", errHas: "No te quedan DB intactos"}})
	// An exhausted weapon cannot roll.
	sh.chars["enyra"]["uso-arma"] = "agotado"
	run(t, b, []expect{{lang: "es", text: "/dh uso", errHas: "el dado de uso está agotado, el arma está destruida"}})
	// A d4 rolled 1 is spent: the sheet keeps "agotado", each language
	// shows it in its own words.
	for _, c := range []struct{ lang, text, has string }{
		{"en", "/dh use armour", "Sheet: armour-usage = exhausted"},
		{"el", "/dh χρήση πανοπλία", "Φύλλο: χρήση-πανοπλίας = εξαντλημένο"},
	} {
		sh.chars["enyra"]["uso-armadura"] = "d4"
		run(t, b, []expect{{lang: c.lang, text: c.text, dice: []int{1}, has: []string{c.has}, outcome: "failure"}})
		if got := sh.chars["enyra"]["uso-armadura"]; got != "agotado" {
			t.Errorf("%s: uso-armadura %q, want agotado", c.lang, got)
		}
	}
}

// A failing store is an internal error: logged by the router, a generic
// message to the user, never the Go error text and never a half-told roll.
func TestDHStoreFailure(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Enyra"
	sh.chars["enyra"] = map[string]string{"arma": "espada-larga", "armadura": "coraza"}
	b := newBot(t, sh)
	sh.broken = true
	for _, cmd := range []string{"/dh rompe pen1", "/dh uso", "/dh repara", "/dh ataque", "/dh asfixia 12", "/zaria fuerza+atletismo dc15"} {
		rep := b.roll("es", cmd)
		out := text(rep)
		if !rep.Error || strings.Contains(out, "disk on fire") {
			t.Errorf("%s: %q (error=%v)", cmd, out, rep.Error)
		}
	}
}

// The GM adds to or subtracts from a monster's penetration by how dangerous
// it is (docs/dungeonhack.md#monster-penetration): "pen-1" lowers it, never
// below 0, also when breaking a DB; a damage modifier may be negative.
func TestDHPenaltiesAndMinus(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh ataque 2d8 n17 pen-1 vs pieles", dice: []int{1, 1, 6, 6}, has: []string{"Monstruo nv. 17 2d8 (pen 1)", "2 − 12 = −10 → 1 de daño (la penetración)"}, bold: "1 de daño", total: ip(1)},
		{lang: "en", text: "/dh attack 2d8 n3 pen-1 vs hide-armour", dice: []int{1, 1, 6, 6}, has: []string{"Monster lvl 3 2d8 (penetration 0)"}, bold: "0 damage", total: ip(0)},
		{lang: "el", text: "/dh επίθεση 2d8 n17 διάτρηση−1", dice: []int{1, 1}, has: []string{"(διάτρηση 1)"}, total: ip(2)},
		{lang: "es", text: "/dh rompe n17 pen-1", has: []string{"penetración 1"}, bold: "1 de daño", total: ip(1)},
		{lang: "en", text: "/dh break n9 pen-3", has: []string{"penetration 0"}, bold: "0 damage", total: ip(0)},
		{lang: "es", text: "/dh ataque mayal pen+1 pen-2 vs coraza", dice: []int{8, 1, 1, 1}, has: []string{"Mayal 1d8 (pen 2)"}, total: ip(5)},
		{lang: "en", text: "/dh attack 1d8 -2 vs 3db", dice: []int{8, 1, 1, 1}, has: []string{"1d8−2 (penetration 0)", "6 − 3 = 3"}, total: ip(3)},
		{lang: "es", text: "/dh ataque 1d8 −2", dice: []int{1}, has: []string{"1d8−2"}, bold: "0 de daño", total: ip(0)},
		{lang: "en", text: "/dh attack 1d8 vs 3db -1", errHas: "Fixed absorption goes from 0 to 20; you wrote −1."},
		{lang: "en", text: "/dh attack longsword pen+20 vs breastplate", errHas: "Penetration goes from 0 to 20; you wrote 21."},
		{lang: "es", text: "/dh rompe n17 pen+19", errHas: "21"},
	})
}
