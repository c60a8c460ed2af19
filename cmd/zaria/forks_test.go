package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
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
	d.want(d.send("a", true, "/sistema editar rq pifia 101"), true, "pifia va de 0 a 100", "No se ha cambiado nada")
	d.want(d.send("a", true, "/sistema editar rq pifia noventa"), true, "«noventa»")
	d.want(d.send("a", true, "/sistema editar rq critico 5"), true, "«critico»")
	rep := d.send("a", true, "/sistema editar rq pifia 95")
	d.want(rep, false, "pifia: la del libro → 95", "habilidad 45, dificultad −30: Pifia 6 % en vez de 2 %",
		"R1 98: Fallo → Pifia", "/sistema deshacer")
	t.Log(reply.PlainText(rep))

	d.want(d.send("a", false, "/rq 45", 95), false, "Pifia", "pifia ≥95")
	d.want(d.send("b", false, "/rq 45", 95), false, "Éxito")
	d.want(d.send("a", false, "/rq 45", 94), false, "Éxito")
	d.want(d.send("a", false, "/sistema"), false, "/rq", "copia de RQ", "pifia: la del libro → 95")
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
