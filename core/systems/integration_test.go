package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

// The Dungeon Hack state lives on a real character sheet: the character
// service on SQLite, the real catalogs and router. A player sets up Enyra,
// fights, breaks DB, repairs (docs/dungeonhack.md#repair) and wears her sword down, and
// /pj shows every change.
func TestDHWithRealSheets(t *testing.T) {
	ctx := context.Background()
	db, svc, cat := systems.ServicesForTest(t, chattest.Options{})
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db, Sheets: svc.Sheets, Limits: command.Limits{Burst: 1 << 20}})
	svc.Register(r)
	systems.Register(r)

	ana := core.User{ID: "1", Name: "Ana"}
	bob := core.User{ID: "2", Name: "Bob"}
	send := func(u core.User, text string, faces ...int) (string, *reply.Reply) {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: u, Text: text}, dice.NewScripted(faces))
		if !ok {
			t.Fatalf("%q not handled", text)
		}
		return reply.PlainText(rep), rep
	}
	ok := func(u core.User, text string, faces ...int) string {
		t.Helper()
		out, rep := send(u, text, faces...)
		if rep.Error {
			t.Fatalf("%q: %s", text, out)
		}
		return out
	}
	has := func(out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%q lacks %q", out, w)
			}
		}
	}

	ok(ana, "/pj crear Enyra dh")
	ok(ana, "/pj set arma espada-larga")
	ok(ana, "/pj set armadura coraza")
	ok(bob, "/pj crear Drake dh")
	ok(bob, "/pj set armadura pieles")
	ok(bob, "/pj set dado-db d4")

	// Enyra's sword against Drake's sheet armour.
	has(ok(ana, "/dh ataque vs @Drake", 8, 1, 2), "Espada larga 1d8 (pen 1) vs Drake (armadura de pieles) 2 DB d4", "8 − 3 = 5")
	// Enyra breaks two DB, then repairs: H8's dice 2 and 4.
	has(ok(ana, "/dh rompe pen1"), "Coraza: DB intactos 2, rotos 1.")
	has(ok(ana, "/dh rompe pen1"), "Coraza: DB intactos 1, rotos 2.")
	has(ok(ana, "/dh repara", 2, 4), "Coraza: 3 DB, 2 rotos", "1 reparado, 1 perdido", "Coraza: ahora tiene 2 DB.")
	// Her weapon's usage die steps down and is stored.
	has(ok(ana, "/dh uso", 1), "Espada larga · 🎲 d8 → 1", "uso-arma = d6")
	has(ok(ana, "/dh uso", 2), "🎲 d6 → 2", "uso-arma = d4")
	sheet := ok(ana, "/pj")
	has(sheet, "db 2", "db-rotos 0", "uso-arma d4")
	// Bob cannot break Enyra's armour: the roll is answered, the sheet is not his.
	out, rep := send(bob, "/dh rompe @Enyra pen1")
	if rep.Error || !strings.Contains(out, "1 de daño") {
		t.Errorf("bob breaking for Enyra: %s", out)
	}
	if !strings.Contains(ok(ana, "/pj"), "db 2") {
		t.Errorf("Bob changed Enyra's sheet")
	}
	// RQ and Ζαριά read the same sheets.
	ok(ana, "/pj set espadas 45")
	has(ok(ana, "/rq espadas normal", 7), "vs 65 (50 + espadas 45 − 30 normal)")
	has(ok(ana, "/rq @Enyra espadas vs @Drake 40", 60), "vs 55 (50 + espadas 45 − 40)")
}

