package main

import (
	"math/big"
	"testing"

	"zaria/core/command"
)

// aboveChance is the exact chance that one die of dmg faces, less the sum
// of db six-sided DB dice, deals more than pen: every roll counted.
func aboveChance(dmg, db, pen int) *big.Rat {
	hits, all := int64(0), int64(0)
	var walk func(left, sum, d int)
	walk = func(left, sum, d int) {
		if left == 0 {
			all++
			if max(pen, d-sum, 0) > pen {
				hits++
			}
			return
		}
		for f := 1; f <= 6; f++ {
			walk(left-1, sum+f, d)
		}
	}
	for d := 1; d <= dmg; d++ {
		walk(db, 0, d)
	}
	return big.NewRat(hits, all)
}

// Dungeon Hack forked per chat: the GM makes the long sword a d10 and
// its Penetración 3 in the weapon table of the chat's copy, and the
// breastplate 4 DB in its armour table; /dh ataque
// and /odds dh there roll and count by it, another chat keeps the book's
// d8 and pen 1, the copy survives a restart, and /sistema original gives
// the book back.
func TestForkDHWeaponTable(t *testing.T) {
	d := newForkDesk(t)
	attack := "/dh ataque espada-larga vs coraza"
	d.want(d.send("a", true, "/sistema copiar dh"), false, "copia de Dungeon Hack", "/dh")
	d.want(d.send("a", true, "/sistema editar dh tabla weapons 9 2 100"), true, "«weapons 9·2» va de 0 a 20", "«100» no vale", "No se ha cambiado nada")
	d.want(d.send("a", true, "/sistema editar dh tabla weapons 9 2 10"), false, "tabla weapons 9·2: 8 → 10")

	// Damage 10, DB 1+1+1: 10 − 3 = 7.
	d.want(d.send("a", false, attack, 10, 1, 1, 1), false, "Espada larga 1d10 (pen 1)", "10 − 3 = 7", "7 de daño")
	d.want(d.send("b", false, attack, 8, 1, 1, 1), false, "Espada larga 1d8 (pen 1)", "8 − 3 = 5", "5 de daño")
	fork, book := command.Percent("es", aboveChance(10, 3, 1)), command.Percent("es", aboveChance(8, 3, 1))
	if fork == book {
		t.Fatalf("the d10's chance %s is the d8's", fork)
	}
	d.want(d.send("a", false, "/odds dh ataque espada-larga vs coraza"), false, "1d10", fork)
	d.want(d.send("b", false, "/odds dh ataque espada-larga vs coraza"), false, "1d8", book)

	d.want(d.send("a", true, "/sistema editar dh tabla weapons 9 3 3"), false, "tabla weapons 9·3: 1 → 3")
	// The Penetración is the floor: 3 − 3 = 0 → 3.
	d.want(d.send("a", false, attack, 3, 1, 1, 1), false, "Espada larga 1d10 (pen 3)", "3 de daño")
	// The armour table too: a breastplate of 4 DB, four DB dice rolled.
	d.want(d.send("a", true, "/sistema editar dh tabla armours 9 1 4"), false, "tabla armours 9·1: 3 → 4")
	d.want(d.send("a", false, attack, 10, 1, 1, 1, 1), false, "coraza 4 DB d6", "10 − 4 = 6")
	d.want(d.send("b", false, attack, 8, 1, 1, 1), false, "coraza 3 DB d6")
	d.restart()
	d.want(d.send("a", false, attack, 10, 1, 1, 1, 1), false, "Espada larga 1d10 (pen 3)", "coraza 4 DB d6", "6 de daño")
	d.want(d.send("b", false, attack, 8, 1, 1, 1), false, "Espada larga 1d8 (pen 1)")

	d.want(d.send("a", true, "/sistema original dh"), false, "vuelve a ser el del libro")
	d.want(d.send("a", false, attack, 8, 1, 1, 1), false, "Espada larga 1d8 (pen 1)", "5 de daño")
}
