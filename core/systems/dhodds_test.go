package systems_test

import (
	"math/big"
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/roll"
)

// /odds dh reads an attack as /dh ataque does: the sender's weapon from
// the sheet ("arma"), "@Drake"'s armour and DB die from his, a named
// attacker's weapon from his sheet, in every language. The chances are
// enumerated here: 1d8 (pen 1) against 2 DB d4 deals more than 1 when the
// die beats the two DB dice by 2 or more.
func TestOddsDHReadsSheets(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Enyra"
	sh.chars["enyra"] = map[string]string{"arma": "espada-larga", "armadura": "coraza"}
	sh.chars["drake"] = map[string]string{"arma": "espadon", "armadura": "pieles", "dado-db": "d4"}
	b := newBot(t, sh)
	roll.RegisterOdds(b.r)
	var n int64
	for d := 1; d <= 8; d++ {
		for x := 1; x <= 4; x++ {
			for y := 1; y <= 4; y++ {
				if d-x-y > 1 {
					n++
				}
			}
		}
	}
	es, en := command.Percent("es", big.NewRat(n, 128)), command.Percent("en", big.NewRat(n, 128))
	for _, tc := range []struct {
		lang, text string
		has        []string
	}{
		{"es", "/odds dh ataque vs @Drake", []string{"🎲 Espada larga 1d8 (pen 1) vs Drake (armadura de pieles) 2 DB d4", "🎯 daño por encima de la penetración: " + es}},
		{"en", "/odds dh attack vs @Drake", []string{"🎲 Longsword 1d8 (penetration 1) vs Drake (hide armour) 2 DB d4", "🎯 damage above the penetration: " + en}},
		{"el", "/odds dh επίθεση εναντίον @Drake", []string{"🎲 Μακρύ σπαθί 1d8 (διάτρηση 1) · άμυνα: Drake (πανοπλία από προβιές) 2 ΖΘ d4", "🎯 ζημιά πάνω από τη διάτρηση: " + es}},
		// Drake attacks with his greatsword: 1d12 against the default d6 of a breastplate.
		{"es", "/odds dh ataque @Drake vs coraza", []string{"🎲 Espadón 1d12 (pen 1) vs coraza 3 DB d6"}},
		{"es", "/odds dh ataque Drake vs acolchada d4", []string{"🎲 Espadón 1d12 (pen 1) vs armadura acolchada 1 DB d4", "más de 1 de daño"}},
	} {
		rep := b.roll(tc.lang, tc.text)
		got := text(rep)
		for _, h := range tc.has {
			if rep.Error || !strings.Contains(got, h) {
				t.Errorf("%s %q lacks %q:\n%s", tc.lang, tc.text, h, got)
			}
		}
	}
	// The greatsword against a caster's padded armour: above the
	// penetration (2 or more) when the d12 beats the d4 by 2 or more.
	n = 0
	for d := 1; d <= 12; d++ {
		for x := 1; x <= 4; x++ {
			if d-x > 1 {
				n++
			}
		}
	}
	if got := text(b.roll("en", "/odds dh attack @Drake vs padded-armour d4")); !strings.Contains(got, "🎯 damage above the penetration: "+command.Percent("en", big.NewRat(n, 48))) {
		t.Errorf("greatsword vs padded armour:\n%s", got)
	}
	// An exhausted weapon cannot attack, nor have odds.
	sh.chars["enyra"]["uso-arma"] = "agotado"
	if rep := b.roll("es", "/odds dh ataque vs coraza"); !rep.Error || !strings.Contains(text(rep), "el arma está destruida") {
		t.Errorf("exhausted weapon: %s", text(rep))
	}
	if len(sh.writes) != 0 {
		t.Errorf("/odds wrote to a sheet: %v", sh.writes)
	}
}
