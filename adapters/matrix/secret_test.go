package matrix

import (
	"context"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestSecretRoll: a player's !gmroll shows in the room only that a secret
// roll was made; the result goes to a direct room with the player and the
// GM (power level ≥ 50), created on first use and reused afterwards.
func TestSecretRoll(t *testing.T) {
	hs := startServer(t, optsNone)
	bob := newUser(t, hs, "bob", false) // the GM: he creates the room
	alice := newUser(t, hs, "alice", false)
	alice.autoJoin.Store(true)
	bob.autoJoin.Store(true)
	startBot(t, hs, newRouter(t), botOpts{})
	room := bob.createRoom(false, botID(), alice.cli.UserID)
	bob.waitJoined(room, botID())
	bob.waitJoined(room, alice.cli.UserID)
	alice.waitJoined(room, botID())

	cmd := alice.say(room, "!gmroll zaria 4+2 dc15")
	pub := alice.waitFor("public notice", wait, replyTo(botID(), cmd)).Content.AsMessage().Body
	if !strings.Contains(pub, "secret") || strings.Contains(pub, "15") {
		t.Errorf("public notice = %q, want a secret-roll notice without the result", pub)
	}
	secret := func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != room && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice")
	}
	dmA := alice.waitFor("secret result for alice", wait, secret)
	dmB := bob.waitFor("secret result for the GM", wait, secret)
	if dmA.RoomID != dmB.RoomID {
		t.Errorf("alice got it in %s, bob in %s: want one room", dmA.RoomID, dmB.RoomID)
	}
	if body := dmA.Content.AsMessage().Body; !strings.Contains(body, "15") {
		t.Errorf("secret result = %q, want the check against DC 15", body)
	}
	members, err := alice.cli.JoinedMembers(context.Background(), dmA.RoomID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[id.UserID]bool{botID(): true, alice.cli.UserID: true, bob.cli.UserID: true}
	for u := range members.Joined {
		if !want[u] {
			t.Errorf("%s is in the secret room", u)
		}
		delete(want, u)
	}
	if len(want) != 0 {
		t.Errorf("missing from the secret room: %v", want)
	}

	// The second secret roll goes to the same room.
	cmd2 := alice.say(room, "!gmroll zaria 1+1 dc5")
	alice.waitFor("second public notice", wait, replyTo(botID(), cmd2))
	second := alice.waitFor("second secret result", wait, func(e *event.Event) bool {
		return secret(e) && e.ID != dmA.ID
	})
	if second.RoomID != dmA.RoomID {
		t.Errorf("second secret roll went to %s, want the room of the first, %s", second.RoomID, dmA.RoomID)
	}
	rooms, err := bob.cli.JoinedRooms(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rooms.JoinedRooms) != 2 {
		t.Errorf("bob is in %d rooms, want 2 (the game and the secret room)", len(rooms.JoinedRooms))
	}
	_ = mautrix.DirectionBackward
}

// TestSecretRollEncrypted: from an encrypted room, the secret room is
// encrypted too, and both the roller and the GM can read the result.
func TestSecretRollEncrypted(t *testing.T) {
	hs := startServer(t, optsNone)
	bob := newUser(t, hs, "bob", true)
	alice := newUser(t, hs, "alice", true)
	alice.autoJoin.Store(true)
	bob.autoJoin.Store(true)
	startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := bob.createRoom(true, botID(), alice.cli.UserID)
	bob.waitJoined(room, botID())
	bob.waitJoined(room, alice.cli.UserID)
	alice.waitJoined(room, botID())
	alice.waitJoined(room, bob.cli.UserID)
	time.Sleep(300 * time.Millisecond)

	cmd := alice.say(room, "!gmroll zaria 4+2 dc15")
	alice.waitFor("public notice", wait, replyTo(botID(), cmd))
	secret := func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != room && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice")
	}
	for _, u := range []*user{alice, bob} {
		got := u.waitFor("secret result", wait, secret)
		if !got.Mautrix.WasEncrypted {
			t.Errorf("%s got the secret result unencrypted", u.cli.UserID)
		}
	}
}
