package matrix

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/pad"
	"zaria/core/roll"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// padRouter is the router with /pad, on a SQLite game database.
func padRouter(t testing.TB) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: st, GMs: st,
		Limits: command.Limits{Burst: 1000, Refill: time.Millisecond}})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	roll.RegisterOdds(r)
	pad.Register(r, pad.New(st, pad.Options{}))
	return r
}

// mentions reports whether the bot's message e mentions user.
func mentions(e *event.Event, user id.UserID) bool {
	c := e.Content.AsMessage()
	return c.Mentions != nil && slices.Contains(c.Mentions.UserIDs, user)
}

// botReaction matches the bot's reaction key to evt.
func botReaction(evt id.EventID, key string) func(*event.Event) bool {
	return func(e *event.Event) bool {
		r := e.Content.AsReaction().RelatesTo
		return e.Sender == botID() && e.Type == event.EventReaction && r.EventID == evt && r.Key == key
	}
}

// TestPadKeycaps: in a plain and in an encrypted room, alice builds a personal pad of two buttons and posts it:
// the bot's message is the numbered list, with 1️⃣ and 2️⃣ under it (and no
// other keycap). alice's 2️⃣ rolls that button (1d20+5, attributed to her)
// in reply to the pad; bob's 2️⃣ on alice's pad gets the core's short
// notice, never a roll. A keycap without its variation selector (as some
// clients send it) presses too; a keycap past the pad's end does nothing.
func TestPadKeycaps(t *testing.T) {
	for _, encrypted := range []bool{false, true} {
		name := "plain"
		if encrypted {
			name = "encrypted"
		}
		t.Run(name, func(t *testing.T) { testPadKeycaps(t, encrypted) })
	}
}

