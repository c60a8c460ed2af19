package systems_test

import (
	"strings"
	"testing"
)

// TestDHBreakHintDoesWhatItSays: issue 23, item 1. "/dh ataque 2d8 n17 vs
// @Drake" said "Un PJ puede romper un DB y recibir solo 2: /dh rompe", and
// that command took 0 damage (no penetration) from the sender's sheet. The
// hint now names the defender and carries the penetration, and typing it
// does exactly what it says.
func TestDHBreakHintDoesWhatItSays(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Drake dh")
	b.ok(ana, "/pj set armadura coraza")
	out := b.ok(ana, "/dh ataque 2d8 n17 vs @Drake", 8, 8, 1, 1, 1)
	want := "Drake puede romper un DB y recibir solo 2: /dh rompe @Drake 2"
	hasAll(t, out, want)
	cmd := want[strings.Index(want, "/dh rompe"):]
	hasAll(t, b.ok(ana, cmd), "penetración 2", "2 de daño", "Coraza: DB intactos 2, rotos 1")
	hasAll(t, b.ok(ana, "/pj"), "db-rotos 1")

	b.lang(chat, "el")
	out = b.ok(ana, "!dh επίθεση 2d8 n17 εναντίον @Drake", 8, 8, 1, 1)
	want = "Ο χαρακτήρας Drake μπορεί να σπάσει ένα ΖΘ και να πάρει μόνο 2: !dh σπάσε @Drake 2"
	hasAll(t, out, want)
	hasAll(t, b.ok(ana, want[strings.Index(want, "!dh σπάσε"):]), "ζημιά 2")
}

// TestDHAttackHintsOnlyWhereTheyApply: issue 23, item 3. Every attack
// showed a usage-die hint and a break hint, even a PC's attack on a
// monster: 6–7 lines on a phone. A hint shows only where it can apply, and
// the reply stays within 5 lines.
func TestDHAttackHintsOnlyWhereTheyApply(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.ok(ana, "/pj set arma espada-larga")
	// A PC (her sheet's sword) attacks a monster in a coraza: it cannot
	// break a DB, her weapon's usage die is on her sheet.
	out := b.ok(ana, "/dh ataque vs coraza", 8, 1, 1, 1)
	hasAll(t, out, "Si el ataque fue un 1 natural: /dh uso arma (ahora d8)")
	hasNone(t, out, "romper", "rompe")
	if n := strings.Count(out, "\n") + 1; n > 5 {
		t.Errorf("%d lines:\n%s", n, out)
	}
	// A monster (no weapon on a sheet) attacks: no usage-die hint.
	hasNone(t, b.ok(ana, "/dh ataque 2d8 n17 vs coraza", 8, 8, 1, 1, 1), "1 natural", "rompe")
}

// TestDHEquipmentAgreesWithTheSheet: issue 23, item 2. With "db 2 ·
// db-rotos 0" on the sheet, "/dh repara coraza 1" answered "Coraza: 3 DB,
// 1 roto … ahora tiene 3 DB" and left db 2; "/dh uso d8" stepped a die
// down that was no one's. The repair now reads and writes the sheet; a die
// typed by hand says that the sheet does not change.
func TestDHEquipmentAgreesWithTheSheet(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.ok(ana, "/pj set db 2")
	b.ok(ana, "/pj set db-rotos 0")
	b.ok(ana, "/pj set arma espada-larga")
	out := b.ok(ana, "/dh repara coraza 1", 5)
	hasAll(t, out, "Coraza: 3 DB, 1 roto", "ahora tiene 3 DB")
	hasAll(t, b.ok(ana, "/pj"), "db 3", "db-rotos 0")
	// Another armour than the sheet's: repaired as the table says, and
	// the reply says the sheet did not change.
	b.ok(ana, "/pj set armadura coraza")
	hasAll(t, b.ok(ana, "/dh repara cota-de-mallas 1", 1), "La ficha no cambia: el personaje lleva otra armadura.")
	hasAll(t, b.ok(ana, "/pj"), "db 3")
	// A typed die steps down nothing on the sheet, and says so.
	hasAll(t, b.ok(ana, "/dh uso d8", 1), "baja a d6", "La ficha no cambia", "/dh uso arma")
	hasNone(t, b.ok(ana, "/pj"), "uso-arma")
	hasAll(t, b.ok(ana, "/dh uso arma", 1), "baja a d6")
	hasAll(t, b.ok(ana, "/pj"), "uso-arma d6")
}
