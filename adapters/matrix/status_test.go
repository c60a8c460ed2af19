package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"

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
