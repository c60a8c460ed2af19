package systems_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// The Dungeon Hack state lives on a real character sheet: the character
// service on SQLite, the real catalogs and router. A player sets up Enyra,
// fights, breaks DB, repairs (docs/dungeonhack.md#repair) and wears her sword down, and
// /pj shows every change.
func TestDHWithRealSheets(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := chattest.NewServices(db, chattest.Options{})
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