func testPadKeycaps(t *testing.T, encrypted bool) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", encrypted)
	bob := newUser(t, hs, "bob", encrypted)
	bob.autoJoin.Store(true)
	startBot(t, hs, padRouter(t), botOpts{crypto: encrypted, cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(encrypted, botID(), bob.cli.UserID)
	alice.waitJoined(room, botID())
	alice.waitJoined(room, bob.cli.UserID)
	bob.waitJoined(room, botID())
	bob.waitJoined(room, alice.cli.UserID)
	time.Sleep(200 * time.Millisecond) // let the clients' crypto see the members
	ctx := context.Background()
	react := func(u *user, evt id.EventID, key string) {
		t.Helper()
		c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt, Key: key}}
		var err error
		if encrypted { // as Element does
			var enc *event.EncryptedEventContent
			if enc, err = u.cli.Crypto.Encrypt(ctx, room, event.EventReaction, c); err == nil {
				_, err = u.cli.SendMessageEvent(ctx, room, event.EventEncrypted, enc)
			}
		} else {
			_, err = u.cli.SendMessageEvent(ctx, room, event.EventReaction, c)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []string{"!pad add d20", `!pad add "Ataque" !roll 1d20+5`} {
		cmd := alice.say(room, c)
		if body := alice.waitFor("pad add", wait, replyTo(botID(), cmd)).Content.AsMessage().Body; strings.Contains(body, "⚠") {
			t.Fatalf("%s answered %q", c, body)
		}
	}
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	body := padMsg.Content.AsMessage().Body
	if !strings.Contains(body, "1. d20") || !strings.Contains(body, "2. Ataque") {
		t.Errorf("pad = %q, want the numbered list 1. d20, 2. Ataque", body)
	}
	alice.waitFor("1️⃣ under the pad", wait, botReaction(padMsg.ID, "1️⃣"))
	alice.waitFor("2️⃣ under the pad", wait, botReaction(padMsg.ID, "2️⃣"))

	if padMsg.Mautrix.WasEncrypted != encrypted {
		t.Errorf("pad encrypted = %v, want %v", padMsg.Mautrix.WasEncrypted, encrypted)
	}
	react(alice, padMsg.ID, "2️⃣")
	rolled := alice.waitFor("alice's press", wait, func(e *event.Event) bool {
		return replyTo(botID(), padMsg.ID)(e) && mentions(e, alice.cli.UserID)
	}).Content.AsMessage().Body
	if !strings.Contains(rolled, "alice") || !strings.Contains(rolled, "1d20+5") {
		t.Errorf("alice's 2️⃣ answered %q, want her roll of 1d20+5", rolled)
	}

	react(bob, padMsg.ID, "2\u20e3")
	notice := alice.waitFor("bob's press", wait, func(e *event.Event) bool {
		return replyTo(botID(), padMsg.ID)(e) && mentions(e, bob.cli.UserID)
	}).Content.AsMessage().Body
	want, _, _ := strings.Cut(i18nText(t, "en", "pad.notice.not_yours"), ".")
	if !strings.Contains(notice, want) || strings.Contains(notice, "1d20") {
		t.Errorf("bob's 2️⃣ on alice's pad answered %q, want the notice %q and no roll", notice, want)
	}

	// 3️⃣: the pad has two buttons. Then a marker to wait behind.
	react(alice, padMsg.ID, "3️⃣")
	marker := alice.say(room, "!roll 1")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	if n := len(alice.matching(replyTo(botID(), padMsg.ID))); n != 2 {
		t.Errorf("%d answers to the pad, want 2 (alice's roll, bob's notice)", n)
	}
	if n := len(alice.matching(botReaction(padMsg.ID, "3️⃣"))); n != 0 {
		t.Errorf("the bot offered 3️⃣ under a pad of two buttons")
	}
}

// i18nText is a catalog text with its placeholders left out.
func i18nText(t *testing.T, lang, key string) string {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return cat.Translate(lang, key, nil)
}

// noPadRecords is a state store that lost the pads' records (a crash
// right after the pad was sent): a press reads them from the pad itself.
type noPadRecords struct{ StateStore }

func (s noPadRecords) State(ctx context.Context, key string) (string, bool, error) {
	if strings.HasPrefix(key, "matrix/pad/") {
		return "", false, nil
	}
	return s.StateStore.State(ctx, key)
}

// TestPadKeycapAgainAndRestart: each tap on 1️⃣ is a press, as Element
// does it (Matrix allows one reaction per key): alice's 1️⃣ rolls; her
// second tap takes the reaction back (a redaction) and rolls; her third
// reacts again and rolls. The bot restarts without the record of the
// pad's keycaps (as after a crash right after sending it): taking 1️⃣
// back and reacting again on the same pad roll twice more, from the tap
// the bot remembers and from what the pad message carries.
func TestPadKeycapAgainAndRestart(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := padRouter(t)
	dir := t.TempDir()
	b := startBot(t, hs, router, botOpts{dir: dir, cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	ctx := context.Background()
	add := alice.say(room, "!pad add 2d6")
	alice.waitFor("pad add", wait, replyTo(botID(), add))
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	alice.waitFor("1️⃣ under the pad", wait, botReaction(padMsg.ID, "1️⃣"))
	rolls := func(n int) {
		t.Helper()
		deadline := time.Now().Add(wait)
		for len(alice.matching(func(e *event.Event) bool {
			return replyTo(botID(), padMsg.ID)(e) && strings.Contains(e.Content.AsMessage().Body, "2d6")
		})) < n {
			if time.Now().After(deadline) {
				t.Fatalf("roll %d: nothing within %v; got %s", n, wait, alice.dump())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	first, err := alice.cli.SendReaction(ctx, room, padMsg.ID, "1️⃣")
	if err != nil {
		t.Fatal(err)
	}
	rolls(1)
	if _, err := alice.cli.RedactEvent(ctx, room, first.EventID); err != nil {
		t.Fatal(err)
	}
	rolls(2)
	second, err := alice.cli.SendReaction(ctx, room, padMsg.ID, "1️⃣")
	if err != nil {
		t.Fatal(err)
	}
	rolls(3)
	b.stop()

	startBot(t, hs, router, botOpts{dir: dir, wrap: func(st StateStore) StateStore { return noPadRecords{st} }})
	if _, err := alice.cli.RedactEvent(ctx, room, second.EventID); err != nil {
		t.Fatal(err)
	}
	rolls(4)
	if _, err := alice.cli.SendReaction(ctx, room, padMsg.ID, "1️⃣"); err != nil {
		t.Fatal(err)
	}
	rolls(5)
	marker := alice.say(room, "!roll 1")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	if n := len(alice.matching(replyTo(botID(), padMsg.ID))); n != 5 {
		t.Errorf("%d answers to the pad, want 5 (one per tap)", n)
	}
}
