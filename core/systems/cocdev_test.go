package systems_test

import (
	"strings"
	"testing"

	"zaria/core"
)

// Call of Cthulhu's development phase on a real sheet (SQLite): a success
// with a skill of the sheet marks it, a failure does not, a skill is
// marked once; /coc mejorar rolls each marked skill (d100 over it, or
// 96+, adds 1d10), writes the sheet and clears the marks.
func TestCoCDevelopmentPhase(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, "/pj poner buscar-libros 60")
	b.ok(ana, "/pj poner descubrir 45")
	b.ok(ana, "/pj poner sigilo 20")

	// Units 3, tens 2: 23 ≤ 60, a success that marks; twice marks once.
	hasAll(t, b.ok(ana, "/coc buscar-libros", 3, 2), "Éxito", "«buscar-libros» marcada")
	b.ok(ana, "/coc buscar-libros", 3, 2)
	// 77 > 45: a failure marks nothing; 12 ≤ 45 marks.
	hasNone(t, b.ok(ana, "/coc descubrir", 7, 7), "marcada")
	b.ok(ana, "/coc descubrir", 2, 1)
	// A hard roll asked and only a regular success: not a success, no mark.
	hasNone(t, b.ok(ana, "/coc sigilo difícil", 5, 1), "marcada")
	// A number is no skill of the sheet: nothing to mark.
	hasNone(t, b.ok(ana, "/coc 60", 3, 2), "marcada")
	if v := b.ok(ana, "/pj"); !strings.Contains(v, "buscar-libros,descubrir") {
		t.Fatalf("marks on the sheet: %s", v)
	}

	// buscar-libros: 85 > 60, +7 → 67; descubrir: 30 ≤ 45, no gain.
	out := b.ok(ana, "/coc mejorar", 85, 7, 30)
	hasAll(t, out, "buscar-libros 60: 🎲 85, +7 → 67", "descubrir 45: 🎲 30, no mejora", "Marcas borradas")
	sheet := b.ok(ana, "/pj")
	hasAll(t, sheet, "67", "45")
	if strings.Contains(sheet, "buscar-libros,descubrir") {
		t.Errorf("marks not cleared: %s", sheet)
	}
	// Nothing marked now: a clear answer, nothing rolled.
	b.fails(ana, "/coc mejorar", "No hay habilidades marcadas")

	// 96+ improves even a skill above it; in English.
	b.lang(chat, "en")
	b.ok(ana, "/pj set buscar-libros 99")
	b.ok(ana, "/coc buscar-libros", 1, 1)
	hasAll(t, b.ok(ana, "/coc improve", 97, 10), "buscar-libros 99: 🎲 97, +10 → 109", "Marks cleared")

	// Another player may not write Drake's sheet: the roll says so and marks nothing.
	eva := core.User{ID: "2", Name: "Eva"}
	b.lang(chat, "es")
	b.ok(ana, "/pj poner buscar-libros 60")
	out = b.ok(eva, "/coc @Drake buscar-libros", 3, 2)
	if strings.Contains(out, "«buscar-libros» marcada") {
		t.Errorf("Eva marked Drake's skill: %s", out)
	}
}