// TestDHDamageButton: "/dh ataque … vs @Drake" against a sheet with hit
// points carries a button "Aplicar N de daño a Drake"; its press (the
// Action as stored and read back) takes the damage from Drake's hit
// points as "/pj @Drake pv -N" does, for Drake's owner or a GM; anyone
// else is refused and nothing changes; a second press of the same button
// says it was applied; the roll history records it, once and as that
// command. A defender without
// hit points gets no button.
func TestDHDamageButton(t *testing.T) {
	ctx := context.Background()
	db, svc, cat := systems.ServicesForTest(t, chattest.Options{})
	r := command.New(svc.Config(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db, Limits: command.Limits{Burst: 1 << 20}}))
	svc.Register(r)
	systems.Register(r)

	ana := core.User{ID: "1", Name: "Ana"}
	bob := core.User{ID: "2", Name: "Bob"}
	carol := core.User{ID: "3", Name: "Carol"}
	send := func(u core.User, text string, faces ...int) *reply.Reply {
		t.Helper()
		rep, ok := r.DispatchWith(ctx, core.Message{Chat: chat, From: u, Text: text}, dice.NewScripted(faces))
		if !ok || rep.Error {
			t.Fatalf("%q: %s", text, reply.PlainText(rep))
		}
		return rep
	}
	press := func(u core.User, gm bool, b reply.Button) string {
		t.Helper()
		a, err := reply.DecodeAction(b.Action.Encode()) // as an adapter keeps it
		if err != nil {
			t.Fatal(err)
		}
		rep, ok := r.Press(ctx, core.Message{Chat: chat, From: u, FromGM: gm}, a)
		if !ok {
			t.Fatalf("%s's press not answered", u.Name)
		}
		return reply.PlainText(rep)
	}
	damageButton := func(rep *reply.Reply) (reply.Button, bool) {
		for _, b := range rep.Buttons {
			if b.Action != nil && b.Action.Kind == reply.ActDamage {
				return b, true
			}
		}
		return reply.Button{}, false
	}
	hp := func() string {
		t.Helper()
		out := reply.PlainText(send(bob, "/pj Drake"))
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "pv") {
				return strings.TrimSpace(l)
			}
		}
		return out
	}

	send(ana, "/pj crear Enyra dh")
	send(ana, "/pj set arma espada-larga")
	send(ana, "/pj set armadura coraza")
	send(bob, "/pj crear Drake dh")
	send(bob, "/pj set armadura pieles")
	send(bob, "/pj set dado-db d4")
	send(bob, "/pj set pv 12/12")

	attack := send(ana, "/dh ataque vs @Drake", 8, 1, 2) // 8 − 3 = 5
	b, ok := damageButton(attack)
	if !ok || b.Label != "🩸 Aplicar 5 de daño a Drake" {
		t.Fatalf("the attack's buttons: %+v, want 🩸 Aplicar 5 de daño a Drake", attack.Buttons)
	}
	if out := press(carol, false, b); !strings.Contains(out, "Solo quien creó el personaje Drake") {
		t.Errorf("Carol's press: %q, want a refusal", out)
	}
	if got := hp(); !strings.Contains(got, "12/12") {
		t.Errorf("after Carol's press Drake has %q, want 12/12", got)
	}
	if out := press(bob, false, b); out != "❤️ Drake: pv 12 → 7 / 12" {
		t.Errorf("Bob's press: %q", out)
	}
	if out := press(ana, true, b); out != "⚠️ Este daño (5) ya se aplicó a Drake." {
		t.Errorf("a second press: %q", out)
	}
	if got := hp(); !strings.Contains(got, "7/12") {
		t.Errorf("after two presses Drake has %q, want 7/12", got)
	}
	// A GM applies the next hit; hit points stop at 0.
	for i, want := range []string{"❤️ Drake: pv 7 → 2 / 12", "❤️ Drake: pv 2 → 0 / 12"} {
		b, ok := damageButton(send(ana, "/dh ataque vs @Drake", 8, 1, 2))
		if !ok {
			t.Fatalf("attack %d has no damage button", i+2)
		}
		if out := press(carol, true, b); out != want {
			t.Errorf("the GM's press %d: %q, want %q", i+1, out, want)
		}
	}
	hist := reply.PlainText(send(carol, "/historial"))
	// A press is logged once, as the command it stands for: never as a
	// roll without a command (the pad tray would offer it as a button
	// with no text, which Telegram refuses with the whole message).
	if strings.Contains(hist, ":  → ") || strings.Count(hist, "pv -5") != 3 {
		t.Errorf("/historial has a press logged without its command, or twice:\n%s", hist)
	}
	for _, want := range []string{"Bob: /pj @Drake pv -5", "❤️ Drake: pv 12 → 7 / 12", "Carol: /pj @Drake pv -5"} {
		if !strings.Contains(hist, want) {
			t.Errorf("/historial lacks %q:\n%s", want, hist)
		}
	}
	// More than a sheet value can take: no change.
	big := reply.Button{Action: &reply.Action{Kind: reply.ActDamage, Character: "Drake", Amount: 1_000_001, Once: "f00d"}}
	if out := press(bob, false, big); !strings.Contains(out, "Este botón ya no sirve") {
		t.Errorf("a damage of 1,000,001: %q", out)
	}
	// Enyra's sheet has no hit points: nothing to apply.
	if b, ok := damageButton(send(bob, "/dh ataque 1d8 vs @Enyra", 8, 1, 1, 1, 1, 1, 1)); ok {
		t.Errorf("an attack on Enyra (no pv) offers %q", b.Label)
	}
}
