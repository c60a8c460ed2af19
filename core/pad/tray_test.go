package pad_test

import (
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/pad"
	"zaria/core/reply"
)

// A player with no buttons gets a tray on /botones: the standard dice and
// the rolls they made most here, each pressed as theirs; a forged tray
// press runs nothing; a button of their own replaces the tray.
func TestTrayWithoutSetUp(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "tray.db"))
	for range 3 {
		b.ok(ana, "/roll 2d6+1")
	}
	b.ok(ana, "/roll 1d8")
	rep := b.ok(ana, "/botones")
	var labels []string
	var d20, mine *reply.Action
	for _, btn := range rep.Buttons {
		labels = append(labels, btn.Label)
		if btn.Kind != reply.ButtonPress || btn.Action == nil || btn.Action.Kind != pad.ActTray {
			t.Fatalf("tray button %+v", btn)
		}
		switch btn.Action.Command {
		case "/roll d20":
			d20 = btn.Action
		case "/roll 2d6+1":
			mine = btn.Action
		}
	}
	if got := strings.Join(labels, "|"); got != "🎲 d4|🎲 d6|🎲 d8|🎲 d10|🎲 d12|🎲 d20|🎲 d100|/roll 2d6+1|/roll 1d8" {
		t.Fatalf("the tray: %s", got)
	}
	if text := reply.PlainText(rep); !strings.Contains(text, "Lo que más tiras aquí: /roll 2d6+1 · /roll 1d8") {
		t.Errorf("the tray's text: %q", text)
	}
	if got := reply.PlainText(b.press(ana, *d20)); !strings.HasPrefix(got, "Ana: 🎲 d20") {
		t.Errorf("the d20 of the tray: %q", got)
	}
	if got := reply.PlainText(b.press(ana, *mine)); !strings.HasPrefix(got, "Ana: 🎲 2d6+1") {
		t.Errorf("Ana's own roll from the tray: %q", got)
	}
	forged := b.press(ana, reply.Action{Kind: pad.ActTray, Command: "/pj borrar Drake"})
	if !forged.Error {
		t.Errorf("a forged tray press ran: %q", reply.PlainText(forged))
	}
	b.ok(ana, "/botones añadir d20")
	if rep := b.ok(ana, "/botones"); len(rep.Buttons) != 1 || rep.Buttons[0].Kind != reply.ButtonRun {
		t.Errorf("a pad of her own still shows the tray: %+v", rep.Buttons)
	}
}

// A cleared pad comes back whole with /botones deshacer, for whoever
// cleared it and into an empty pad only.
func TestClearedPadUndone(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "undo.db"))
	b.ok(ana, `/botones añadir "Ataque" /roll 1d20+5`)
	b.ok(ana, "/botones añadir d20")
	if got := reply.PlainText(b.ok(ana, "/botones vaciar")); !strings.Contains(got, "/botones deshacer los recupera durante 15 minutos") {
		t.Fatalf("the clear offers no undo: %q", got)
	}
	b.fails(bob, "/botones deshacer", "No hay botones que recuperar")
	b.ok(ana, "/botones añadir d6")
	b.fails(ana, "/botones deshacer", "solo vuelven a una botonera vacía")
	b.ok(ana, "/botones vaciar")
	// That clear kept the d6 pad: the older one is gone.
	if got := reply.PlainText(b.ok(ana, "/botones deshacer")); !strings.Contains(got, "Ha vuelto 1 botón") {
		t.Fatalf("undo: %q", got)
	}
	if got := reply.PlainText(b.ok(ana, "/botones lista")); !strings.Contains(got, "1. d6") {
		t.Fatalf("the pad after the undo: %q", got)
	}
	b.fails(ana, "/botones deshacer", "No hay botones que recuperar")
}

// TestTrayAndHistoryInTheWordsTyped: issue 36. A Spanish player's
// «/tirar d20» is shown as typed by /historial and offered as typed by
// the tray, not as «/roll d20»; its button rolls it again.
func TestTrayAndHistoryInTheWordsTyped(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.ok(ana, "/tirar 2d6+1")
	b.ok(ana, "/tirar 2d6+1")
	hist := reply.PlainText(b.ok(ana, "/historial"))
	if !strings.Contains(hist, "Ana: /tirar 2d6+1") || strings.Contains(hist, "/roll") {
		t.Errorf("/historial:\n%s", hist)
	}
	tray := b.ok(ana, "/botones")
	var mine *reply.Action
	for _, bt := range tray.Buttons {
		if bt.Label == "/tirar 2d6+1" {
			mine = bt.Action
		}
	}
	if got := reply.PlainText(tray); mine == nil || !strings.Contains(got, "/tirar 2d6+1") || strings.Contains(got, "/roll 2d6") {
		t.Fatalf("the tray:\n%s\n%+v", got, tray.Buttons)
	}
	if got := reply.PlainText(b.press(ana, *mine)); !strings.HasPrefix(got, "Ana: ") || !strings.Contains(got, "2d6+1") {
		t.Errorf("the tray's button: %s", got)
	}
}
