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
	"zaria/core/initiative"
	"zaria/storage/sqlite"
)

// TestTurnOrderStatusEdited: in an encrypted room the turn order's status
// is one notice, then m.replace edits of it (encrypted too) as the fight
// changes; the announcement of a turn mentions whose it is.
func TestTurnOrderStatusEdited(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := newRouter(t)
	initiative.Register(r, initiative.New(db, initiative.Options{}))
	startBot(t, hs, r, botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond) // let alice's crypto see the new member

	isStatus := func(e *event.Event) bool {
		if e.Sender != botID() || e.Type != event.EventMessage {
			return false
		}
		c := e.Content.AsMessage()
		return c.MsgType == event.MsgNotice && strings.Contains(c.Body, "⚔️ Initiative") && c.NewContent == nil &&
			(c.RelatesTo == nil || c.RelatesTo.Type != event.RelReplace)
	}
	add := alice.say(room, "!init add Orc 12")
	alice.waitFor("the join", wait, replyTo(botID(), add))
	status := alice.waitFor("the status message", wait, isStatus)
	if !status.Mautrix.WasEncrypted {
		t.Errorf("the status reached alice unencrypted")
	}
	alice.say(room, "!init 9")
	edited := func(want string) func(*event.Event) bool {
		return func(e *event.Event) bool {
			if e.Sender != botID() || e.Type != event.EventMessage {
				return false
			}
			c := e.Content.AsMessage()
			return c.RelatesTo != nil && c.RelatesTo.Type == event.RelReplace && c.RelatesTo.EventID == status.ID &&
				c.NewContent != nil && strings.Contains(c.NewContent.Body, want)
		}
	}
	e := alice.waitFor("the status edited with alice", wait, edited("9 alice"))
	if !e.Mautrix.WasEncrypted {
		t.Errorf("the edit reached alice unencrypted")
	}
	alice.say(room, "!init next")
	alice.waitFor("the status edited with the turn", wait, edited("▶ 12 Orc"))
	alice.say(room, "!init next")
	turn := alice.waitFor("alice's turn announced", wait, func(e *event.Event) bool {
		if e.Sender != botID() || e.Type != event.EventMessage {
			return false
		}
		c := e.Content.AsMessage()
		return strings.Contains(c.Body, "▶ alice — your turn")
	})
	if m := turn.Content.AsMessage().Mentions; m == nil || !m.Has(alice.cli.UserID) {
		t.Errorf("alice's turn does not mention her: %+v", m)
	}
	alice.mu.Lock()
	n := 0
	for _, e := range alice.events {
		if isStatus(e) {
			n++
		}
	}
	alice.mu.Unlock()
	if n != 1 {
		t.Errorf("%d status messages sent, want 1 (then edits)", n)
	}
}

// initRouter is the router with /init on the SQLite game database file.
func initRouter(t *testing.T, file string) *command.Router {
	t.Helper()
	db, err := sqlite.Open(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := newRouter(t)
	initiative.Register(r, initiative.New(db, initiative.Options{}))
	return r
}

// statusNotice matches the bot's status message (the notice itself, not
// an edit of it).
func statusNotice(e *event.Event) bool {
	if e.Sender != botID() || e.Type != event.EventMessage {
		return false
	}
	c := e.Content.AsMessage()
	return c.MsgType == event.MsgNotice && strings.Contains(c.Body, "⚔️ Initiative") && c.NewContent == nil &&
		(c.RelatesTo == nil || c.RelatesTo.Type != event.RelReplace)
}

// statusEdit matches an m.replace edit of the status message status whose
// new text holds want.
func statusEdit(status id.EventID, want string) func(*event.Event) bool {
	return func(e *event.Event) bool {
		if e.Sender != botID() || e.Type != event.EventMessage {
			return false
		}
		c := e.Content.AsMessage()
		return c.RelatesTo != nil && c.RelatesTo.Type == event.RelReplace && c.RelatesTo.EventID == status &&
			c.NewContent != nil && strings.Contains(c.NewContent.Body, want)
	}
}

// TestTurnOrderStatusAfterRestart: the bot restarts in the middle of a
// fight; the next change edits the status message posted before the
// restart (its id is in the state store), no second status message.
func TestTurnOrderStatusAfterRestart(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	dir, game := t.TempDir(), filepath.Join(t.TempDir(), "game.db")
	b := startBot(t, hs, initRouter(t, game), botOpts{dir: dir})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())

	add := alice.say(room, "!init add Orc 12")
	alice.waitFor("the join", wait, replyTo(botID(), add))
	status := alice.waitFor("the status message", wait, statusNotice)
	b.stop()

	startBot(t, hs, initRouter(t, game), botOpts{dir: dir})
	alice.say(room, "!init add Goblin 8")
	alice.waitFor("the status of before the restart edited", wait, statusEdit(status.ID, "8 Goblin"))
	time.Sleep(300 * time.Millisecond)
	if n := len(alice.matching(statusNotice)); n != 1 {
		t.Errorf("%d status messages after the restart, want 1 (then edits)", n)
	}
}

