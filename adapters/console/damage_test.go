package console_test

import (
	"strings"
	"testing"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

// A hit's damage button is a numbered option on the console: typing its
// number applies the damage to the sheet, typing it again says it was
// applied.
func TestDamageButtonNumbered(t *testing.T) {
	db := chattest.OpenDB(t, "")
	svc := chattest.NewServices(db, chattest.Options{})
	r := command.New(svc.Config(command.Config{Translator: chattest.Catalog(t), Settings: db, GMs: db, DefaultLang: "es", Unlimited: []string{"console"},
		NewSource: func() dice.Source { return dice.NewScripted([]int{6, 1}) }}))
	svc.Register(r)
	systems.Register(r)
	script := "/pj crear Drake dh\n/pj poner pv 12/12\n/pj poner armadura cuero\n/dh ataque 1d8 vs @Drake\n1\n1\n"
	got := run(t, r, script)
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
