package telegram

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
)

// TestDamageButtonPress: Ana's Dungeon Hack hit on Drake (8 − 3 = 5)
// carries «🩸 Aplicar 5 de daño a Drake»; Νίκος (neither Drake's owner
// nor a GM) pressing it gets the refusal as a toast and nothing changes;
// Bob, Drake's owner, presses it: the chat gets «❤️ Drake: pv 12 → 7 /
// 12»; a second press (Ana, a GM) is told as a toast it was applied.
func TestDamageButtonPress(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := chattest.NewServices(db, chattest.Options{})
	rt := command.New(svc.Config(command.Config{Translator: cat, Settings: db, GMs: db, DefaultLang: "es",
		Limits:    command.Limits{Burst: 1_000_000, Refill: time.Millisecond},
		NewSource: func() dice.Source { return dice.NewScripted([]int{8, 1, 2}) }}))
	svc.Register(rt)
	systems.Register(rt)
	g := telegramtest.Group(-913)
	f.SetAdmins(g.ID, ana.ID)
	start(t, testConfig(f), rt, db)

	n := 0
	say := func(u telegramtest.User, text string) telegramtest.Sent {
		t.Helper()
		f.SayIn(g, u, text)
		n++
		return f.waitSent(g.ID, n, 5*time.Second)[n-1]
	}
	for _, c := range []struct {
		u    telegramtest.User
		text string
	}{{ana, "/pj crear Enyra dh"}, {ana, "/pj poner arma espada-larga"}, {bob, "/pj crear Drake dh"},
		{bob, "/pj poner armadura pieles"}, {bob, "/pj poner dado-db d4"}, {bob, "/pj poner pv 12/12"}} {
		if m := say(c.u, c.text); strings.Contains(m.Visible, "⚠️") {
			t.Fatalf("%s: %q", c.text, m.Visible)
		}
	}
	hit := say(ana, "/dh ataque vs @Drake")
	if !strings.Contains(hit.Visible, "5 de daño") {
		t.Fatalf("the attack shows %q", hit.Visible)
	}
	var data string
	for _, row := range keyboardOf(t, hit) {
		for _, b := range row {
			if b.Text == "🩸 Aplicar 5 de daño a Drake" {
				data = *b.CallbackData
			}
		}
	}
	if data == "" {
		t.Fatalf("no damage button under the attack: %+v", keyboardOf(t, hit))
	}

	f.Press(hit, nikos, data)
	answers := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if got := answers[0].Params["text"]; !strings.Contains(got, "Drake") || !strings.Contains(got, "máster") {
		t.Errorf("Νίκος's press was answered %q, want the refusal", got)
	}
	f.Press(hit, bob, data)
	n++
	if got := f.waitSent(g.ID, n, 5*time.Second)[n-1].Visible; got != "❤️ Drake: pv 12 → 7 / 12" {
		t.Errorf("Bob's press posted %q", got)
	}
	f.Press(hit, ana, data)
	answers = f.waitCalls("answerCallbackQuery", 3, 5*time.Second)
	if got := answers[2].Params["text"]; got != "⚠️ Este daño (5) ya se aplicó a Drake." {
		t.Errorf("the second press was answered %q", got)
	}
	time.Sleep(100 * time.Millisecond)
	if m := f.SentTo(g.ID); len(m) != n {
		t.Errorf("%d messages, want %d: a refused or repeated press posts nothing", len(m), n)
	}
	if out := say(bob, "/pj Drake").Visible; !strings.Contains(out, "7/12") {
		t.Errorf("Drake's sheet after the presses: %q", out)
	}
}
