package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems/fork"
)

// forkDesk is a router over one database file that can be restarted.
type forkDesk struct {
	t    *testing.T
	path string
	r    *command.Router
	stop func()
}

func newForkDesk(t *testing.T) *forkDesk {
	d := &forkDesk{t: t, path: filepath.Join(t.TempDir(), "zaria.db")}
	d.start()
	t.Cleanup(func() { d.stop() })
	return d
}

func (d *forkDesk) start() {
	db, err := openDB(context.Background(), d.path)
	if err != nil {
		d.t.Fatal(err)
	}
	r, err := newRouter("es", nil, "", db, nil)
	if err != nil {
		d.t.Fatal(err)
	}
	d.r, d.stop = r, func() { db.Close() }
}

func (d *forkDesk) restart() { d.stop(); d.start() }

// send types text in chat as the GM Eva or the player Ana; faces, when
// given, are the dice.
func (d *forkDesk) send(chat string, gm bool, text string, faces ...int) *reply.Reply {
	d.t.Helper()
	from := core.User{ID: "u2", Name: "Ana"}
	if gm {
		from = core.User{ID: "u1", Name: "Eva"}
	}
	var src dice.Source = dice.Seeded(1)
	if len(faces) > 0 {
		src = dice.NewScripted(faces)
	}
	rep, ok := d.r.DispatchWith(context.Background(), core.Message{Chat: core.ChatRef{Platform: "cli", ID: chat}, From: from, Text: text, FromGM: gm}, src)
	if !ok {
		d.t.Fatalf("%q not answered", text)
	}
	return rep
}

func (d *forkDesk) want(rep *reply.Reply, isErr bool, subs ...string) {
	d.t.Helper()
	got := reply.PlainText(rep)
	if rep.Error != isErr {
		d.t.Fatalf("error %v, want %v: %s", rep.Error, isErr, got)
	}
	for _, s := range subs {
		if !strings.Contains(got, s) {
			d.t.Fatalf("reply %q lacks %q", got, s)
		}
	}
}

// The done-when: a GM forks RQ, sets the fumble range to 95+,
// sees the odds it moves and the book's examples it rewrites; /rq 45
// fumbles on 95 in that chat and succeeds in another; the fork survives
// a restart and goes with an undo; /sistema original gives the book back.
func TestForkRQFumbleRange(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", false, "/sistema copiar rq"), true, "Solo un máster")
	d.want(d.send("a", true, "/sistema editar rq pifia 95"), true, "no tiene una copia", "/sistema copiar rq")
	d.want(d.send("a", true, "/sistema copiar rq"), false, "copia de RQ", "/rq", "/sistema editar rq pifia 95")
	d.want(d.send("a", true, "/sistema copiar rq"), true, "ya tiene su copia")
	d.want(d.send("a", true, "/sistema editar rq pifia 101"), true, "«pifia» va de 0 a 100", "No se ha cambiado nada")
	d.want(d.send("a", true, "/sistema editar rq pifia noventa"), true, "«noventa»")
	d.want(d.send("a", true, "/sistema editar rq critico 5"), true, "«critico»")
	d.want(d.send("a", true, "/sistema probar rq pifia 95"), false, "Pifia 6 % en vez de 2 %", "no se ha guardado", "/sistema editar rq pifia 95")
	d.want(d.send("a", false, "/rq 45", 95), false, "Éxito")
	rep := d.send("a", true, "/sistema editar rq pifia 95")
	d.want(rep, false, "pifia: la del libro → 95", "habilidad 45, dificultad −30: Pifia 6 % en vez de 2 %",
		"R1 98: Fallo → Pifia", "/sistema deshacer")
	t.Log(reply.PlainText(rep))

	d.want(d.send("a", false, "/rq 45", 95), false, "Pifia", "pifia ≥95")
	d.want(d.send("b", false, "/rq 45", 95), false, "Éxito")
	d.want(d.send("a", false, "/rq 45", 94), false, "Éxito")
	d.want(d.send("a", false, "/sistema"), false, "/rq", "copia de RQ", "pifia: la del libro → 95")
	d.want(d.send("a", false, "/odds rq 45 algo facil"), false, "→ 95: 94 %", "¡Pifia!    6 %")
	d.want(d.send("b", false, "/odds rq 45 algo facil"), false, "→ 95: 95 %", "¡Pifia!    1 %")
	d.want(d.send("b", false, "/sistema"), false, "juega con los sistemas del libro")

	d.restart()
	d.want(d.send("a", false, "/rq 45", 95), false, "Pifia")
	d.want(d.send("b", false, "/rq 45", 95), false, "Éxito")

	d.want(d.send("a", false, "/sistema deshacer"), true, "Solo un máster")
	d.want(d.send("a", true, "/sistema deshacer"), false, "como antes del último cambio")
	d.want(d.send("a", false, "/rq 45", 95), false, "Éxito")
	d.want(d.send("a", true, "/sistema deshacer"), true, "No hay nada que deshacer")

	d.want(d.send("a", true, "/sistema editar rq pifia 95"), false)
	d.want(d.send("a", true, "/sistema original rq"), false, "vuelve a ser el del libro")
	d.want(d.send("a", false, "/rq 45", 95), false, "Éxito")
	d.want(d.send("a", true, "/sistema deshacer"), false)
	d.want(d.send("a", false, "/rq 45", 95), false, "Pifia")
}

