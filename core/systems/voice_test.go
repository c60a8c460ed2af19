package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// TestNPCTurnHasNoPlayer: issue 36. A player who tries to pass a foe's
// turn was told «lo pasa su jugador o el máster»: a foe has no player.
// The refusal says the GM passes it, or a character's player.
func TestNPCTurnHasNoPlayer(t *testing.T) {
	r := fullBot(t)
	gm := core.Message{Chat: chat, From: core.User{ID: "9", Name: "Eva"}, FromGM: true}
	pl := core.Message{Chat: chat, From: core.User{ID: "2", Name: "Bob"}}
	say := func(m core.Message, text string) *reply.Reply {
		t.Helper()
		m.Text = text
		rep, ok := r.DispatchWith(context.Background(), m, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return rep
	}
	say(pl, "/pj crear Drake")
	say(pl, "/iniciativa 5")
	say(gm, "/iniciativa añadir Lobo 20")
	say(gm, "/iniciativa siguiente")
	rep := say(pl, "/iniciativa siguiente")
	got := reply.PlainText(rep)
	if !rep.Error || strings.Contains(got, "su jugador") || !strings.Contains(got, "Es el turno de Lobo: lo pasa el máster") {
		t.Errorf("Bob passing the wolf's turn: %q", got)
	}
}
