package sheet_test

import (
	"testing"
	"zaria/core/general"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

// The acceptance path with the real Ζαριά command: a user creates a
// character, sets stats in Spanish, rolls /zaria fuerza+atletismo dc15 with
// them (dice 3, 8 → Z 5, total 11, failure: the first example of docs/zaria.md), another
// user cannot edit it, and the roll is in the history.
func TestZariaRollReadsTheSheet(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	// Every command of the bot together: no alias is taken twice.
	general.Register(h.R, general.Options{Version: "test"})
	systems.Register(h.R)
	h.OK(chatA, ana, false, "/pj crear Drake zaria")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/pj set atletismo 2")
	out, rep := h.Send(chatA, ana, false, "/zaria fuerza+atletismo dc15", 3, 8)
	if rep.Error || rep.Check == nil {
		t.Fatalf("zaria: %s", out)
	}
	if rep.Check.Outcome != "failure" || rep.Check.Total == nil || *rep.Check.Total != 11 {
		t.Fatalf("check = %+v (total %v): %s", rep.Check, rep.Check.Total, out)
	}
	contains(t, out, "11")
	// Another character of the chat by name, as a GM rolling for an NPC.
	h.OK(chatA, bob, false, "/pj crear Orco")
	h.OK(chatA, bob, false, "/pj set fuerza 6")
	h.OK(chatA, bob, false, "/pj set atletismo 0")
	_, rep = h.Send(chatA, admin, true, "/zaria @Orco fuerza+atletismo dc15", 10, 10)
	if rep.Error || rep.Check == nil || *rep.Check.Total != 16 {
		t.Fatalf("zaria @Orco: %+v", rep.Check)
	}
	h.Fails(chatA, ana, false, "/zaria fuerzza+atletismo dc15", "Did you mean fuerza?")
	h.Fails(chatA, bob, false, "/pj set @Drake fuerza 9", "Only Ana")
	contains(t, h.OK(chatA, bob, false, "/historial"), "Ana: /zaria fuerza+atletismo dc15")
	// /help lists and explains the commands of this package.
	contains(t, h.OK(chatA, ana, false, "/help"), "/pj", "/gm", "/historial", "/stats", "/exportar", "/importar", "/alias")
	contains(t, h.OK(chatA, ana, false, "/help pj"), "/pj create Drake")
}
