package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

// Issue 36, item 1: a foe of the turn order is a target of an attack by
// its name, with or without "@" (it was «No hay ningún personaje
// «Lobo»»): its armour is typed after its name, and the attack carries
// the one-press 🩸 that takes the damage from the hit points the order
// keeps, with /init pv's rights (the GM; a player is refused and nothing
// changes), once; the status message shows the wolf hurt, then fallen,
// and /historial records the press as the command it is. A character of
// the order is still hit on its sheet.
func TestDHAttackOnCombatant(t *testing.T) {
	ctx := context.Background()
	db, svc, cat := systems.ServicesForTest(t, chattest.Options{})
	r := command.New(svc.Config(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db,
		Limits: command.Limits{Burst: 1 << 20}}))
	svc.Register(r)
	roll.Register(r)
	systems.Register(r)
	initiative.Register(r, initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName, Fighters: svc.Sheets}))

	ana := core.User{ID: "1", Name: "Ana"}
	bob := core.User{ID: "2", Name: "Bob"}
	gm := core.User{ID: "9", Name: "Gema"}
	send := func(u core.User, text string, faces ...int) *reply.Reply {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: u, FromGM: u == gm, Text: text}, dice.NewScripted(faces))
		if !ok || rep.Error {
			t.Fatalf("%q: %s", text, reply.PlainText(rep))
		}
		return rep
	}
	press := func(u core.User, b reply.Button) *reply.Reply {
		t.Helper()
		a, err := reply.DecodeAction(b.Action.Encode()) // as an adapter keeps it
		if err != nil {
			t.Fatal(err)
		}
		rep, ok := r.Press(ctx, core.Message{Chat: chat, From: u, FromGM: u == gm}, a)
		if !ok {
			t.Fatalf("%s's press not answered", u.Name)
		}
		return rep
	}
	hitButton := func(rep *reply.Reply) reply.Button {
		t.Helper()
		for _, b := range rep.Buttons {
			if b.Action != nil && (b.Action.Kind == reply.ActHit || b.Action.Kind == reply.ActDamage) {
				return b
			}
		}
		t.Fatalf("no 🩸 under %q", reply.PlainText(rep))
		return reply.Button{}
	}
	status := func(rep *reply.Reply) string {
		t.Helper()
		if rep.Status == nil {
			t.Fatalf("no status under %q", reply.PlainText(rep))
		}
		return reply.PlainText(rep.Status)
	}

	send(ana, "/pj crear Enyra dh")
	send(ana, "/pj poner arma espada-larga")
	send(ana, "/pj poner pv 12/12")
	send(bob, "/pj crear Drake dh")
	send(bob, "/pj poner armadura pieles")
	send(bob, "/pj poner pv 12/12")
	send(ana, "/init 15")
	send(bob, "/init 14")
	send(gm, "/init añadir Lobo 12 pv 10")
	send(gm, "/init empezar")

	// By name with "@", in leather: 6 − 1 absorbed = 5.
	attack := send(ana, "/dh ataque vs @Lobo cuero", 6, 1)
	chattest.Has(t, reply.PlainText(attack), "vs Lobo armadura de cuero", "5 de daño")
	b := hitButton(attack)
	if b.Label != "🩸 Aplicar 5 de daño a Lobo" || b.Action.Kind != reply.ActHit {
		t.Fatalf("the button: %q (%s)", b.Label, b.Action.Kind)
	}
	if out := press(bob, b); !out.Error || !strings.Contains(reply.PlainText(out), "Solo el máster puede cambiar la vida de un PNJ") {
		t.Fatalf("Bob's press: %q", reply.PlainText(out))
	}
	out := press(gm, b)
	if reply.PlainText(out) != "🩸 Lobo recibe daño." || out.Secret == nil || reply.PlainText(out.Secret) != "❤️ Lobo: pv 10 → 5 / 10" {
		t.Fatalf("the GM's press: %q (GMs: %v)", reply.PlainText(out), out.Secret)
	}
	chattest.Has(t, status(out), "12 Lobo · 🩸")
	if again := press(gm, b); !again.Error || reply.PlainText(again) != "⚠️ Este daño (5) ya se aplicó a Lobo." {
		t.Fatalf("a second press: %q", reply.PlainText(again))
	}
	// By its bare name, no armour: 8 − 0 = 8, and the wolf falls.
	attack = send(ana, "/dh ataque contra Lobo", 8)
	out = press(gm, hitButton(attack))
	if reply.PlainText(out) != "💀 Lobo cae." || !strings.Contains(status(out), "12 Lobo · 💀") {
		t.Fatalf("the second hit: %q\n%s", reply.PlainText(out), status(out))
	}
	if o := out.Data["initiative"].(initiative.Data); len(o.Fallen) != 1 || o.Fallen[0] != "Lobo" {
		t.Fatalf("fallen: %v", o.Fallen)
	}
	chattest.Has(t, reply.PlainText(send(gm, "/historial")), "Gema: /init pv Lobo -5", "Gema: /init pv Lobo -8")
	// A name with a space, quoted or not.
	send(gm, `/init añadir "Orco 2" 10 pv 8`)
	for _, typed := range []string{`"Orco 2"`, "«Orco 2» cuero", "Orco 2"} {
		if b := hitButton(send(ana, "/dh ataque contra "+typed, 6, 1)); b.Action.Kind != reply.ActHit || b.Action.Character != "Orco 2" {
			t.Errorf("an attack on %s: %+v", typed, b.Action)
		}
	}
	// A typo in a foe's name asks whether that one was meant, and rolls nothing.
	for _, typed := range []string{"Lobos", "@Lobos cuero"} {
		rep, _ := r.DispatchWith(ctx, core.Message{Chat: chat, From: ana, Text: "/dh ataque contra " + typed}, dice.NewScripted([]int{8}))
		if got := reply.PlainText(rep); !rep.Error || !strings.Contains(got, "¿Quisiste decir Lobo?") {
			t.Errorf("an attack on %s: %q", typed, got)
		}
	}
	// A damage roll on a foe by its name, as on a character: the order's
	// hit points, with /init pv's rights.
	send(gm, "/init añadir Trasgo 5 pv 6")
	out = send(gm, "/pj @Trasgo pv -1d4", 3)
	if got := reply.PlainText(out); !strings.Contains(got, "🎲 1d4") || !strings.Contains(got, "🩸 Trasgo recibe daño.") ||
		out.Secret == nil || reply.PlainText(out.Secret) != "❤️ Trasgo: pv 6 → 3 / 6" {
		t.Errorf("/pj @Trasgo pv -1d4: %q (GMs: %v)", got, out.Secret)
	}
	if rep, _ := r.DispatchWith(ctx, core.Message{Chat: chat, From: bob, Text: "/pj @Trasgo pv -3"}, dice.NewScripted(nil)); !rep.Error ||
		!strings.Contains(reply.PlainText(rep), "Solo el máster") {
		t.Errorf("Bob's /pj @Trasgo pv -3: %q", reply.PlainText(rep))
	}
	// A character of the order, by its bare name: its sheet, as with "@".
	b = hitButton(send(ana, "/dh ataque contra Drake", 8, 1, 1))
	if b.Action.Kind != reply.ActDamage || b.Action.Character != "Drake" {
		t.Fatalf("an attack on Drake: %+v", b.Action)
	}
	chattest.Has(t, reply.PlainText(press(bob, b)), "❤️ Drake: pv 12 →")
}
