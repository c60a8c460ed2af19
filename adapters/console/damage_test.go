package console_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zaria/adapters/console"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// A hit's damage button is a numbered option on the console: typing its
// number applies the damage to the sheet, typing it again says it was
// applied.
func TestDamageButtonNumbered(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := chattest.NewServices(db, chattest.Options{})
	r := command.New(svc.Config(command.Config{Translator: cat, Settings: db, GMs: db, DefaultLang: "es", Unlimited: []string{"console"},
		NewSource: func() dice.Source { return dice.NewScripted([]int{6, 1}) }}))
	svc.Register(r)
	systems.Register(r)
	script := "/pj crear Drake dh\n/pj poner pv 12/12\n/pj poner armadura cuero\n/dh ataque 1d8 vs @Drake\n1\n1\n"
	var out bytes.Buffer
	if err := console.New(console.Config{User: "ana"}, r, strings.NewReader(script), &out, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"[1] 🩸 Aplicar 5 de daño a Drake",
		"(🩸 Aplicar 5 de daño a Drake)\n  ❤️ Drake: pv 12 → 7 / 12",
		"⚠️ Este daño (5) ya se aplicó a Drake.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
