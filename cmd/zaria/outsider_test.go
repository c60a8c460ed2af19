package main

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// The outsider files (core/systems/engine/testdata/outsider: games the
// project does not ship, written from docs/systems-format.md alone) as a
// GM uses them: each imported into a chat, then rolled by its command
// with chosen dice, the reply naming the outcome, the further results
// and the exact chance; a check reached by its word (/iron progreso);
// bad words named by what is wrong, with the file's example; no chance
// of success when no band applies (no DC typed); an edit answered with
// how an own file changes; a sheet value read for a term; /odds of it.
func TestForkImportOutsiderFiles(t *testing.T) {
	d := newForkDesk(t)
	for _, f := range []struct{ file, name, examples string }{
		{"dnd5e", "D&D 5e", "14 ejemplos"},
		{"blades", "Blades in the Dark", "11 ejemplos"},
		{"sr5", "Shadowrun 5", "11 ejemplos"},
		{"ironsworn", "Ironsworn", "11 ejemplos"},
		{"cypher", "Sistema Cypher", "12 ejemplos"},
	} {
		d.want(d.send("a", true, "/sistema importar\n"+readOutsider(t, f.file+".yaml")), false, "su propio sistema, "+f.name, f.examples)
	}
	d.want(d.send("a", false, "/dnd +3 cd15 ventaja", 4, 13), false, "🎲 4 · 13 = 16", "éxito", "69,75 %")
	d.want(d.send("a", false, "/dnd +3 dc15 desventaja", 4, 13), false, "🎲 4 · 13 = 7", "fallo", "20,25 %")
	noDC := d.send("a", false, "/dnd +3", 11)
	d.want(noDC, false, "🎲 11 = 14")
	if got := reply.PlainText(noDC); strings.Contains(got, "%") {
		t.Errorf("a check with no DC gives a chance: %q", got)
	}
	d.want(d.send("a", false, "/dnd cd99"), true, "«CD» va de 1 a 40; has escrito cd99")
	d.want(d.send("a", false, "/dnd +3 +4 +5"), true, "No entiendo «+5». Por ejemplo: /dnd +3 cd15 ventaja")
	d.want(d.send("a", false, "/dnd +5 vs +3", 9, 11), false, "🎲 9 = 14 vs 🎲 11 = 14", "empate", "57,25 %")
	d.want(d.send("a", false, "/blades 3", 6, 1, 6), false, "🎲 6 · 1 · 6 = 6", "crítico", "87,5 %")
	d.want(d.send("a", false, "/blades 0", 6, 6), false, "éxito total", "25 %")
	d.want(d.send("a", false, "/blades 11"), true, "«dados» va de 0 a 10; has escrito 11")
	d.want(d.send("a", false, "/sr 5 1", 1, 1, 1, 5, 2), false, "= 1 pifia", "éxito")
	d.want(d.send("a", false, "/sr 3", 1, 1, 4), false, "= 0 pifia crítica")
	d.want(d.send("a", false, "/sr 4 t2 umbral 3"), true, "Has escrito «umbral» dos veces")
	d.want(d.send("a", false, "/iron 2+1", 4, 3, 6), false, "🎲 4 vs 3 6 = 7", "éxito fuerte", "76,83 %")
	d.want(d.send("a", false, "/iron 3", 5, 4, 4), false, "= 8 coincidencia", "éxito fuerte")
	d.want(d.send("a", false, "/iron progreso 6", 3, 6), false, "🎲 3 6 = 6", "éxito débil", "75 %")
	d.want(d.send("a", false, "/iron progreso 11"), true, "«progreso» va de 0 a 10; has escrito 11")
	// A term of a+b is a number in its part's range, or a sheet value.
	d.want(d.send("a", false, "/iron 6+1"), true, "«atributo» va de 0 a 5; has escrito 6")
	d.want(d.send("a", false, "/iron hierro+1", 4, 3, 6), true, "No tienes personaje activo")
	d.want(d.send("a", false, "/pj crear Kira"), false)
	d.want(d.send("a", false, "/pj poner hierro 3"), false)
	d.want(d.send("a", false, "/iron hierro+1", 4, 3, 6), false, "🎲 4 vs 3 6 = 8", "éxito fuerte", "84,83 %")
	d.want(d.send("a", false, "/cypher difícil f1", 19), false, "🎲 19 = 19 efecto menor", "éxito", "60 %")
	d.want(d.send("a", false, "/cypher δύσκολη", 1), false, "intrusión del DJ", "fallo", "45 %")
	d.want(d.send("a", false, "/cypher f1"), true, "Falta «dificultad». Por ejemplo: /cypher dificil f1")
	// /odds reads the chat's own system by its command: each outcome's
	// exact chance (Blades' 3 dice: critical 2/27, full 25/72, partial
	// 49/108, bad 1/8), the example when no check is given; in another
	// chat the word is no system.
	d.want(d.send("a", false, "/odds blades 3"), false, "éxito: 87,5 %", "crítico", "7,41 %", "éxito total", "34,72 %", "éxito parcial", "45,37 %", "mal resultado", "12,5 %")
	d.want(d.send("a", false, "/odds iron progreso 6"), false, "éxito: 75 %")
	d.want(d.send("a", false, "/odds dnd"), true, "Por ejemplo: /odds dnd +3 cd15 ventaja")
	d.want(d.send("b", false, "/odds blades 3"), true, "No entiendo «3»")
	// Another file may not take an own system's command; the same
	// system sent again replaces it.
	clash := strings.Replace(rollOver, "command: ro", "command: dnd", 1)
	d.want(d.send("a", true, "/sistema importar\n"+clash), true, "/dnd ya es la orden de D&D 5e, otro sistema propio de este chat")
	// An own file is changed by sending it again, not edited as a copy.
	d.want(d.send("a", true, "/sistema editar cypher dificultad 3"), true, "«cypher» es un archivo propio de este chat", "/sistema importar")
}

// zaria system try reaches a check by its word and writes the further
// results: what a tester of a file of their own reads.
func TestSystemTryOutsider(t *testing.T) {
	wantSystemTry(t, "3,3", "ironsworn.yaml", "progreso 6", []string{"progress map[progress:6]: dice [3 3], total 6, strong, match match", "chance = 3/4"})
	wantSystemTry(t, "1,1,1,5,2", "sr5.yaml", "5 t1", []string{"total 1, success, glitch glitch"})
}
