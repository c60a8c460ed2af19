package pad_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"zaria/core/reply"
)

// TestKeyboardReply: /botones teclado answers with Ana's pad as a
// keyboard whose keys are the commands as typed (one per distinct
// command, in the pad's order), selective in a group and not in a private
// chat; the lines list the keys for clients without keyboards. /botones
// ocultar hides it; an empty pad, a stray word and the chat's empty pad
// get their errors. Anyone may take the chat's keyboard.
func TestKeyboardReply(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	b.fails(ana, "/botones teclado", "Añade uno: /botones añadir d20")
	b.ok(ana, "/botones añadir d20")
	b.ok(ana, `/botones añadir "Ataque" /roll 1d20+5`)
	b.ok(ana, `/botones añadir "Otra vez" d20`)

	rep := b.ok(ana, "/botones teclado")
	kb := rep.Keyboard
	if kb == nil || kb.Hide || !kb.Selective || kb.Placeholder == "" {
		t.Fatalf("keyboard %+v, want keys, selective in a group, a placeholder", kb)
	}
	if !slices.Equal(kb.Keys, []string{"/roll d20", "/roll 1d20+5"}) {
		t.Errorf("keys %q, want the two distinct commands in the pad's order", kb.Keys)
	}
	got := reply.PlainText(rep)
	for _, want := range []string{"Teclado de tiradas de Ana", "1. d20 · /roll d20", "2. Ataque · /roll 1d20+5", "escríbelas", "Para quitarlo: /botones ocultar"} {
		if !strings.Contains(got, want) {
			t.Errorf("the keyboard reply lacks %q:\n%s", want, got)
		}
	}

	// In her private chat (another pad): not selective.
	priv := func(text string) *reply.Reply {
		m := msg(ana)
		m.Private, m.Chat.ID, m.Text = true, "u1", text
		rep, _ := b.r.Dispatch(context.Background(), m)
		return rep
	}
	priv("/pad add d8")
	if rep := priv("/pad keyboard"); rep.Error || rep.Keyboard == nil || rep.Keyboard.Selective || !slices.Equal(rep.Keyboard.Keys, []string{"/roll d8"}) {
		t.Errorf("the private keyboard: %+v %s", rep.Keyboard, reply.PlainText(rep))
	}
	b.ok(ana, "/pad add 2d6") // same chat: "/pad keyboard" and the Greek name work too
	for _, text := range []string{"/pad keyboard", "/koumpia πληκτρολόγιο", "/κουμπιά ΠΛΗΚΤΡΟΛΟΓΙΟ"} {
		if rep := b.ok(ana, text); rep.Keyboard == nil || len(rep.Keyboard.Keys) != 3 {
			t.Errorf("%q: keyboard %+v", text, rep.Keyboard)
		}
	}

	hide := b.ok(ana, "/botones ocultar")
	if hide.Keyboard == nil || !hide.Keyboard.Hide || !hide.Keyboard.Selective || len(hide.Keyboard.Keys) != 0 {
		t.Errorf("hide gave %+v", hide.Keyboard)
	}
	if got := reply.PlainText(hide); !strings.Contains(got, "oculto") || !strings.Contains(got, "/botones teclado") {
		t.Errorf("hide says %q", got)
	}
	for _, text := range []string{"/pad hide", "/κουμπιά απόκρυψη"} {
		if rep := b.ok(ana, text); rep.Keyboard == nil || !rep.Keyboard.Hide {
			t.Errorf("%q: %+v", text, rep.Keyboard)
		}
	}
	b.fails(ana, "/botones teclado ya", "Uso:")

	// Buttons that ask a value when pressed stay on the pad.
	b.ok(ana, `/botones añadir "Tajo" /dh ataque espada-larga vs {objetivo}`)
	b.ok(ana, "/alias tiro /dh ataque espada-larga vs {1}")
	b.ok(ana, "/botones añadir /tiro")
	rep = b.ok(ana, "/botones teclado")
	if got := reply.PlainText(rep); rep.Keyboard == nil || len(rep.Keyboard.Keys) != 3 || slices.ContainsFunc(rep.Keyboard.Keys, func(k string) bool { return strings.Contains(k, "{") || k == "/tiro" }) ||
		!strings.Contains(got, "No están en el teclado porque piden un valor al pulsarlos: «Tajo», «tiro». Púlsalos en los botones: /botones") {
		t.Errorf("asking buttons: keys %q\n%s", rep.Keyboard.Keys, got)
	}
	b.fails(bob, "/botones --chat teclado", "/botones --chat añadir d20")
	b.ok(eva, `/botones --chat añadir "Tajo" /dh ataque espada-larga vs {objetivo}`)
	b.fails(eva, "/botones --chat teclado", "ninguno cabe en el teclado. Púlsalos en los botones: /botones --chat")
	b.ok(eva, "/botones --chat añadir 3d6")
	if rep := b.ok(bob, "/botones --chat teclado"); rep.Keyboard == nil || !slices.Equal(rep.Keyboard.Keys, []string{"/roll 3d6"}) ||
		!strings.Contains(reply.PlainText(rep), "Teclado de tiradas de la mesa") {
		t.Errorf("Bob's chat keyboard: %+v %s", rep.Keyboard, reply.PlainText(rep))
	}
}

// TestRecentRolls: Router.Recent gives the distinct commands a user
// rolled last in a chat, from the real roll history, newest first, at
// most n; someone else's rolls and errors are not in it.
func TestRecentRolls(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "pads.db"))
	ctx := context.Background()
	if got := b.r.Recent(ctx, msg(ana), 5); len(got) != 0 {
		t.Errorf("no rolls yet, recent %q", got)
	}
	b.ok(ana, "/roll d20")
	b.ok(ana, "/roll 2d6")
	b.ok(bob, "/roll d100")
	b.ok(ana, "/roll d20")
	b.say(ana, "/roll 2d")
	b.ok(ana, "/r 4d6kh3")
	if got := b.r.Recent(ctx, msg(ana), 5); !slices.Equal(got, []string{"/r 4d6kh3", "/roll d20", "/roll 2d6"}) {
		t.Errorf("Ana's recent rolls %q", got)
	}
	if got := b.r.Recent(ctx, msg(ana), 2); len(got) != 2 {
		t.Errorf("n=2 gave %q", got)
	}
	if got := b.r.Recent(ctx, msg(bob), 5); !slices.Equal(got, []string{"/roll d100"}) {
		t.Errorf("Bob's recent rolls %q", got)
	}
}
