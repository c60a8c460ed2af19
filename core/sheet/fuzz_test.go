package sheet_test

import (
	"context"
	"strings"
	"testing"
	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/internal/chattest"
)

// FuzzCommands sends arbitrary text to the character commands: every
// answer is a reply (never a panic or an internal error), and nothing ever
// appears in another chat.
func FuzzCommands(f *testing.F) {
	for _, s := range []string{
		"/pj crear Drake", "/pj set fuerza 4", "/pj set @Drake arma espada larga", "/pj", "/pj lista",
		"/pj renombrar Drake Draco", "/pj borrar Drake", "/pj usar Drake", "/pj sistema dh", "/pj quitar fuerza",
		"/pj set a=", "/pj set @ x y", "/pj crear ''", "/pj crear @", "/pj όρισε Δύναμη 3",
		"/gm add @ana", "/gm remove 1", "/gm", "/historial 3", "/stats",
		"/alias a /check {1}", "/alias --chat b /a {2} {*}", "/a x y", "/alias borrar a", "/alias {1} /pj",
		"/importar {}", `/importar {"format":"zaria-chat","version":1,"settings":{},"characters":[{"name":"X","owner":"1"}]}`,
		"/exportar", "/check fuerza", "/check @Drake fuerza", "/importar --reemplazar {}", "/importar -- {}", "/importar —replace\n{}",
	} {
		f.Add(s)
	}
	h := newHarness(f, chattest.Limits{})
	h.OK(chatB, bob, false, "/pj crear Testigo")
	f.Fuzz(func(t *testing.T, text string) {
		h := h.With(t)
		for _, gm := range []bool{false, true} {
			for _, prefix := range []string{"", "/pj ", "/alias ", "/gm ", "/importar "} {
				msg := core.Message{Chat: chatA, From: ana, Text: prefix + text, FromGM: gm}
				rep, ok := h.R.DispatchWith(context.Background(), msg, dice.Seeded(1))
				if !ok {
					continue
				}
				if out := reply.PlainText(rep); strings.Contains(out, "went wrong") {
					t.Fatalf("%q: internal error: %s", prefix+text, out)
				}
			}
		}
		out := h.OK(chatB, bob, false, "/pj lista")
		if !strings.Contains(out, "1 character") || !strings.Contains(out, "Testigo") {
			t.Fatalf("chat B changed: %s", out)
		}
	})
}
