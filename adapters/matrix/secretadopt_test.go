package matrix

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"maunium.net/go/mautrix/event"
)

// TestSecretRoomHalfMade: the homeserver makes the secret room, but the
// making is cut short after the bot's join (the room holds the bot alone:
// no invite, no marker, no name) and the answer is lost (502), as when the
// bot dies or the network fails in the middle of /createRoom. The bot does
// not make another room: it finds that one by its record of the creation
// in progress, finishes it (marker, name, invite) and delivers the result
// there; the next secret roll goes to the same room.
func TestSecretRoomHalfMade(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	alice.autoJoin.Store(true)

	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/createRoom") {
			calls.Add(1)
			var req map[string]any
			b, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(b, &req)
			for _, k := range []string{"invite", "initial_state", "name", "is_direct"} {
				delete(req, k)
			}
			b, _ = json.Marshal(req)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			proxy.ServeHTTP(httptest.NewRecorder(), r) // made, the answer lost
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	b := startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
	game := alice.createRoom(false, botID())
	alice.waitJoined(game, botID())

	cmd := alice.say(game, "!gmroll zaria 4+2 dc15")
	alice.waitFor("the room's notice", wait, replyTo(botID(), cmd))
	secret := func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != game && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice")
	}
	got := alice.waitFor("the secret result", wait, secret)
	if n := calls.Load(); n != 1 {
		t.Errorf("/createRoom called %d times, want once (the half-made room finished)", n)
	}
	var m secretMarker
	if err := alice.cli.StateEvent(context.Background(), got.RoomID, secretMarkerType, "", &m); err != nil || m.Origin != game || m.Roller != alice.cli.UserID {
		t.Errorf("the finished room's marker = %+v (%v), want origin %s and roller %s", m, err, game, alice.cli.UserID)
	}
	if b.log.count("finishing a secret room whose making was cut short") != 1 {
		t.Errorf("the bot's log does not say it finished the half-made room once")
	}

	cmd2 := alice.say(game, "!gmroll zaria 1+1 dc5")
	alice.waitFor("the second notice", wait, replyTo(botID(), cmd2))
	second := alice.waitFor("the second secret result", wait, func(e *event.Event) bool { return secret(e) && e.ID != got.ID })
	if second.RoomID != got.RoomID || calls.Load() != 1 {
		t.Errorf("second result in %s (want %s), /createRoom calls %d (want 1)", second.RoomID, got.RoomID, calls.Load())
	}
	rooms, err := alice.cli.JoinedRooms(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rooms.JoinedRooms); n != 2 {
		t.Errorf("alice is in %d rooms, want 2 (the game and one secret room)", n)
	}
}
