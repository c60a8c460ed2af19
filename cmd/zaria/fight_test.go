package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/storage/sqlite"
)

// evening is a chat played through the real router on a real SQLite file,
// which it can close and open again (a restart).
type evening struct {
	t    *testing.T
	path string
	db   *sqlite.DB
	r    *command.Router
	seed uint64
}

func openTable(t *testing.T) *evening {
	tb := &evening{t: t, path: filepath.Join(t.TempDir(), "zaria.db")}
	tb.open()
	t.Cleanup(func() { tb.db.Close() })
	return tb
}

func (tb *evening) open() {
	tb.t.Helper()
	db, err := openDB(context.Background(), tb.path)
	if err != nil {
		tb.t.Fatal(err)
	}
	r, err := newRouter("es", nil, "", db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.db, tb.r = db, r
}

// restart closes the database and opens it again with a new router, as a
// restarted bot does.
func (tb *evening) restart() {
	tb.t.Helper()
	if err := tb.db.Close(); err != nil {
		tb.t.Fatal(err)
	}
	tb.open()
}

type player struct {
	id, name string
	gm       bool
}

var (
	gmP  = player{"gm", "Gema", true}
	ana  = player{"u1", "Ana", false}
	bob  = player{"u2", "Bob", false}
	cris = player{"u3", "Cris", false}
)

func (tb *evening) msg(chat core.ChatRef, p player, text string) core.Message {
	return core.Message{Chat: chat, From: core.User{ID: p.id, Name: p.name}, Text: text, FromGM: p.gm}
}

// say sends text and returns the reply, which must not be an error.
func (tb *evening) say(chat core.ChatRef, p player, text string) *reply.Reply {
	tb.t.Helper()
	rep := tb.try(chat, p, text)
	if rep.Error {
		tb.t.Fatalf("%s: %q: %s", p.name, text, reply.PlainText(rep))
	}
	return rep
}

// try sends text and returns the reply, error or not.
func (tb *evening) try(chat core.ChatRef, p player, text string) *reply.Reply {
	tb.t.Helper()
	tb.seed++
	rep, ok := tb.r.DispatchWith(context.Background(), tb.msg(chat, p, text), dice.Seeded(tb.seed))
	if !ok {
		tb.t.Fatalf("%q not answered", text)
	}
	return rep
}

// press presses a button of the status message.
func (tb *evening) press(chat core.ChatRef, p player, rep *reply.Reply, label string) *reply.Reply {
	tb.t.Helper()
	if rep.Status == nil {
		tb.t.Fatalf("no status message in %q", reply.PlainText(rep))
	}
	for _, b := range rep.Status.Buttons {
		if strings.Contains(b.Label, label) && b.Action != nil {
			out, ok := tb.r.Press(context.Background(), tb.msg(chat, p, ""), *b.Action)
			if !ok {
				tb.t.Fatalf("press %q: nothing", label)
			}
			return out
		}
	}
	tb.t.Fatalf("no button %q", label)
	return nil
}

// order is the turn order a reply carries (what --json prints).
func order(t *testing.T, rep *reply.Reply) initiative.Data {
	t.Helper()
	d, ok := rep.Data["initiative"].(initiative.Data)
	if !ok {
		t.Fatalf("no turn order in %q", reply.PlainText(rep))
	}
	return d
}

func has(t *testing.T, rep *reply.Reply, want ...string) {
	t.Helper()
	text := reply.PlainText(rep)
	if rep.Secret != nil {
		text += "\n" + reply.PlainText(rep.Secret) // what the GM sees privately
	}
	if rep.Status != nil {
		text += "\n" + reply.PlainText(rep.Status)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("reply %q lacks %q", text, w)
		}
	}
}

