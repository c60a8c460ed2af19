package session_test

import (
	"context"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/session"
	"zaria/internal/chattest"
)

// openFight is open with sheets and the turn order, as main wires them.
func openFight(t *testing.T) *bot {
	t.Helper()
	b := newBot(t)
	sess := session.New(b.db, session.Options{Now: b.now})
	svc := chattest.NewServices(b.db, chattest.Options{})
	b.R = command.New(svc.Config(command.Config{DefaultLang: "es", Translator: chattest.Catalog(t), Settings: b.db, GMs: b.db,
		Unlimited: []string{"test"}, Observers: []command.Observer{sess}}))
	roll.Register(b.R)
	svc.Register(b.R)
	initiative.Register(b.R, initiative.New(b.db, initiative.Options{ActiveName: b.db.ActiveCharacterName, Fighters: svc.Sheets, Now: b.now}))
	session.Register(b.R, sess)
	general.Register(b.R, general.Options{Version: "test"})
	return b
}

// press presses a status message's button as u.
func (b *bot) press(u core.User, kind reply.ActionKind) {
	b.T.Helper()
	rep, ok := b.R.Press(context.Background(), core.Message{Chat: here, From: u, FromGM: u == gm}, reply.Action{Kind: kind})
	if !ok || rep.Error {
		b.T.Fatalf("press %s: %v %s", kind, ok, reply.PlainText(rep))
	}
	b.clock = b.clock.Add(5 * time.Minute)
}

// The fight is in the session's log, in the chat's local time: who joined
// the turn order and with what, each turn and round (typed or pressed ▶),
// hit points and conditions changed (old → new), and the end with its
// summary. An NPC's hit points are the GMs': the chat's file has what
// the chat saw (hurt), the GMs' copy the numbers.
func TestSessionLogsTheFight(t *testing.T) {
	b := openFight(t)
	b.ok(ana, "/pj crear Lyra")
	b.ok(ana, "/pj poner pv 12/12")
	b.ok(gm, "/sesion empezar Emboscada")
	b.ok(ana, "/iniciativa 15")
	b.ok(gm, "/iniciativa añadir Orco 8 pv 10")
	b.ok(gm, "/iniciativa siguiente")
	b.ok(ana, "/pj pv -3")
	b.ok(ana, "/pj estado +envenenado")
	b.ok(ana, "/roll 1d20+2")
	b.press(gm, initiative.ActNext)
	b.ok(gm, "/iniciativa pv Orco -4")
	b.ok(gm, "/iniciativa siguiente")
	b.ok(gm, "/iniciativa ver") // nothing happened: not logged
	b.ok(gm, "/iniciativa fin")
	// The counts are of rolls: one /roll; the fight's eight other
	// entries (a typed initiative rolls nothing) are in the log, not in
	// the count.
	has(t, reply.PlainText(b.ok(gm, "/sesion terminar")), "«Emboscada» terminada: 1 h 0 min, 1 tirada.")
	rep := b.ok(ana, "/sesion")
	has(t, reply.PlainText(rep), "Registro de «Emboscada»: 1 tirada.", "La copia con la vida y los estados de los PNJ va en privado a los másteres.")
	pub := string(rep.File.Data)
	has(t, pub, "🎲 1 tirada · Ana 1\n", "**21:20 · Ana** — `/iniciativa 15`", "> ⚔️ Lyra entra con iniciativa 15.",
		"> ⚔️ Orco se une con iniciativa 8.",
		"> 🔔 Asalto 1", "> ▶ Lyra — te toca, Ana",
		"**21:35 · Ana** — `/pj pv -3`", "> ❤️ Lyra: pv 12 → 9 / 12",
		"> 🌀 Lyra: envenenado",
		"**21:50 · Eva**\n> ▶ Orco — le toca", // pressed ▶: no command, what it did
		"> 🩸 Orco recibe daño.",
		"> 🔔 Asalto 2",
		"> ⏹ Fin del combate tras el asalto 2: 2 combatientes")
	lacks(t, pub, "pv 10 → 6", "Asalto 3", "/iniciativa ver", "/pj crear")
	if rep.Secret == nil || rep.Secret.File == nil {
		t.Fatalf("no GMs' copy with the NPC's hit points")
	}
	has(t, string(rep.Secret.File.Data), "🔒 ❤️ Orco: pv 10 → 6 / 10")

	// HTML: the pressed ▶ has no command to show.
	b.ok(gm, "/sesion formato html")
	page := string(b.ok(ana, "/sesion").File.Data)
	has(t, page, "<b>Eva</b><pre>▶ Orco — le toca</pre>", "<b>Ana</b> — <code>/pj pv -3</code><pre>❤️ Lyra: pv 12 → 9 / 12</pre>")
}

// The same in Greek, in Athens' time.
func TestSessionLogsTheFightInGreek(t *testing.T) {
	b := openFight(t)
	b.ok(gm, "/lang el")
	b.ok(ana, "!χαρ δημιουργία Λύρα")
	b.ok(ana, "!χαρ όρισε ζωή 12/12")
	b.ok(gm, "!συνεδρία έναρξη Ενέδρα")
	b.ok(ana, "!πρωτοβουλία 15")
	b.ok(gm, "!πρωτοβουλία επόμενη")
	b.ok(ana, "!χαρ ζωή -3")
	b.ok(gm, "!πρωτοβουλία τέλος")
	b.ok(gm, "!συνεδρία τέλος")
	data := string(b.ok(ana, "/session").File.Data)
	has(t, data, "**22:25 · Ana** — `!πρωτοβουλία 15`", "> ⚔️ Μπαίνει: Λύρα, με πρωτοβουλία 15.",
		"> 🔔 Γύρος 1", "> ▶ Λύρα — σειρά σου, Ana",
		"`!χαρ ζωή -3`", "> ❤️ Λύρα: ζωή 12 → 9 / 12", "> ⏹ Τέλος μάχης στον γύρο 1")
}
