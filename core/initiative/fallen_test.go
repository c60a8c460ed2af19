package initiative_test

import (
	"strings"
	"testing"

	"zaria/core/initiative"
	"zaria/core/reply"
)

func current(rep *reply.Reply) string { return rep.Data["initiative"].(initiative.Data).Current }

// Issue 36, item 2: a fallen combatant (an NPC at 0 hit points in the
// order, a character at 0 on its sheet) keeps its place, shown 💀, and
// its turn is skipped (it was «▶ Lobo — le toca»), until it is healed or
// removed; the end says who fell and who only left (it said «cayeron:
// Drake, Orco 2» of a player who left and an orc healed) and the status
// message keeps the last order without repeating the end.
func TestFallenSkippedAndSummary(t *testing.T) {
	b := open(t)
	b.say(ana, "/pj crear Lyra")
	b.say(ana, "/pj poner pv 10/10")
	b.say(ana, "/init 20")
	b.say(bob, "/init 18")
	b.say(gm, "/init añadir Lobo 15 pv 6")
	b.say(gm, `/init añadir "Orco 2" 10 pv 8`)
	if got := current(b.say(gm, "/init empezar")); got != "Lyra" {
		t.Fatalf("round 1 starts with %s", got)
	}
	b.say(gm, "/init pv Lobo -6")       // falls
	b.say(gm, `/init pv "Orco 2" -8`)   // falls…
	b.say(gm, `/init pv "Orco 2" +3`)   // …and is healed
	b.say(gm, "/pj @Lyra pv -10")       // Lyra falls on her sheet
	rep := b.say(gm, "/init siguiente") // Bob
	if current(rep) != "Bob" {
		t.Fatalf("after Lyra: %s", current(rep))
	}
	rep = b.say(gm, "/init siguiente") // Lobo is skipped
	if got := current(rep); got != "Orco 2" {
		t.Fatalf("after Bob the turn went to %s, want Orco 2 (Lobo has fallen)", got)
	}
	st := reply.PlainText(rep.Status)
	for _, want := range []string{"15 Lobo · 💀", "20 Lyra · ❤️ 0/10 · 💀"} {
		if !strings.Contains(st, want) {
			t.Errorf("the status lacks %q:\n%s", want, st)
		}
	}
	rep = b.say(gm, "/init siguiente") // Lyra is skipped: round 2 starts with Bob
	if got := current(rep); got != "Bob" || !strings.Contains(text(rep), "🔔 Asalto 2") {
		t.Fatalf("after Orco 2: %s\n%s", got, text(rep))
	}
	b.say(ana, "/pj pv +4")      // healed: her turn again
	b.say(gm, "/init siguiente") // Orco 2
	if got := current(b.say(gm, "/init siguiente")); got != "Lyra" {
		t.Fatalf("round 3 starts with %s, want Lyra (healed)", got)
	}
	b.say(bob, "/init quitar Bob") // leaves standing
	end := b.say(gm, "/init fin")
	got := reply.PlainText(end)
	for _, want := range []string{"4 combatientes", "cayeron: Lobo; se fueron: Bob."} {
		if !strings.Contains(got, want) {
			t.Errorf("the end %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "Orco 2") || strings.Contains(got, "Lyra") {
		t.Errorf("the end counts the healed as fallen: %q", got)
	}
	st = reply.PlainText(end.Status)
	if strings.Contains(st, "terminado") || !strings.Contains(st, "15 Lobo · 💀") || len(end.Status.Buttons) != 0 {
		t.Errorf("the ended status repeats the end, or lost the order, or kept its buttons: %q %v", st, end.Status.Buttons)
	}
}

// Issue 36, item 3: /init ver posts the order again at the bottom (the
// status asks to be posted anew, reply.Reply.Post); when a removal passes
// the turn, the next player is told and mentioned, as /init siguiente
// does, past anyone fallen.
func TestShowPostsAndRemovalAnnounces(t *testing.T) {
	b := open(t)
	b.say(ana, "/init 20")
	b.say(gm, "/init añadir Lobo 18 pv 5")
	b.say(bob, "/init 15")
	if rep := b.say(bob, "/init ver"); rep.Status == nil || !rep.Status.Post {
		t.Fatalf("/init ver edits the old status far up: %+v", rep.Status)
	}
	if rep := b.say(gm, "/init siguiente"); rep.Status.Post {
		t.Fatal("every status is posted anew")
	}
	b.say(gm, "/init pv Lobo -5")
	rep := b.say(ana, "/init quitar Ana")
	got := text(rep)
	if !strings.Contains(got, "▶ Bob — te toca, Bob") || len(rep.Mention) != 1 || rep.Mention[0] != bob.ID {
		t.Fatalf("Ana leaves on her turn: %q, mentions %v", got, rep.Mention)
	}
	if rep := b.say(gm, "/init quitar Lobo"); strings.Contains(text(rep), "te toca") {
		t.Fatalf("a removal that does not pass the turn announces it: %q", text(rep))
	}
}

// Issue 36, item 5: a GM's /init empezar (start, έναρξη) starts round 1
// without a character of their own (it was «No tienes personaje
// activo…»); a player is told only the GM may; a fight under way says so.
func TestStartWord(t *testing.T) {
	for _, c := range []struct{ lang, start, started, gmOnly string }{
		{"es", "/iniciativa empezar", "El combate ya empezó: va por el asalto 1", "Solo el máster puede empezar el combate"},
		{"en", "/init start", "The fight has already started: it is round 1", "start the fight"},
		{"el", "/init έναρξη", "Η μάχη έχει ήδη ξεκινήσει: είναι ο γύρος 1", "GM"},
	} {
		b := open(t)
		b.say(gm, "/idioma "+c.lang)
		b.say(ana, "/init 12")
		b.say(gm, "/init add Orc 8")
		if rep := b.say(bob, c.start); !rep.Error || !strings.Contains(text(rep), c.gmOnly) {
			t.Errorf("%s: a player's start: %q", c.lang, text(rep))
		}
		rep := b.say(gm, c.start)
		if rep.Error || current(rep) != "Ana" || rep.Data["initiative"].(initiative.Data).Round != 1 {
			t.Fatalf("%s: the GM's start: %q", c.lang, text(rep))
		}
		if rep := b.say(gm, c.start); !rep.Error || !strings.Contains(text(rep), c.started) {
			t.Errorf("%s: a second start: %q", c.lang, text(rep))
		}
		if n := len(names(b.say(gm, "/init ver"))); n != 2 {
			t.Errorf("%s: the GM joined: %d combatants", c.lang, n)
		}
	}
}

// Issue 36, item 1: a damage roll on a foe of the order by its name, as
// on a sheet: /init pv Lobo -2d6 rolls and shows the roll; the numbers
// stay the GMs'; a word that is no roll is refused as before.
func TestHPRolledOnFoe(t *testing.T) {
	b := open(t)
	b.say(gm, "/init añadir Lobo 12 pv 10")
	rep := b.Say(gm, "/init pv Lobo -2d6", 3, 4)
	if got := text(rep); rep.Error || !strings.Contains(got, "🎲 2d6") || !strings.Contains(got, "🩸 Lobo recibe daño.") {
		t.Fatalf("a rolled hit: %q", got)
	}
	if rep.Secret == nil || reply.PlainText(rep.Secret) != "❤️ Lobo: pv 10 → 3 / 10" {
		t.Fatalf("the GMs see %v", rep.Secret)
	}
	if rep := b.say(gm, "/init pv Lobo -mucho"); !rep.Error || !strings.Contains(text(rep), "no vale como vida") {
		t.Fatalf("-mucho: %q", text(rep))
	}
}