// rollOver is docs/systems-format.md's example file: a game zaria does
// not ship.
const rollOver = `system: roll_over
title: {es: Tirada, el: Ρίψη, en: Roll}
command: ro
inputs:
  - {key: bonus, type: number, min: -10, max: 10, names: {es: bono, el: μπόνους, en: bonus}}
  - {key: target, type: number, min: 1, max: 30, default: 10, prefixes: [tn],
     names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: critical, success: true, names: {es: crítico, el: κρίσιμη, en: critical}}
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: check
    names: {es: tirada, el: ρίψη, en: check}
    inputs: [bonus, target]
    steps:
      - {roll: d, dice: "1", faces: 20}
      - {let: total, is: d.sum + bonus}
    total: total
    result:
      overrides:
        - {when: d.all(20), outcome: critical}
      on: total - target
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
vectors:
  - {name: hit, inputs: {bonus: "2", target: "12"}, dice: [10], expect: {outcome: success, total: "12"}}
  - {name: miss, inputs: {bonus: "2", target: "12"}, dice: [9], expect: {outcome: failure}}
  - {name: natural 20, inputs: {bonus: "-10", target: "30"}, dice: [20], expect: {outcome: critical}}
  - {name: odds, inputs: {bonus: "2", target: "12"}, expect: {chance: 11/20}}
`

// A file sent to the chat: refused naming its first failing example, or
// a command taken from the bot; else the chat's own system, rolled by
// its command in that chat only, listed, and gone with an undo.
func TestForkImportFile(t *testing.T) {
	d := newForkDesk(t)
	bad := strings.Replace(rollOver, "dice: [9], expect: {outcome: failure}", "dice: [9], expect: {outcome: success}", 1)
	d.want(d.send("a", true, "/sistema importar\n"+bad), true, "Archivo rechazado", "«miss»", "línea 29")
	d.want(d.send("a", true, "/sistema importar\n"+strings.Replace(rollOver, "command: ro", "command: rq", 1)), true, "/rq ya es una orden")
	d.want(d.send("a", true, "/sistema importar"), true, "Adjunta el archivo")
	d.want(d.send("a", false, "/sistema importar\n"+rollOver), true, "Solo un máster")
	d.want(d.send("a", true, "/sistema importar\n"+rollOver), false, "su propio sistema, Tirada", "/ro", "4 ejemplos")
	d.want(d.send("a", false, "/ro 2 tn12", 10), false, "🎲 10 = 12", "éxito", "55 %")
	d.want(d.send("a", false, "/ro tn12 2", 9), false, "fallo")
	d.want(d.send("b", false, "/ro 2 tn12", 10), true)
	d.want(d.send("a", false, "/sistema"), false, "/ro", "archivo propio")
	d.restart()
	d.want(d.send("a", false, "/ro 2", 20), false, "crítico")
	d.want(d.send("a", true, "/sistema deshacer"), false, "ya no tiene")
	d.want(d.send("a", false, "/ro 2", 20), true)
}

// A chat's fork and own system go with /exportar and come back with
// /importar into another chat, as they were; a document whose fork no
// longer builds is refused whole.
func TestForkExportImport(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar rq"), false)
	d.want(d.send("a", true, "/sistema editar rq pifia 95"), false)
	d.want(d.send("a", true, "/sistema importar\n"+rollOver), false)
	doc := string(d.send("a", true, "/exportar").File.Data)
	if !strings.Contains(doc, `"systems"`) || !strings.Contains(doc, `"fumble_from"`) {
		t.Fatalf("the export has no systems: %s", doc)
	}
	d.want(d.send("c", true, "/importar "+doc), false)
	d.want(d.send("c", false, "/rq 45", 95), false, "Pifia")
	d.want(d.send("c", false, "/ro 2 tn12", 10), false, "éxito")
	d.want(d.send("c", false, "/sistema"), false, "pifia: la del libro → 95", "/ro")

	bad := strings.Replace(doc, `"value":"95"`, `"value":"101"`, 1)
	if bad == doc {
		t.Fatalf("no fumble value in %s", doc)
	}
	d.want(d.send("e", true, "/importar "+bad), true, "«rq»", "No se ha importado nada")
	d.want(d.send("e", false, "/rq 45", 95), false, "Éxito")
}

