package matrix

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
)

// bucketProxy rate-limits the bot's sends as Synapse does (rc_message: a
// burst, refilled at a steady rate), answering 429 M_LIMIT_EXCEEDED with
// the wait until the next token.
type bucketProxy struct {
	srv       *httptest.Server
	mu        sync.Mutex
	tokens    float64
	last      time.Time
	rate      float64 // tokens per second
	burst     float64
	limited   atomic.Int32
	reactions atomic.Int32
}

func newBucketProxy(t *testing.T, upstream string, rate, burst float64) *bucketProxy {
	up, _ := url.Parse(upstream)
	proxy := httputil.NewSingleHostReverseProxy(up)
	p := &bucketProxy{rate: rate, burst: burst, tokens: burst, last: time.Now()}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/") {
			p.mu.Lock()
			now := time.Now()
			p.tokens = min(p.burst, p.tokens+now.Sub(p.last).Seconds()*p.rate)
			p.last = now
			ok := p.tokens >= 1
			if ok {
				p.tokens--
			}
			wait := time.Duration((1 - p.tokens) / p.rate * float64(time.Second))
			p.mu.Unlock()
			if !ok {
				p.limited.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":` + strconv.FormatInt(wait.Milliseconds()+1, 10) + `}`))
				return
			}
			if strings.Contains(r.URL.Path, "/send/m.reaction/") {
				p.reactions.Add(1)
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// TestReactionsUnderSynapseLimits: Synapse's default send limit (burst 10,
// 0.2/s), with time scaled ten times faster (burst 10, 2/s; the budget's
// window and calm scaled alike). A player sends 14 rolls, each as soon as
// the previous one is answered. With reactions "on" each roll costs two
// sends and replies queue behind 🎲; with "auto" (the default) the 🎲 go
// out only while there is budget, and after the first 429 none: the rolls
// are answered sooner and the homeserver refuses fewer sends. Figures are
// logged.
func TestReactionsUnderSynapseLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	run := func(mode string) (total, p50 time.Duration, limited, reactions int32) {
		p := newBucketProxy(t, hs.URL, 2, 10)
		b := startBot(t, hs, newRouter(t), botOpts{homeURL: p.srv.URL, cfg: func(c *Config) { c.Reactions = mode }})
		b.a.budget.tune(30*time.Second, 6*time.Second)
		room := alice.createRoom(false, botID())
		alice.waitJoined(room, botID())
		time.Sleep(time.Second) // the bucket is full again
		p.limited.Store(0)
		var lat []time.Duration
		start := time.Now()
		for i := 0; i < 14; i++ {
			at := time.Now()
			c := alice.say(room, "!roll 1d20")
			alice.waitFor("reply", time.Minute, replyTo(botID(), c))
			lat = append(lat, time.Since(at))
		}
		total = time.Since(start)
		reacted := func() int32 {
			return int32(len(alice.matching(func(e *event.Event) bool {
				return e.Sender == botID() && e.Type == event.EventReaction && e.RoomID == room
			})))
		}
		// A 🎲 may still wait for the server's retry_after after its
		// reply arrived: wait until none has come for a second (with "on",
		// until all 14 have), so the count does not depend on timing.
		last, quiet := reacted(), time.Now()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			n := reacted()
			if n != last {
				last, quiet = n, time.Now()
			}
			if (mode == ReactionsOn && n == 14) || (mode != ReactionsOn && time.Since(quiet) > time.Second) {
				break
			}
		}
		b.stop()
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		return total, lat[len(lat)/2], p.limited.Load(), reacted()
	}
	onTotal, onP50, on429, onR := run(ReactionsOn)
	autoTotal, autoP50, auto429, autoR := run(ReactionsAuto)
	t.Logf("14 rolls under burst 10 at 2/s (Synapse's 0.2/s ×10): reactions on: %v (p50 %v), %d refused sends, %d 🎲; auto: %v (p50 %v), %d refused sends, %d 🎲",
		onTotal.Round(time.Millisecond), onP50.Round(time.Millisecond), on429, onR, autoTotal.Round(time.Millisecond), autoP50.Round(time.Millisecond), auto429, autoR)
	if autoTotal >= onTotal || auto429 >= on429 {
		t.Errorf("auto is not better than on: %v/%d refused vs %v/%d", autoTotal, auto429, onTotal, on429)
	}
	if onR != 14 || autoR == 0 || autoR >= 14 {
		t.Errorf("🎲 offered: on %d (want 14), auto %d (want some, while there is budget)", onR, autoR)
	}
}

// tune sets the budget's calm and window (shorter in tests).
func (b *budget) tune(calm, window time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calm, b.window = calm, window
}
