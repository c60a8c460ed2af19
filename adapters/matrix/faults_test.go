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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"zaria/adapters/matrix/dendritetest"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestRateLimited: Dendrite rate-limits joins (1 request, then 2 s of
// cool-off for the bot: long enough that three invites which a loaded
// machine delivers a second apart still meet the limit; with 700 ms they
// did not always). Invited to three rooms at once, the bot joins them all
// by waiting as M_LIMIT_EXCEEDED's retry_after_ms says, without a
// warning, and answers in each.
func TestRateLimited(t *testing.T) {
	hs := startServer(t, dendritetest.Options{RateLimit: 1, CooloffMS: 2000, RateLimitExempt: []string{"@alice:localhost"}})
	alice := newUser(t, hs, "alice", false)
	b := startBot(t, hs, newRouter(t), botOpts{})
	time.Sleep(2100 * time.Millisecond) // the bot's login and whoami used its slot
	start := time.Now()
	rooms := []id.RoomID{alice.createRoom(false, botID()), alice.createRoom(false, botID()), alice.createRoom(false, botID())}
	for _, r := range rooms {
		alice.waitJoined(r, botID())
	}
	t.Logf("joined 3 rooms in %v under a 1-per-2 s limit", time.Since(start))
	for _, r := range rooms {
		c := alice.say(r, "!zaria 4+2 dc15")
		alice.waitFor("reply", wait, replyTo(botID(), c))
	}
	if n := b.log.count("rate limited"); n == 0 {
		t.Errorf("the bot never met M_LIMIT_EXCEEDED; the test proves nothing:\n%s", b.log)
	}
	if n := b.log.count("level=WARN"); n != 0 {
		t.Errorf("rate limiting logged %d warnings, want none (it is the homeserver's normal pacing)", n)
	}
}

// TestSendRateLimited: the homeserver (through a proxy, since Dendrite does
// not rate-limit /send) answers the bot's first reply with 429
// M_LIMIT_EXCEEDED and retry_after_ms 400. The bot waits that long, sends
// again with the same transaction id, and the reply shows once.
func TestSendRateLimited(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	var times []time.Time
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") {
			mu.Lock()
			times = append(times, time.Now())
			paths = append(paths, r.URL.Path)
			first := len(times) == 1
			mu.Unlock()
			if first {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":400}`))
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	b := startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), cmd))
	time.Sleep(200 * time.Millisecond)
	if n := len(alice.matching(replyTo(botID(), cmd))); n != 1 {
		t.Errorf("reply shown %d times, want once", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) < 2 || paths[0] != paths[1] {
		t.Fatalf("sends: %v; want the limited one retried with the same transaction id", paths)
	}
	if d := times[1].Sub(times[0]); d < 400*time.Millisecond {
		t.Errorf("retried after %v, want at least retry_after_ms = 400 ms", d)
	}
	if n := b.log.count("level=WARN"); n != 0 {
		t.Errorf("logged %d warnings for a rate limit, want none", n)
	}
}