// TestTurnOrderReactions: the status message offers ▶️ and ⏹️ as
// reactions. bob (a player) reacting ▶️ on the orc's turn is refused,
// the turn stays; alice (the room's creator, a GM) reacting ▶️ passes it
// to bob, mentioned; bob taking his reaction back (Element's second tap)
// presses ▶ again, now on his own turn, and the turn passes to the orc in
// round 2; bob's !init show posts the order anew; alice's ⏹️ (on the
// first status) ends the fight, and the new status shows it.
func TestTurnOrderReactions(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	bob := newUser(t, hs, "bob", false)
	bob.autoJoin.Store(true)
	startBot(t, hs, initRouter(t, filepath.Join(t.TempDir(), "game.db")), botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID(), bob.cli.UserID)
	alice.waitJoined(room, botID())
	alice.waitJoined(room, bob.cli.UserID)
	bob.waitJoined(room, botID())
	ctx := context.Background()
	react := func(u *user, evt id.EventID, key string) id.EventID {
		t.Helper()
		c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt, Key: key}}
		resp, err := u.cli.SendMessageEvent(ctx, room, event.EventReaction, c)
		if err != nil {
			t.Fatal(err)
		}
		return resp.EventID
	}

	alice.waitFor("the join", wait, replyTo(botID(), alice.say(room, "!init add Orc 12")))
	status := alice.waitFor("the status message", wait, statusNotice)
	for _, key := range []string{"▶️", "⏹️"} {
		alice.waitFor("the bot's "+key+" under the status", wait, botReaction(status.ID, key))
	}
	bob.waitFor("bob joins", wait, replyTo(botID(), bob.say(room, "!init 9")))
	alice.waitFor("the orc's turn", wait, replyTo(botID(), alice.say(room, "!init next")))
	alice.waitFor("the status on the orc's turn", wait, statusEdit(status.ID, "▶ 12 Orc"))

	bobs := react(bob, status.ID, "▶️")
	refused := bob.waitFor("bob's ▶ refused", wait, replyTo(botID(), status.ID))
	if body := refused.Content.AsMessage().Body; !strings.Contains(body, "It is Orc's turn") {
		t.Errorf("bob's ▶ on the orc's turn answered %q, want the refusal", body)
	}
	react(alice, status.ID, "▶")
	turn := bob.waitFor("bob's turn announced", wait, func(e *event.Event) bool {
		return e.Sender == botID() && strings.Contains(e.Content.AsMessage().Body, "▶ bob — your turn")
	})
	if !mentions(turn, bob.cli.UserID) {
		t.Errorf("bob's turn does not mention him")
	}
	alice.waitFor("the status on bob's turn", wait, statusEdit(status.ID, "▶ 9 bob"))

	if _, err := bob.cli.RedactEvent(ctx, room, bobs); err != nil {
		t.Fatal(err)
	}
	alice.waitFor("round 2, the orc's turn again", wait, statusEdit(status.ID, "round 2\n▶ 12 Orc"))
	if n := len(alice.matching(statusNotice)); n != 1 {
		t.Errorf("%d status messages, want 1 (then edits)", n)
	}
	// !init show posts the order anew at the bottom (issue 36, item 3):
	// the new notice is the live one, and the end edits it.
	bob.say(room, "!init show")
	shown := alice.waitFor("the order posted anew", wait, func(e *event.Event) bool { return statusNotice(e) && e.ID != status.ID })
	react(alice, status.ID, "⏹️")
	alice.waitFor("the fight ended", wait, statusEdit(shown.ID, "round 2 · ⏹"))
}
