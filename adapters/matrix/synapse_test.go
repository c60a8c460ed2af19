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
	"maunium.net/go/mautrix/id"
)

// limitProxy stands between the bot and a homeserver and counts the bot's
// sends and the 429s they get.
type limitProxy struct {
	srv            *httptest.Server
	sends, limited atomic.Int32
}

func newLimitProxy(t *testing.T, upstream string) *limitProxy {
	up, _ := url.Parse(upstream)
	proxy := httputil.NewSingleHostReverseProxy(up)
	p := &limitProxy{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || !strings.Contains(r.URL.Path, "/send/") {
			proxy.ServeHTTP(w, r)
			return
		}
		p.sends.Add(1)
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r)
		if rec.Code == http.StatusTooManyRequests {
			p.limited.Add(1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// TestSynapseRateLimitedSend: on Synapse with its default message limit
// (a burst of 10, then one every 5 s), 14 commands in a row are all
// answered, each once, in order: the replies past the burst get 429 with
// retry_after_ms, and the bot waits as asked instead of giving up or
// asking again at once (at most two 429s per reply).
func TestSynapseRateLimitedSend(t *testing.T) {
	t.Parallel() // mostly waiting out the limit
	hs := startSynapse(t)
	alice := newUser(t, hs, "alice", false)
	p := newLimitProxy(t, hs.URL)
	b := startBot(t, hs, newRouter(t), botOpts{homeURL: p.srv.URL})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())

	var cmds []id.EventID
	for i := 0; i < 14; i++ {
		cmds = append(cmds, alice.say(room, "!roll 1d20"))
	}
	start := time.Now()
	for _, c := range cmds {
		alice.waitFor("reply under the rate limit", 3*wait, replyTo(botID(), c))
	}
	t.Logf("14 replies in %v: %d sends, %d answered 429", time.Since(start).Round(time.Millisecond), p.sends.Load(), p.limited.Load())
	time.Sleep(300 * time.Millisecond)
	var last time.Time
	for i, c := range cmds {
		got := alice.matching(replyTo(botID(), c))
		if len(got) != 1 {
			t.Errorf("command %d answered %d times, want once", i, len(got))
			continue
		}
		at := alice.arrivals(replyTo(botID(), c))[got[0].ID]
		if at.Before(last) {
			t.Errorf("reply %d arrived before reply %d", i, i-1)
		}
		last = at
	}
	if p.limited.Load() == 0 {
		t.Fatalf("no 429: the test did not reach Synapse's limit")
	}
	if n, most := p.limited.Load(), int32(2*len(cmds)); n > most {
		t.Errorf("%d sends answered 429, want at most %d: the bot asks again before retry_after_ms", n, most)
	}
	if b.log.count("rate limited") == 0 {
		t.Errorf("the bot's log does not say it was rate limited")
	}
}

// TestSynapseSecretRollDefaultLimits: on Synapse with its default message
// limit, a bot that has spent its burst answering rolls in an encrypted
// room gets a secret roll's result to the roller within a minute, in one
// new encrypted room, and makes no other room (not even one holding only
// m.room.create, which Synapse leaves when its budget runs out in the
// middle of /createRoom); the game room's notice does not wait for it.
func TestSynapseSecretRollDefaultLimits(t *testing.T) {
	t.Parallel() // mostly waiting out the limit
	hs := startSynapse(t)
	alice := newUser(t, hs, "alice", true)
	alice.autoJoin.Store(true)
	startBot(t, hs, newRouter(t), botOpts{crypto: true})
	game := alice.createRoom(true, botID())
	alice.waitJoined(game, botID())
	time.Sleep(300 * time.Millisecond)

	// The burst is spent: ten rolls, their replies and their buttons.
	var rolls []id.EventID
	for i := 0; i < 10; i++ {
		rolls = append(rolls, alice.say(game, "!roll 1d20"))
	}
	for _, c := range rolls {
		alice.waitFor("reply to a roll", 3*wait, replyTo(botID(), c))
	}

	cmd := alice.say(game, "!gmroll zaria 4+2 dc15")
	sent := time.Now()
	alice.waitFor("the room's notice", wait, replyTo(botID(), cmd))
	notice := time.Since(sent)
	secret := func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != game && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Secret roll by alice")
	}
	got := alice.waitFor("the secret result", 90*time.Second, secret)
	took := time.Since(sent)
	t.Logf("room's notice after %v, secret result after %v", notice.Round(time.Millisecond), took.Round(time.Millisecond))
	if took > time.Minute {
		t.Errorf("the secret result took %v, want within a minute", took)
	}
	if !got.Mautrix.WasEncrypted {
		t.Errorf("the secret result came unencrypted")
	}
	if late := alice.matching(func(e *event.Event) bool {
		return replyTo(botID(), cmd)(e) && strings.Contains(e.Content.AsMessage().Body, "could not deliver")
	}); len(late) > 0 {
		t.Errorf("the room was told the result is late, yet it came")
	}
	rooms, err := hs.Rooms(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	for _, r := range rooms {
		if r.Creator == botID() {
			made++
			t.Logf("room made by the bot: %s, %d joined, %d state events", r.ID, r.JoinedMembers, r.StateEvents)
		}
	}
	if made != 1 {
		t.Errorf("the bot made %d rooms, want 1 (the secret room)", made)
	}
}