// TestLostSendResponse: the homeserver stores the bot's reply but the
// answer never reaches the bot (a proxy drops it and says 502). The bot
// retries with the same transaction id and the room shows the reply once.
func TestLostSendResponse(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	var puts []string
	dropped := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") {
			mu.Lock()
			puts = append(puts, r.URL.Path)
			drop := !dropped
			dropped = true
			mu.Unlock()
			if drop {
				rec := httptest.NewRecorder()
				proxy.ServeHTTP(rec, r) // the homeserver does it…
				if rec.Code != http.StatusOK {
					t.Errorf("upstream answered %d", rec.Code)
				}
				http.Error(w, "bad gateway", http.StatusBadGateway) // …the bot never hears
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), cmd))
	marker := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	if n := len(alice.matching(replyTo(botID(), cmd))); n != 1 {
		t.Errorf("reply shown %d times, want once", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(puts) < 3 || puts[0] != puts[1] {
		t.Errorf("sends seen by the proxy: %v; want the first one retried with the same transaction id", puts)
	}
}

// dyingProxy stands between the bot and the homeserver at hsURL. Once
// armed, the bot's next reply (a PUT of m.room.message, or
// m.room.encrypted) is handed to caught with its body, and the process
// dies: the proxy answers 502 to everything from then on, and the state
// store wrap gave the bot refuses every write.
type dyingProxy struct {
	URL         string
	armed, dead atomic.Bool
	cs          *crashStore
}

func newDyingProxy(t *testing.T, hsURL string, caught func(r *http.Request, body []byte)) *dyingProxy {
	up, _ := url.Parse(hsURL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	p := &dyingProxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.dead.Load() {
			http.Error(w, "the bot is dead", http.StatusBadGateway)
			return
		}
		if p.armed.Load() && r.Method == http.MethodPut && (strings.Contains(r.URL.Path, "/send/m.room.message/") || strings.Contains(r.URL.Path, "/send/m.room.encrypted/")) {
			body, _ := io.ReadAll(r.Body)
			caught(r, body)
			p.dead.Store(true) // …and the process dies
			p.cs.dead.Store(true)
			http.Error(w, "the bot is dead", http.StatusBadGateway)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// wrap is botOpts.wrap for the bot behind p.
func (p *dyingProxy) wrap(st StateStore) StateStore {
	p.cs = &crashStore{StateStore: st, crash: func() {}}
	return p.cs
}

// TestCrashMidSend: the bot dies while its reply is on the way: the
// homeserver stored the reply, the bot never heard back and recorded
// nothing more. The next run, with a new session (so the homeserver's
// transaction ids cannot help), finds the reply and does not answer again.
func TestCrashMidSend(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	dp := newDyingProxy(t, hs.URL, func(r *http.Request, body []byte) {
		stored, _ := http.NewRequest(r.Method, hs.URL+r.URL.RequestURI(), bytes.NewReader(body))
		stored.Header = r.Header.Clone()
		if resp, err := http.DefaultClient.Do(stored); err == nil { // the reply is stored…
			resp.Body.Close()
		}
	})
	dir := t.TempDir()
	router := newRouter(t)
	b := startBot(t, hs, router, botOpts{dir: dir, homeURL: dp.URL, grace: 300 * time.Millisecond, wrap: dp.wrap})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c0 := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("first reply", wait, replyTo(botID(), c0))
	time.Sleep(300 * time.Millisecond)

	dp.armed.Store(true)
	c1 := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("the reply the bot never heard of", wait, replyTo(botID(), c1))
	b.stop()

	// A new session: the stored access token is gone.
	st, err := openState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetState(context.Background(), keyAccessToken, ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	b2 := startBot(t, hs, router, botOpts{dir: dir})
	c2 := alice.say(room, "!zaria 2+2 dc10")
	alice.waitFor("reply after the crash", wait, replyTo(botID(), c2))
	time.Sleep(300 * time.Millisecond)
	for _, ev := range []id.EventID{c0, c1, c2} {
		if n := len(alice.matching(replyTo(botID(), ev))); n != 1 {
			t.Errorf("%s answered %d times, want once", ev, n)
		}
	}
	if b2.log.count("not answering again") != 1 {
		t.Errorf("the second run did not check for the earlier reply:\n%s", b2.log)
	}
}

// TestCrashReplyLandsLate: the bot dies while its reply is on the way, and
// the homeserver stores that reply only later, after the next run has
// started, without remembering its transaction id (Dendrite queues a send
// before it answers and persists it when the client is long gone: seen in
// TestKilledUnderLoad; a fresh salt here makes every transaction id new).
// Dendrite orders one sender's sends in a room (a lock per room and
// sender), so the dead run's reply is stored before the next run's first
// send there. The next run reads a lagging homeserver: the newest 6 s of
// the room's history are not there yet (more than the 4 s an earlier
// version waited). It finds the dead run's reply once it lands and does
// not answer again; the next command is answered as usual. In a plain
// room and in an encrypted one (the bot reads its own replies' relations,
// in clear, and decrypts those that answer the command's message), for a
// typed command and for a 🎲 press (answered in reply to the message
// pressed: the answered reaction is named inside the encrypted content).
func TestCrashReplyLandsLate(t *testing.T) {
	for _, c := range []struct {
		name       string
		enc, press bool
	}{{"plain", false, false}, {"encrypted", true, false}, {"encrypted press", true, true}} {
		t.Run(c.name, func(t *testing.T) { testCrashReplyLandsLate(t, c.enc, c.press) })
	}
}

func testCrashReplyLandsLate(t *testing.T, enc, press bool) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", enc)
	held := make(chan *http.Request, 1)
	dp := newDyingProxy(t, hs.URL, func(r *http.Request, body []byte) {
		late, _ := http.NewRequest(r.Method, hs.URL+r.URL.RequestURI(), bytes.NewReader(body))
		late.Header = r.Header.Clone()
		held <- late // the homeserver has it queued…
	})
	dir := t.TempDir()
	router := newRouter(t)
	b := startBot(t, hs, router, botOpts{dir: dir, crypto: enc, homeURL: dp.URL, grace: 300 * time.Millisecond, wrap: dp.wrap})
	room := alice.createRoom(enc, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond) // let alice's crypto see the new member
	c0 := alice.say(room, "!zaria 1+1 dc5")
	r0 := alice.waitFor("first reply", wait, replyTo(botID(), c0))
	alice.waitFor("🎲 offered", wait, func(e *event.Event) bool {
		return e.Sender == botID() && e.Type == event.EventReaction && e.Content.AsReaction().RelatesTo.EventID == r0.ID
	})
	time.Sleep(300 * time.Millisecond)

	dp.armed.Store(true)
	var c1 id.EventID
	if press {
		// 🎲 under the first reply, encrypted as Element does: answered
		// in reply to that reply.
		react := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: r0.ID, Key: "🎲"}}
		c, err := alice.cli.Crypto.Encrypt(context.Background(), room, event.EventReaction, react)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := alice.cli.SendMessageEvent(context.Background(), room, event.EventEncrypted, c); err != nil {
			t.Fatal(err)
		}
		c1 = r0.ID
	} else {
		c1 = alice.say(room, "!zaria 4+2 dc15")
	}
	var late *http.Request
	select {
	case late = <-held:
	case <-time.After(wait):
		t.Fatal("the bot never sent its reply")
	}
	b.stop()

	// The homeserver stores the queued reply just before the next run's
	// first send in the room, 1 s after that run started at the earliest.
	lag := newLagProxy(t, hs.URL, 6*time.Second, 0)
	began := time.Now()
	var once sync.Once
	lag.beforeSend = func(r *http.Request) {
		once.Do(func() {
			time.Sleep(time.Until(began.Add(time.Second)))
			resp, err := http.DefaultClient.Do(late)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("the dead run's reply, stored late: HTTP %d", resp.StatusCode)
			}
		})
	}
	b2 := startBot(t, hs, router, botOpts{dir: dir, crypto: enc, homeURL: lag.URL, salt: "next run"})
	c2 := alice.say(room, "!zaria 2+2 dc10")
	alice.waitFor("reply after the crash", 2*wait, replyTo(botID(), c2))
	time.Sleep(time.Second)
	for _, ev := range []id.EventID{c0, c1, c2} {
		if n := len(alice.matching(replyTo(botID(), ev))); n != 1 {
			t.Errorf("%s answered %d times, want once", ev, n)
		}
	}
	if enc && !alice.matching(replyTo(botID(), c1))[0].Mautrix.WasEncrypted {
		t.Errorf("the reply reached alice unencrypted")
	}
	if b2.log.count("not answering again") != 1 {
		t.Errorf("the second run did not find the earlier reply:\n%s", b2.log)
	}
	t.Logf("found after %v (history 6 s behind); %d events hidden by the lag", time.Since(began).Round(100*time.Millisecond), lag.hidden.Load())
}

// TestCrashResendsRecordedReply: the bot dies while its reply is on the
// way and the reply never reaches the homeserver. The next run sends the
// reply the dead run had recorded, not a new roll: the same transaction id
// and the same dice.
func TestCrashResendsRecordedReply(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	type lost struct{ path, body string }
	held := make(chan lost, 1)
	dp := newDyingProxy(t, hs.URL, func(r *http.Request, body []byte) {
		held <- lost{r.URL.Path, string(body)} // lost on the way…
	})
	dir := t.TempDir()
	router := newRouter(t)
	b := startBot(t, hs, router, botOpts{dir: dir, homeURL: dp.URL, grace: 300 * time.Millisecond, wrap: dp.wrap})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	dp.armed.Store(true)
	c1 := alice.say(room, "!roll 10d1000")
	var l lost
	select {
	case l = <-held:
	case <-time.After(wait):
		t.Fatal("the bot never sent its reply")
	}
	b.stop()

	var paths []string
	var pmu sync.Mutex
	lag := newLagProxy(t, hs.URL, time.Second, 0)
	lag.beforeSend = func(r *http.Request) {
		pmu.Lock()
		paths = append(paths, r.URL.Path)
		pmu.Unlock()
	}
	b2 := startBot(t, hs, router, botOpts{dir: dir, homeURL: lag.URL})
	got := alice.waitFor("the reply after the crash", wait, replyTo(botID(), c1))
	time.Sleep(500 * time.Millisecond)
	if n := len(alice.matching(replyTo(botID(), c1))); n != 1 {
		t.Errorf("answered %d times, want once", n)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(l.body), &sent); err != nil {
		t.Fatal(err)
	}
	if body := got.Content.AsMessage().Body; body != sent["body"] {
		t.Errorf("the next run rolled again:\n lost: %q\n sent: %q", sent["body"], body)
	}
	pmu.Lock()
	if !slices.Contains(paths, l.path) {
		t.Errorf("the reply went with another transaction id than %s: %v", l.path, paths)
	}
	pmu.Unlock()
	if b2.log.count("sending the recorded reply") != 1 {
		t.Errorf("the second run did not send the recorded reply:\n%s", b2.log)
	}
}
