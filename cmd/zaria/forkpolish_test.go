package main

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// A named DC whose earlier change no longer fits once a neighbour moves
// back is refused naming it in the chat's language, quoted: «media» in
// Spanish, «Μέτριο» in Greek, never the file's English "medium".
func TestForkRefusalNamesInChatLanguage(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false)
	d.want(d.send("a", true, "/sistema editar zaria fácil 7"), false, "CD fácil 10 → 7")
	d.want(d.send("a", true, "/sistema editar zaria media 9"), false, "CD media 15 → 9")
	rep := d.send("a", true, "/sistema editar zaria fácil 6")
	d.want(rep, true, "«media» va de 11 a 19; «9» no vale", "No se ha cambiado nada")
	if got := reply.PlainText(rep); strings.Contains(got, "medium") {
		t.Errorf("a Spanish chat reads the English name: %s", got)
	}

	d.want(d.send("g", true, "/lang el"), false)
	d.want(d.send("g", true, "!σύστημα αντιγραφή zaria"), false)
	d.want(d.send("g", true, "!σύστημα αλλαγή zaria εύκολο 7"), false)
	d.want(d.send("g", true, "!σύστημα αλλαγή zaria μέτριο 9"), false)
	d.want(d.send("g", true, "!σύστημα αλλαγή zaria εύκολο 6"), true, "Το «Μέτριο» πάει από 11 έως 19· το «9» δεν γίνεται", "Δεν άλλαξε τίποτα")
}

// A system without numbers is copied with an example of what it does
// have, by names the chat reads, that works as typed: a rename of V5's
// first outcome, a band of PbtA; "a number" only where it is one.
func TestForkCopyExampleByName(t *testing.T) {
	d := newForkDesk(t)
	rep := d.send("a", true, "/sistema copiar v5")
	d.want(rep, false, "Cambia algo, por ejemplo: /sistema editar v5 nombre crítico sucio Nuevo nombre")
	if got := reply.PlainText(rep); strings.Contains(got, "messy_critical") || strings.Contains(got, "un número") {
		t.Errorf("/sistema copiar v5: %s", got)
	}
	d.want(d.send("a", true, "/sistema editar v5"), true, "/sistema editar v5 nombre crítico sucio Nuevo nombre")
	d.want(d.send("a", true, "/sistema editar v5 nombre crítico sucio Nuevo nombre"), false, "Crítico sucio → Nuevo nombre")
	d.want(d.send("a", true, "/sistema copiar pbta"), false, "Cambia algo, por ejemplo: /sistema editar pbta banda éxito total 11")
	d.want(d.send("a", true, "/sistema copiar rq"), false, "Cambia un número, por ejemplo: /sistema editar rq pifia 95")

	d.want(d.send("g", true, "/lang el"), false)
	d.want(d.send("g", true, "!σύστημα αντιγραφή v5"), false, "Άλλαξε κάτι, για παράδειγμα: !σύστημα αλλαγή v5 όνομα βρόμικη κρίσιμη επιτυχία Νέο όνομα")
	d.want(d.send("g", true, "!σύστημα αλλαγή v5 όνομα βρόμικη κρίσιμη επιτυχία Νέο όνομα"), false, "Βρόμικη κρίσιμη επιτυχία → Νέο όνομα")
	d.want(d.send("e", true, "/lang en"), false)
	d.want(d.send("e", true, "/system copy v5"), false, "Change something, for example: /system edit v5 name messy critical New name")
}

// A band's bound is typed with «tramo», the engine's word for it, as well
// as «banda».
func TestForkBandTramo(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar pbta"), false)
	d.want(d.send("a", true, "/sistema editar pbta tramo éxito parcial 8"), false, "banda Éxito parcial ≥7 → ≥8", "Éxito parcial 30,56 % en vez de 41,67 %")
	d.want(d.send("a", true, "/sistema editar pbta banda éxito parcial 9"), false, "banda Éxito parcial ≥8 → ≥9")
}

// /ajustes lists the house rule the chat's copy of the Ζαριά chose as the
// chat's current value; another chat's is the book's; a value set with
// /ajustes is shown over the copy's.
func TestForkHouseRuleInSettings(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false)
	d.want(d.send("a", true, "/sistema editar zaria regla zaria media_alta"), false)
	d.want(d.send("a", false, "/ajustes"), false, "Ζαριά: cómo 2d10 dan la Ζαριά: alta —")
	d.want(d.send("b", false, "/ajustes"), false, "Ζαριά: cómo 2d10 dan la Ζαριά: baja —")
	d.want(d.send("a", true, "/ajustes zaria exacta"), false)
	d.want(d.send("a", false, "/ajustes"), false, "Ζαριά: cómo 2d10 dan la Ζαριά: exacta —")
	d.want(d.send("c", true, "/sistema copiar zaria"), false)
	d.want(d.send("c", false, "/ajustes"), false, "Ζαριά: cómo 2d10 dan la Ζαριά: baja —")
}
