package main

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/reply"
)

// Daegon forked: its renamed outcome shows in /daegon's reply and in
// /odds daegon; its choice of how 00 reads is the chat's default, which
// /ajustes still overrides. Another chat reads the book.
func TestForkDaegonNameAndHouseRule(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar daegon"), false, "copia de Daegon")
	d.want(d.send("a", true, "/sistema editar daegon nombre éxito Acierto"), false, "Éxito → Acierto")
	d.want(d.send("a", false, "/daegon 7 d3", 1, 2), false, "Acierto +")
	d.want(d.send("b", false, "/daegon 7 d3", 1, 2), false, "Éxito +")
	d.want(d.send("a", false, "/odds daegon 7 d3"), false, "Acierto")

	// 00 with NH 1 at D4 (1 %): 100 fails by the book, 0 succeeds.
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
	d.want(d.send("a", true, "/sistema editar daegon regla daegon_00 cero"), false, "0, la tirada más baja")
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "🎲 00 ·", "Acierto")
	d.want(d.send("b", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
	d.want(d.send("a", true, "/ajustes daegon_00 cien"), false)
	d.want(d.send("a", false, "/daegon 1 d4", 10, 10), false, "00 = 100", "Fallo")
}

// Dungeon Hack forked with the monsters' penetration rounded up: level 8
// is penetration 1 there (0 by the book), until /ajustes says otherwise.
func TestForkDHHouseRule(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar dh"), false)
	d.want(d.send("a", true, "/sistema editar dh regla dh_pen techo"), false)
	d.want(d.send("a", false, "/dh pen 8"), false, "penetración 1")
	d.want(d.send("b", false, "/dh pen 8"), false, "penetración 0")
	d.want(d.send("a", true, "/ajustes dh_pen redondeo"), false)
	d.want(d.send("a", false, "/dh pen 8"), false, "penetración 0")
}

// RQ forked with its fumble renamed: /rq's reply and /odds rq name it so.
func TestForkRQName(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar rq"), false)
	d.want(d.send("a", true, "/sistema editar rq nombre pifia Desastre"), false, "Pifia → Desastre")
	d.want(d.send("a", false, "/rq 45", 100), false, "Desastre")
	d.want(d.send("b", false, "/rq 45", 100), false, "Pifia")
	d.want(d.send("a", false, "/odds rq 45 normal"), false, "Desastre")
	d.want(d.send("b", false, "/odds rq 45 normal"), false, "Pifia")
}

// A pad's button that asks the Ζαριά's DC offers the fork's named DCs:
// «media» is 14 in a chat whose fork moved it, and rolls as 14; another
// chat's pad still offers and rolls 15.
func TestForkZariaPadChoices(t *testing.T) {
	d := newForkDesk(t)
	d.want(d.send("a", true, "/sistema copiar zaria"), false)
	d.want(d.send("a", true, "/sistema editar zaria media 14"), false, "CD media 15 → 14")
	for chat, want := range map[string]struct{ label, rolled string }{
		"a": {"media (CD 14)", "CD 14 (media)"},
		"b": {"media (CD 15)", "CD 15 (media)"},
	} {
		d.want(d.send(chat, false, `/pad add "Fuerza" /zaria 4+2 {objetivo}`), false)
		pad := d.send(chat, false, "/pad")
		asked := d.press(chat, pad, "Fuerza")
		if got := reply.PlainText(asked); !strings.Contains(got, want.label) {
			t.Errorf("chat %s: the pad asks\n%s\nwant %q", chat, got, want.label)
		}
		if got := reply.PlainText(d.press(chat, asked, want.label)); !strings.Contains(got, want.rolled) {
			t.Errorf("chat %s: %s rolls\n%s\nwant %q", chat, want.label, got, want.rolled)
		}
	}
}

// press presses, as the player Ana in chat, rep's button labelled label.
func (d *forkDesk) press(chat string, rep *reply.Reply, label string) *reply.Reply {
	d.t.Helper()
	for _, b := range rep.Buttons {
		if b.Label != label || b.Action == nil {
			continue
		}
		msg := core.Message{Chat: core.ChatRef{Platform: "cli", ID: chat}, From: core.User{ID: "u2", Name: "Ana"}}
		out, ok := d.r.Press(context.Background(), msg, *b.Action)
		if !ok || out.Error {
			d.t.Fatalf("chat %s: press %q: %v %s", chat, label, ok, reply.PlainText(out))
		}
		return out
	}
	d.t.Fatalf("chat %s: no button %q in\n%s", chat, label, reply.PlainText(rep))
	return nil
}