// An evening, as the group played it: a GM and three players join
// with two orcs, five rounds pass with hit points lost, an orc that falls
// and is skipped, and a stun that wears off, the bot restarts in the middle, the chat is exported and
// imported into another with the fight open, the Telegram group becomes a
// supergroup, the GM ends the fight by mistake and undoes it.
func TestFightEvening(t *testing.T) {
	tb := openTable(t)
	chat := core.ChatRef{Platform: "console", ID: "mesa"}

	tb.say(chat, gmP, "/ajustes iniciativa 1d20+destreza")
	for _, p := range []struct {
		who  player
		name string
		dex  int
	}{{ana, "Lyra", 3}, {bob, "Drake", 1}, {cris, "Mira", 2}} {
		tb.say(chat, p.who, "/pj crear "+p.name)
		rep := tb.say(chat, p.who, fmt.Sprintf("/pj poner destreza %d pv 12/12 notas \"debe 5 monedas\"", p.dex))
		has(t, rep, p.name+" (3 valores)", "pv = 12/12", "notas = debe 5 monedas")
	}
	// A player may not add foes, nor end the fight.
	has(t, tb.try(chat, ana, "/init añadir Orco 2d6+1"), "Solo el máster puede añadir combatientes")

	rep := tb.say(chat, ana, "/init")
	has(t, rep, "🎲 1d20+destreza", "Lyra entra con iniciativa")
	tb.say(chat, bob, "/iniciativa")
	tb.say(chat, cris, "/init 14")
	tb.say(chat, gmP, "/init añadir Orco 2d6+1")
	rep = tb.say(chat, gmP, `/init añadir "Orco 2" 12 pv 15`)
	o := order(t, rep)
	if len(o.Combatants) != 5 || o.Round != 0 {
		t.Fatalf("after the joins: %+v", o)
	}
	for i := 1; i < len(o.Combatants); i++ {
		if o.Combatants[i].Init > o.Combatants[i-1].Init {
			t.Fatalf("not highest first: %+v", o.Combatants)
		}
	}
	has(t, tb.try(chat, ana, "/init fin"), "Solo el máster puede terminar el combate")

	// Mira is stunned for 2 rounds: her turn in round 1 counts one, her
	// turn in round 2 ends it.
	has(t, tb.say(chat, cris, "/pj estado +aturdido 2"), "Mira: aturdido durante 2 asaltos")
	has(t, tb.say(chat, ana, "/pj pv -3"), "❤️ Lyra: pv 12 → 9 / 12")
	has(t, tb.say(chat, gmP, "/pj @Drake pv -7"), "❤️ Drake: pv 12 → 5 / 12")
	has(t, tb.try(chat, bob, "/pj @Lyra pv -7"), "Lyra")
	if rep := tb.try(chat, bob, "/pj @Lyra pv -7"); !rep.Error {
		t.Fatalf("Bob changed Lyra's hit points: %q", reply.PlainText(rep))
	}

	status := rep
	expired := false
	var prev initiative.Data
	turns := 0
	for round := 1; round <= 5; round++ {
		// Orco 2 falls at the end of round 2: from round 3 its turn is
		// skipped (issue 36), four turns a round.
		perRound := 5
		if round > 2 {
			perRound = 4
		}
		for range perRound {
			turns++
			// Half the turns by the ▶ button, half typed.
			var next *reply.Reply
			if turns%2 == 0 {
				next = tb.press(chat, gmP, status, "Siguiente")
			} else {
				next = tb.say(chat, gmP, "/init siguiente")
			}
			if next.Error {
				t.Fatalf("next: %s", reply.PlainText(next))
			}
			o := order(t, next)
			if o.Round != round {
				t.Fatalf("turn %d: round %d, want %d", turns, o.Round, round)
			}
			if strings.Contains(reply.PlainText(next), "Mira: se acaba el estado «aturdido»") {
				// Stunned for 2 rounds in round 1: the end of her turn in
				// round 1 counts one, the end of her turn in round 2 the other.
				if prev.Round != 2 || prev.Current != "Mira" {
					t.Fatalf("the stun ended after %s's turn in round %d", prev.Current, prev.Round)
				}
				expired = true
			}
			prev = o
			if round > 2 && o.Current == "Orco 2" {
				t.Fatalf("turn %d: the fallen Orco 2 has the turn", turns)
			}
			if o.Current == "Lyra" {
				has(t, next, "▶ Lyra — te toca, Ana")
				if len(next.Mention) != 1 || next.Mention[0] != ana.id {
					t.Fatalf("Lyra's turn mentions %v", next.Mention)
				}
				// Whose turn it is may pass it; another player may not.
				has(t, tb.try(chat, bob, "/init siguiente"), "Es el turno de Lyra")
			}
			status = next
			if round == 3 && turns == 11 {
				tb.restart()
				rep := tb.say(chat, ana, "/init ver")
				if got := order(t, rep); got.Round != 3 || got.Current != o.Current || len(got.Combatants) != 5 {
					t.Fatalf("after a restart: %+v, was %+v", got, o)
				}
				status = rep
			}
		}
		if round == 2 {
			has(t, tb.try(chat, gmP, "/init pv Orco -20"), "Orco no tiene vida apuntada")
			has(t, tb.say(chat, gmP, "/init pv Orco 10"), "❤️ Orco: pv 0 → 10 / 10")
			has(t, tb.say(chat, gmP, "/init pv Orco -4"), "❤️ Orco: pv 10 → 6 / 10")
			down := tb.say(chat, gmP, `/init pv "Orco 2" -20`)
			has(t, down, "❤️ Orco 2: pv 15 → 0 / 15")
			// The table sees that it fell, never its numbers.
			if pub := reply.PlainText(down); !strings.Contains(pub, "💀 Orco 2 cae") || strings.Contains(pub, "15") {
				t.Fatalf("the chat sees %q", pub)
			}
		}
	}
	if !expired {
		t.Fatal("Mira's stun never ended")
	}
	if v := order(t, tb.say(chat, ana, "/init ver")); len(v.Combatants[0].Conditions) != 0 && v.Combatants[0].Name == "Mira" {
		t.Fatalf("Mira still stunned: %+v", v)
	}

	// Export and import into another chat, with the fight open.
	exp := tb.say(chat, gmP, "/exportar")
	if exp.File == nil || !strings.Contains(string(exp.File.Data), `"initiative"`) {
		t.Fatalf("the export has no turn order")
	}
	other := core.ChatRef{Platform: "console", ID: "otra"}
	tb.say(other, gmP, "/importar "+string(exp.File.Data))
	a, b := order(t, tb.say(chat, gmP, "/init ver")), order(t, tb.say(other, gmP, "/init ver"))
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("imported order\n%s\nwant\n%s", jb, ja)
	}
	// The imported chat plays on, in Greek, with Matrix's "!".
	tb.say(other, gmP, "/idioma el")
	has(t, tb.say(other, gmP, "!πρωτοβουλία επόμενος"), "Πρωτοβουλία · γύρος")

	// The group becomes a supergroup: the fight goes with it.
	super := core.ChatRef{Platform: "console", ID: "mesa-super"}
	if _, err := tb.db.MoveChat(context.Background(), chat, super, nil); err != nil {
		t.Fatal(err)
	}
	has(t, tb.try(chat, gmP, "/init ver"), "No hay ningún combate en marcha")
	moved := order(t, tb.say(super, gmP, "/init ver"))
	if mj, _ := json.Marshal(moved); string(mj) != string(ja) {
		t.Fatalf("moved order %s, want %s", mj, ja)
	}

	// Ended by mistake, then undone; then ended for good.
	end := tb.say(super, gmP, "/init fin")
	has(t, end, "Fin del combate tras el asalto 5", "cayeron: ")
	has(t, end, "Orco 2")
	has(t, tb.try(super, ana, "/init siguiente"), "No hay ningún combate")
	has(t, tb.say(super, gmP, "/init deshacer"), "El combate sigue donde estaba")
	if o := order(t, tb.say(super, gmP, "/init ver")); o.Round != 5 || len(o.Combatants) != 5 {
		t.Fatalf("undone: %+v", o)
	}
	tb.press(super, gmP, tb.say(super, gmP, "/init ver"), "Fin")
	has(t, tb.try(super, gmP, "/init deshacer"), "El combate sigue")

	// A typo deletes Lyra: the undo brings her back whole.
	has(t, tb.say(super, ana, "/pj borrar Lyra"), "/pj deshacer lo recupera durante 15 minutos")
	has(t, tb.try(super, bob, "/pj deshacer"), "No hay nada que deshacer")
	has(t, tb.say(super, ana, "/pj deshacer"), "Lyra ha vuelto, con 3 valores")
	has(t, tb.say(super, ana, "/pj"), "destreza 3", "pv 9/12", "notas debe 5 monedas")
}
