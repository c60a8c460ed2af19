package matrix

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
)

// createRoomProxy stands between the bot and Dendrite and answers the
// bot's /createRoom as a busy homeserver does: in mode "made", it makes the
// room, is slow to answer, then says 429 (as Synapse does when the room
// is made and the budget is spent); in mode "limited", 429 without making
// anything.
type createRoomProxy struct {
	srv     *httptest.Server
	mode    atomic.Value // "made", "limited" or "" (pass)
	calls   atomic.Int32
	slow    atomic.Int64 // how long /createRoom takes to answer (ns)
	created atomic.Int32
	held    atomic.Int32 // /createRoom calls answered after being held (mode "made")
}

func newCreateRoomProxy(t *testing.T, upstream string, slow time.Duration) *createRoomProxy {
	up, _ := url.Parse(upstream)
	proxy := httputil.NewSingleHostReverseProxy(up)
	p := &createRoomProxy{}
	p.slow.Store(int64(slow))
	p.mode.Store("")
	limited := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":200}`))
	}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/createRoom") {
			p.calls.Add(1)
			switch p.mode.Load() {
			case "made":
				rec := httptest.NewRecorder()
				proxy.ServeHTTP(rec, r)
				if rec.Code == http.StatusOK {
					p.created.Add(1)
				}
				time.Sleep(time.Duration(p.slow.Load()))
				p.held.Add(1)
				limited(w)
				return
			case "limited":
				time.Sleep(time.Duration(p.slow.Load()))
				limited(w)
				return
			}
			defer p.created.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// TestSecretRoomBusyHomeserver: the homeserver makes the secret room but
// answers 429 after 4 s. The bot does not call /createRoom again: it finds
// the room it asked for (marked for that room and roller) and delivers the
// result there; meanwhile another room is answered at once. Then, with a
// homeserver that only says 429, the bot tries for SecretRoomFor, then
// says in the room that the result is late, and goes on answering; once
// the homeserver allows it, the roller's next secret roll brings the late
// result along.
func TestSecretRoomBusyHomeserver(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	alice.autoJoin.Store(true)
	p := newCreateRoomProxy(t, hs.URL, 4*time.Second)
	startBot(t, hs, newRouter(t), botOpts{homeURL: p.srv.URL, cfg: func(c *Config) { c.SecretRoomFor = 20 * time.Second }})
	game := alice.createRoom(false, botID())
	other := alice.createRoom(false, botID())
	alice.waitJoined(game, botID())
	alice.waitJoined(other, botID())
	time.Sleep(300 * time.Millisecond)

	p.mode.Store("made")
	cmd := alice.say(game, "!gmroll zaria 4+2 dc15")
	// The creation is under way: the proxy holds it 4 s.
	for deadline := time.Now().Add(wait); p.calls.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the secret roll never asked for a room")
		}
	}
	start := time.Now()
	quick := alice.say(other, "!roll 1d6")
	alice.waitFor("reply in the other room", wait, replyTo(botID(), quick))
	// Measured against the held creation, not a clock bound a loaded
	// machine may miss: the reply came while /createRoom was unanswered.
	if p.held.Load() != 0 {
		t.Errorf("the other room waited %v, until the secret room's creation was answered", time.Since(start))
	}
	alice.waitFor("public notice", wait, replyTo(botID(), cmd))
	secret := func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != game && e.RoomID != other && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice")
	}
	got := alice.waitFor("secret result", wait, secret)
	if n := p.calls.Load(); n != 1 {
		t.Errorf("/createRoom called %d times, want once (the room was made the first time)", n)
	}
	rooms, err := alice.cli.JoinedRooms(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rooms.JoinedRooms); n != 3 {
		t.Errorf("alice is in %d rooms, want 3 (two games, one secret room)", n)
	}

	// Once found, the room is kept: the next secret roll needs no creation.
	p.mode.Store("limited")
	cmd2 := alice.say(game, "!gmroll zaria 1+1 dc5")
	alice.waitFor("second public notice", wait, replyTo(botID(), cmd2))
	second := alice.waitFor("second secret result", wait, func(e *event.Event) bool { return secret(e) && e.ID != got.ID })
	if second.RoomID != got.RoomID || p.calls.Load() != 1 {
		t.Errorf("second secret roll in %s (want %s), /createRoom calls %d (want 1)", second.RoomID, got.RoomID, p.calls.Load())
	}

	// A homeserver that only says 429: the room gets its notice at once;
	// the result is carried for SecretRoomFor (20 s here), then the room is
	// told it is late, and goes on being answered.
	p.slow.Store(0)
	game2 := alice.createRoom(false, botID())
	alice.waitJoined(game2, botID())
	before := p.calls.Load()
	cmd3 := alice.say(game2, "!gmroll zaria 2+2 dc10")
	pub := alice.waitFor("notice of the secret roll", wait, replyTo(botID(), cmd3)).Content.AsMessage().Body
	if strings.Contains(pub, "could not deliver") {
		t.Errorf("public notice = %q, want the usual notice first", pub)
	}
	late := alice.waitFor("the room told the result is late", wait, func(e *event.Event) bool {
		return replyTo(botID(), cmd3)(e) && strings.Contains(e.Content.AsMessage().Body, "could not deliver the secret result yet")
	})
	if n := p.calls.Load() - before; n < 2 {
		t.Errorf("/createRoom called %d times in 20 s, want retries until the time is up", n)
	}
	next := alice.say(game2, "!roll 1d4")
	alice.waitFor("the room goes on", wait, replyTo(botID(), next))
	if n := p.created.Load(); n != 1 {
		t.Errorf("the bot made %d rooms, want 1 (the secret room)", n)
	}

	// The homeserver allows it again: the next secret roll brings the late
	// result along, in one new room.
	p.mode.Store("")
	cmd4 := alice.say(game2, "!gmroll zaria 3+3 dc12")
	alice.waitFor("notice of the next secret roll", wait, replyTo(botID(), cmd4))
	inRoom := func(dc string) func(e *event.Event) bool {
		return func(e *event.Event) bool {
			return secret(e) && e.RoomID != got.RoomID && e.RoomID != game2 && strings.Contains(e.Content.AsMessage().Body, dc)
		}
	}
	old := alice.waitFor("the late result", wait, inRoom("DC 10"))
	now := alice.waitFor("the new result", wait, inRoom("DC 12"))
	if old.RoomID != now.RoomID {
		t.Errorf("the late result went to %s, the new one to %s: want one room", old.RoomID, now.RoomID)
	}
	if n := len(alice.matching(inRoom("DC 10"))); n != 1 {
		t.Errorf("the late result arrived %d times, want once", n)
	}
	if n := p.created.Load(); n != 2 {
		t.Errorf("the bot made %d rooms, want 2 (one secret room per game)", n)
	}
	_ = late
}
