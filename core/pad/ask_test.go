package pad_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/pad"
	"zaria/core/reply"
)

// choose presses the choice labelled label of an asking reply.
func choose(t *testing.T, b *bot, rep *reply.Reply, label string) reply.Action {
	t.Helper()
	for _, bt := range rep.Buttons {
		if bt.Label == label {
			if bt.Kind != reply.ButtonRun || bt.Action == nil || bt.Action.Kind != reply.ActRun {
				t.Fatalf("choice %q is not a run button: %+v", label, bt)
			}
			return *bt.Action
		}
	}
	t.Fatalf("no choice %q in:\n%s", label, reply.PlainText(rep))
	return reply.Action{}
}

func TestAskSketch(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/pj crear Drake")
	b.ok(ana, `/pad add "Ataque" /dh ataque espada-larga vs {objetivo}`)
	b.ok(ana, `/pad add /daegon 7 {dificultad}`)
	b.ok(ana, `/pad add /dh ataque {arma} vs {armadura}`)
	b.ok(ana, "/alias tajo /dh ataque espada-larga vs {1}")
	b.ok(ana, "/pad add /tajo")
	acts := runs(t, b.ok(ana, "/pad"))
	for _, a := range acts {
		rep := b.press(ana, a)
		t.Logf("%s\n%v", reply.PlainText(rep), rep.Buttons)
		if len(rep.Buttons) > 0 {
			c := rep.Buttons[len(rep.Buttons)-1].Action
			rep = b.press(ana, *c)
			t.Logf("→ %s", reply.PlainText(rep))
			if len(rep.Buttons) > 0 {
				rep = b.press(ana, *rep.Buttons[0].Action)
				t.Logf("→ %s", reply.PlainText(rep))
			}
		}
	}
	_ = pad.MaxChoices
	_ = strings.Contains
	_ = context.Background
}
