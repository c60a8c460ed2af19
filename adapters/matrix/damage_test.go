package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// TestDamageReaction: alice's Dungeon Hack hit on bob's Drake (8 − 3 = 5)
// says «🩸 Aplicar 5 de daño a Drake» and the bot offers 🩸 under it.
// carol's 🩸 is refused (not Drake's owner, not a GM); bob's applies it
// («❤️ Drake: pv 12 → 7 / 12»); alice's (a GM) is told it was applied; a
// typed "!1" does not press it (a hit is no pad).
func TestDamageReaction(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	bob := newUser(t, hs, "bob", false)
	carol := newUser(t, hs, "carol", false)
	bob.autoJoin.Store(true)
	carol.autoJoin.Store(true)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := chattest.NewServices(db, chattest.Options{})
	r := command.New(svc.Config(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db,
		Limits:    command.Limits{Burst: 1000, Refill: time.Millisecond},
		NewSource: func() dice.Source { return dice.NewScripted([]int{8, 1, 2}) }}))
	svc.Register(r)
	systems.Register(r)
	startBot(t, hs, r, botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID(), bob.cli.UserID, carol.cli.UserID)
	for _, u := range []*user{bob, carol} {
		alice.waitJoined(room, u.cli.UserID)
		u.waitJoined(room, botID())
	}
	alice.waitJoined(room, botID())
	ctx := context.Background()
	react := func(u *user, evt id.EventID, key string) {
		t.Helper()
		c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt, Key: key}}
		if _, err := u.cli.SendMessageEvent(ctx, room, event.EventReaction, c); err != nil {
			t.Fatal(err)
		}
	}
	do := func(u *user, text string) *event.Event {
		t.Helper()
		e := alice.waitFor(text, wait, replyTo(botID(), u.say(room, text)))
		if body := e.Content.AsMessage().Body; strings.Contains(body, "⚠") {
			t.Fatalf("%s: %q", text, body)
		}
		return e
	}
	do(alice, "!pj crear Enyra dh")
	do(alice, "!pj poner arma espada-larga")
	do(bob, "!pj crear Drake dh")
	do(bob, "!pj poner armadura pieles")
	do(bob, "!pj poner dado-db d4")
	do(bob, "!pj poner pv 12/12")
	hit := do(alice, "!dh ataque vs @Drake")
	if body := hit.Content.AsMessage().Body; !strings.Contains(body, "5 de daño") || !strings.Contains(body, "🩸 Aplicar 5 de daño a Drake") {
		t.Fatalf("the hit shows %q", body)
	}
	alice.waitFor("the bot's 🩸 under the hit", wait, botReaction(hit.ID, "🩸"))

	answerSays := func(want string) func(*event.Event) bool {
		return func(e *event.Event) bool {
			return replyTo(botID(), hit.ID)(e) && e.Content.AsMessage().Body == want
		}
	}
	react(carol, hit.ID, "🩸")
	refused := alice.waitFor("carol's 🩸 answered", wait, replyTo(botID(), hit.ID))
	if body := refused.Content.AsMessage().Body; !strings.Contains(body, "Solo quien creó el personaje Drake") {
		t.Errorf("carol's 🩸: %q, want the refusal", body)
	}
	react(bob, hit.ID, "🩸")
	alice.waitFor("bob's 🩸 applied", wait, answerSays("❤️ Drake: pv 12 → 7 / 12"))
	react(alice, hit.ID, "🩸")
	alice.waitFor("alice's 🩸 told it was applied", wait, answerSays("⚠️ Este daño (5) ya se aplicó a Drake."))
	one := bob.say(room, "!1")
	if body := do(bob, "!pj Drake").Content.AsMessage().Body; !strings.Contains(body, "7/12") {
		t.Errorf("Drake after the presses: %q", body)
	}
	for _, e := range alice.matching(replyTo(botID(), one)) {
		t.Errorf("a typed !1 after the hit was answered %q (a hit is no pad)", e.Content.AsMessage().Body)
	}
}
