package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestEachPressKind: every kind of button pressed with a reaction gives
// what it gives on Telegram and the console: 🎲 rolls again for whoever
// reacts, 📊 shows the odds of the roll already made and rolls nothing, a
// pad's keycap rolls as its owner typed it and is refused to someone
// else. Then the records of the release before: a reply of the bot that
// carries a re-roll record (org.zaria.again) in its content rolls again
// and shows its odds.
func TestEachPressKind(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	bob := newUser(t, hs, "bob", false)
	bob.autoJoin.Store(true)
	b := startBot(t, hs, fullRouter(t, filepath.Join(t.TempDir(), "game.db")), botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID(), bob.cli.UserID)
	alice.waitJoined(room, bob.cli.UserID)
	alice.waitJoined(room, botID())
	bob.waitJoined(room, botID())
	tb := &table{t: t, room: room, alice: alice, bob: bob}
	seen := map[id.EventID]bool{}
	rolls := func() int {
		return len(alice.matching(func(e *event.Event) bool {
			return e.Sender == botID() && strings.Contains(e.Content.AsMessage().Body, "3d6") && e.Content.Raw[buttonsField] != nil
		}))
	}

	cmd := alice.say(room, "!roll 3d6 vs 12")
	rolled := alice.waitFor("roll", wait, replyTo(botID(), cmd))
	alice.waitFor("📊 offered", wait, botReaction(rolled.ID, oddsKey))
	tb.react(bob, rolled.ID, againKey)
	if got := tb.answer("🎲", rolled.ID, bob, seen); !strings.Contains(got, "3d6") {
		t.Errorf("🎲 by bob answered %q, want his roll of 3d6", got)
	}
	tb.react(bob, rolled.ID, oddsKey)
	if got := tb.answer("📊", rolled.ID, bob, seen); !strings.Contains(got, "37.5%") {
		t.Errorf("📊 by bob answered %q, want the odds", got)
	}
	tb.settle()
	if n := rolls(); n != 2 {
		t.Errorf("%d rolls of 3d6, want 2 (alice's, bob's 🎲; 📊 rolls nothing)", n)
	}

	add := alice.say(room, "!pad add 3d6")
	alice.waitFor("pad add", wait, replyTo(botID(), add))
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	alice.waitFor("1️⃣ offered", wait, botReaction(padMsg.ID, keycaps[0]))
	tb.react(bob, padMsg.ID, keycaps[0])
	if got := tb.answer("bob's 1️⃣", padMsg.ID, bob, seen); strings.Contains(got, "3d6 ") && strings.Contains(got, "=") {
		t.Errorf("bob pressing alice's pad rolled %q", got)
	}
	tb.react(alice, padMsg.ID, keycaps[0])
	if got := tb.answer("alice's 1️⃣", padMsg.ID, alice, seen); !strings.Contains(got, "alice") || !strings.Contains(got, "3d6") {
		t.Errorf("alice's pad button answered %q, want her roll", got)
	}

	// A reply as the release before sent it: its re-roll record in its
	// content, nothing in the state.
	old := &event.MessageEventContent{MsgType: event.MsgNotice, Body: "🎲 alice: 2d6 = 7"}
	resp, err := b.a.cli.SendMessageEvent(context.Background(), room, event.EventMessage, &event.Content{Parsed: old,
		Raw: map[string]any{againField: map[string]any{"cmd": "!roll 2d6 vs 7", "odds": true, "actual": 7}}})
	if err != nil {
		t.Fatal(err)
	}
	alice.waitFor("the old reply", wait, func(e *event.Event) bool { return e.ID == resp.EventID })
	tb.react(bob, resp.EventID, againKey)
	if got := tb.answer("old 🎲", resp.EventID, bob, seen); !strings.Contains(got, "2d6") {
		t.Errorf("🎲 on an old reply answered %q, want a roll of 2d6", got)
	}
	tb.react(bob, resp.EventID, oddsKey)
	if got := tb.answer("old 📊", resp.EventID, bob, seen); !strings.Contains(got, "58.33%") {
		t.Errorf("📊 on an old reply answered %q, want the odds of 2d6 vs 7", got)
	}
}
