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

// TestSecretRollLateThenDirectChat: a secret roll whose room cannot be
// made (the homeserver says only 429) is told late in its room after
// SecretRoomFor; then, the homeserver allowing it again, the roller's
// secret roll in a direct chat with the bot is answered there and brings
// the late result along, once, to the same direct chat: no room is made.
func TestSecretRollLateThenDirectChat(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	alice.autoJoin.Store(true)
	p := newCreateRoomProxy(t, hs.URL, 0)
	startBot(t, hs, newRouter(t), botOpts{homeURL: p.srv.URL, cfg: func(c *Config) { c.SecretRoomFor = 3 * time.Second }})
	game := alice.createRoom(false, botID())
	alice.waitJoined(game, botID())

	p.mode.Store("limited")
	cmd := alice.say(game, "!gmroll zaria 2+2 dc10")
	alice.waitFor("the room told the result is late", wait, func(e *event.Event) bool {
		return replyTo(botID(), cmd)(e) && strings.Contains(e.Content.AsMessage().Body, "could not deliver the secret result yet")
	})

	p.mode.Store("")
	resp, err := alice.cli.CreateRoom(context.Background(), &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{botID()}})
	if err != nil {
		t.Fatal(err)
	}
	dm := resp.RoomID
	alice.waitJoined(dm, botID())
	made := p.created.Load()
	cmd2 := alice.say(dm, "!gmroll zaria 1+1 dc5")
	secret := func(dc string) func(e *event.Event) bool {
		return func(e *event.Event) bool {
			return e.Sender == botID() && e.Type == event.EventMessage && e.RoomID != game &&
				strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice") && strings.Contains(e.Content.AsMessage().Body, dc)
		}
	}
	here := alice.waitFor("the direct chat's result", wait, secret("DC 5"))
	if here.RoomID != dm {
		t.Errorf("the direct chat's secret result went to %s, want the direct chat %s", here.RoomID, dm)
	}
	late := alice.waitFor("the late result", wait, secret("DC 10"))
	time.Sleep(300 * time.Millisecond)
	if n := len(alice.matching(secret("DC 10"))); n != 1 {
		t.Errorf("the late result arrived %d times, want once", n)
	}
	if late.RoomID != dm {
		t.Errorf("the late result went to %s, want the direct chat %s (a direct room with the roller is reused)", late.RoomID, dm)
	}
	if n := p.created.Load() - made; n != 0 {
		t.Errorf("%d rooms made after the direct chat's roll, want none", n)
	}
	_ = cmd2
}
