package matrix

import (
	"context"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"

	"zaria/core/command"
	"zaria/core/reply"
)

// TestBlindRoll: a player's !ciega shows in the room that a blind roll
// was made, with neither the result nor the difficulty; the result goes
// to a room of the GMs alone (the roller is not in it), encrypted when
// the game's room is.
func TestBlindRoll(t *testing.T) {
	for _, encrypted := range []bool{false, true} {
		name := "plain"
		if encrypted {
			name = "encrypted"
		}
		t.Run(name, func(t *testing.T) {
			hs := startServer(t, optsNone)
			bob := newUser(t, hs, "bob", encrypted) // the GM: he creates the room
			alice := newUser(t, hs, "alice", encrypted)
			alice.autoJoin.Store(true)
			bob.autoJoin.Store(true)
			startBot(t, hs, newRouter(t), botOpts{crypto: encrypted})
			room := bob.createRoom(encrypted, botID(), alice.cli.UserID)
			bob.waitJoined(room, botID())
			bob.waitJoined(room, alice.cli.UserID)
			alice.waitJoined(room, botID())
			if encrypted {
				alice.waitJoined(room, bob.cli.UserID)
				time.Sleep(300 * time.Millisecond)
			}

			cmd := alice.say(room, "!ciega zaria 4+2 dc15")
			pub := alice.waitFor("public notice", wait, replyTo(botID(), cmd)).Content.AsMessage().Body
			if !strings.Contains(pub, "blind roll") || strings.Contains(pub, "15") {
				t.Errorf("public notice = %q, want a blind-roll notice without the result or the difficulty", pub)
			}
			got := bob.waitFor("blind result for the GM", wait, func(e *event.Event) bool {
				return e.Sender == botID() && e.RoomID != room && e.Type == event.EventMessage &&
					strings.Contains(e.Content.AsMessage().Body, "Blind roll by alice")
			})
			if body := got.Content.AsMessage().Body; !strings.Contains(body, "15") {
				t.Errorf("blind result = %q, want the check against DC 15", body)
			}
			if encrypted && !got.Mautrix.WasEncrypted {
				t.Errorf("the GM got the blind result unencrypted")
			}
			members, err := bob.cli.JoinedMembers(context.Background(), got.RoomID)
			if err != nil {
				t.Fatal(err)
			}
			for u := range members.Joined {
				if u != botID() && u != bob.cli.UserID {
					t.Errorf("%s is in the GMs' room", u)
				}
			}
			if st, err := alice.cli.JoinedRooms(context.Background()); err == nil {
				for _, r := range st.JoinedRooms {
					if r == got.RoomID {
						t.Errorf("alice joined the GMs' room")
					}
				}
			}
		})
	}
}

// TestGMsFileInGMsRoom: a reply with a file for the room and one for the
// GMs only (a session's log and its GMs' copy): the room gets its file,
// the GMs' room the other, which the player who asked is not in.
func TestGMsFileInGMsRoom(t *testing.T) {
	hs := startServer(t, optsNone)
	bob := newUser(t, hs, "bob", false) // the GM
	alice := newUser(t, hs, "alice", false)
	alice.autoJoin.Store(true)
	bob.autoJoin.Store(true)
	r := newRouter(t)
	r.Register(command.Command{Name: "log", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		rep := reply.Text("📜 log")
		rep.File = &reply.File{Name: "log.md", MIME: "text/markdown", Data: []byte("public")}
		rep.Secret = &reply.Reply{Lines: []reply.Line{{reply.T("📜 full log")}}, File: &reply.File{Name: "log-gm.md", MIME: "text/markdown", Data: []byte("secret")}}
		rep.Blind = true
		return rep, nil
	})})
	startBot(t, hs, r, botOpts{})
	room := bob.createRoom(false, botID(), alice.cli.UserID)
	bob.waitJoined(room, botID())
	bob.waitJoined(room, alice.cli.UserID)
	alice.waitJoined(room, botID())
	alice.say(room, "!log")
	file := func(name string) func(e *event.Event) bool {
		return func(e *event.Event) bool {
			m := e.Content.AsMessage()
			return e.Sender == botID() && m != nil && m.MsgType == event.MsgFile && m.FileName == name
		}
	}
	if pub := alice.waitFor("the room's file", wait, file("log.md")); pub.RoomID != room {
		t.Errorf("the room's file went to %s", pub.RoomID)
	}
	gm := bob.waitFor("the GMs' file", wait, file("log-gm.md"))
	if gm.RoomID == room {
		t.Fatal("the GMs' file went to the game's room")
	}
	members, err := bob.cli.JoinedMembers(context.Background(), gm.RoomID)
	if err != nil {
		t.Fatal(err)
	}
	if _, in := members.Joined[alice.cli.UserID]; in || len(members.Joined) != 2 {
		t.Errorf("the GMs' room holds %v", members.Joined)
	}
}