// In Greek, with the ! prefix: the GM renames RQ's fumble, and /rq says
// the new name; a system the bot does not ship, and a band that has no
// bound, are refused naming why.
func TestForkGreek(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("g", true, "/lang el"), false)
	d.want(d.send("g", true, "!σύστημα αντιγραφή gurps"), true, "«gurps» δεν αντιγράφεται", "zaria, daegon, rq, kh, dh, coc, v5, wfrp, pbta, fate, sw")
	d.want(d.send("g", true, "!σύστημα αντιγραφή rq"), false, "αντίγραφο του συστήματος RQ")
	d.want(d.send("g", true, "!σύστημα αλλαγή rq όνομα γκάφα Καταστροφή"), false, "Γκάφα → Καταστροφή")
	d.want(d.send("g", true, "!σύστημα αλλαγή rq ζώνη αποτυχία 5"), true, "«Αποτυχία» δεν έχει όριο")
	d.want(d.send("g", false, "/rq 45", 100), false, "Καταστροφή")
	d.want(d.send("g", false, "!σύστημα"), false, "Γκάφα → Καταστροφή")
	d.want(d.send("g", false, "!σύστημα αλλαγή rq γκάφα 90"), true, "Μόνο ένας GM")
}

// Daegon's percentage table, one cell changed: NH 7 at D3 is 60 instead
// of 58 in that chat, so a 59 succeeds there and fails elsewhere; the
// reply shows the fork's cell and chance.
func TestForkDaegonTableCell(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar daegon"), false, "copia de Daegon")
	d.want(d.send("a", true, "/sistema editar daegon tabla 7 3 60"), false, "tabla pct 7·3: 58 → 60", "NH 7, dificultad 3: Éxito 60 % en vez de 58 %")
	d.want(d.send("a", true, "/sistema editar daegon tabla 16 3 60"), true, "filas 1–15")
	d.want(d.send("a", true, "/sistema editar daegon tabla 7 3 sesenta"), true, "«sesenta»")
	d.want(d.send("a", false, "/daegon 7 d3", 5, 9), false, "60 %", "Éxito")
	d.want(d.send("b", false, "/daegon 7 d3", 5, 9), false, "58 %", "Fallo")
	d.want(d.send("a", false, "/odds daegon 7 d3"), false, "D3 · difícil: 60 %")
	d.want(d.send("b", false, "/odds daegon 7 d3"), false, "D3 · difícil: 58 %")
}

// Limits: 8 systems of its own a chat (forks and files), an outcome's
// name of 40 characters; each refused with its number.
func TestForkLimits(t *testing.T) {
	d := newForkDesk(t)
	for i := range 8 {
		f := strings.NewReplacer("system: roll_over", fmt.Sprintf("system: ro%d", i), "command: ro", fmt.Sprintf("command: ro%d", i)).Replace(rollOver)
		d.want(d.send("a", true, "/sistema importar\n"+f), false, fmt.Sprintf("/ro%d", i))
	}
	d.want(d.send("a", true, "/sistema copiar rq"), true, "ya tiene 8 sistemas propios")
	d.want(d.send("a", false, "/ro7 2 tn12", 10), false, "éxito")
	d.want(d.send("b", true, "/sistema copiar rq"), false)
	d.want(d.send("b", true, "/sistema editar rq nombre pifia "+strings.Repeat("x", 41)), true, "como mucho 40", "41")
}

// /sistema ver sends the fork as a system file: the fumble range moved and
// the book's examples rewritten, a file zaria system check passes.
func TestForkShowFileChecks(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar rq"), false)
	d.want(d.send("a", true, "/sistema editar rq pifia 95"), false)
	rep := d.send("a", false, "/sistema ver rq")
	d.want(rep, false, "como archivo de sistema", "54 ejemplos")
	if rep.File == nil || !strings.Contains(string(rep.File.Data), "fumble_from") {
		t.Fatalf("no system file: %+v", rep.File)
	}
	path := filepath.Join(t.TempDir(), "rq.yaml")
	if err := os.WriteFile(path, rep.File.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runZaria(t, "system", "check", path)
	if code != 0 || !strings.Contains(out, "54 vectors hold") {
		t.Fatalf("zaria system check: %d %q %q", code, out, errOut)
	}
	d.want(d.send("b", false, "/sistema ver rq"), true, "no tiene una copia")
}

// A fork whose change the shipped file no longer admits (a number a new
// version dropped): the chat's /rq plays the book, and /sistema says so
// with the command that removes it.
func TestForkNoLongerAdmitted(t *testing.T) {
	d := newForkDesk(t)
	d.stop()
	db, err := openDB(context.Background(), d.path)
	if err != nil {
		t.Fatal(err)
	}
	stale := fork.Fork{Key: "rq", Base: "rq", Changes: []fork.Change{{Kind: fork.KindNumber, Key: "gone", Value: "3"}}}
	if err := db.SaveFork(context.Background(), core.ChatRef{Platform: "cli", ID: "a"}, stale, 8); err != nil {
		t.Fatal(err)
	}
	db.Close()
	d.start()
	d.want(d.send("a", false, "/rq 45", 95), false, "Éxito")
	d.want(d.send("a", false, "/sistema"), false, "ya no admite sus cambios", "/sistema original rq")
	d.want(d.send("a", true, "/sistema original rq"), false)
	d.want(d.send("a", false, "/sistema"), false, "juega con los sistemas del libro")
}
