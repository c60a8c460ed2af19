package matrix

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// fanOut sends perRoom commands in each of rooms at once (one sender per
// room) and waits until each has its one reply. It returns the wall time
// from the first send to the last reply and the median and worst latency
// of a command (its send to its reply).
func fanOut(t *testing.T, alice *user, rooms []id.RoomID, perRoom int, timeout time.Duration) (total, p50, worst time.Duration) {
	t.Helper()
	type sent struct {
		evt id.EventID
		at  time.Time
	}
	var mu sync.Mutex
	var cmds []sent
	var wg sync.WaitGroup
	start := time.Now()
	for _, r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perRoom; i++ {
				at := time.Now()
				e := alice.say(r, fmt.Sprintf("!roll 1d20+%d", i))
				mu.Lock()
				cmds = append(cmds, sent{e, at})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	want := map[id.EventID]time.Time{}
	for _, c := range cmds {
		want[c.evt] = c.at
	}
	isReply := func(e *event.Event) bool {
		if e.Sender != botID() || e.Type != event.EventMessage {
			return false
		}
		c := e.Content.AsMessage()
		if c.RelatesTo == nil || c.RelatesTo.InReplyTo == nil {
			return false
		}
		_, ok := want[c.RelatesTo.InReplyTo.EventID]
		return ok
	}
	deadline := time.Now().Add(timeout)
	for {
		replies := alice.matching(isReply)
		got := map[id.EventID]int{}
		for _, e := range replies {
			got[e.Content.AsMessage().RelatesTo.InReplyTo.EventID]++
		}
		if len(got) == len(want) {
			for c, n := range got {
				if n != 1 {
					t.Errorf("%s answered %d times, want once", c, n)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d commands answered within %v", len(got), len(want), timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	at := alice.arrivals(isReply)
	var lat []time.Duration
	var last time.Time
	for _, e := range alice.matching(isReply) {
		a := at[e.ID]
		if a.After(last) {
			last = a
		}
		lat = append(lat, a.Sub(want[e.Content.AsMessage().RelatesTo.InReplyTo.EventID]))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return last.Sub(start), lat[len(lat)/2], lat[len(lat)-1]
}

// TestFanOut50Rooms: 500 commands from 50 rooms at once are each answered
// once; the figures (wall time, median and worst latency) are logged.
// ZARIA_TEST_WORKERS sets Config.Workers (1 handles one room at a time, as
// before rooms were handled at once).
func TestFanOut50Rooms(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	b := startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) {
		if v := os.Getenv("ZARIA_TEST_WORKERS"); v != "" {
			c.Workers, _ = strconv.Atoi(v)
		}
	}})
	b.log.quiet.Store(true) // a log line per event would measure the test's logging
	var rooms []id.RoomID
	for i := 0; i < 50; i++ {
		rooms = append(rooms, alice.createRoom(false, botID()))
	}
	for _, r := range rooms {
		alice.waitJoined(r, botID())
	}
	time.Sleep(300 * time.Millisecond)
	total, p50, worst := fanOut(t, alice, rooms, 10, 2*time.Minute)
	t.Logf("500 commands from 50 rooms: all answered in %v, latency p50 %v, max %v", total.Round(time.Millisecond), p50.Round(time.Millisecond), worst.Round(time.Millisecond))
}

// TestRateLimitedRoomAlone: the homeserver answers every send into one room
// with 429 (retry_after_ms 1500) three times over; the other rooms'
// commands, sent at the same moment, are answered without waiting for it,
// and the limited room is answered too, once, after its waits.
func TestRateLimitedRoomAlone(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	var slowRoom atomic.Value
	slowRoom.Store("")
	var limited atomic.Int32
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if room := slowRoom.Load().(string); room != "" && r.Method == http.MethodPut &&
			strings.Contains(r.URL.Path, "/send/") && strings.Contains(r.URL.Path, room) && limited.Add(1) <= 3 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":1500}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
	var rooms []id.RoomID
	for i := 0; i < 10; i++ {
		rooms = append(rooms, alice.createRoom(false, botID()))
	}
	for _, r := range rooms {
		alice.waitJoined(r, botID())
	}
	time.Sleep(300 * time.Millisecond)
	slowRoom.Store(string(rooms[0]))
	start := time.Now()
	slow := alice.say(rooms[0], "!roll 1d6")
	var others []id.EventID
	for _, r := range rooms[1:] {
		others = append(others, alice.say(r, "!roll 1d8"))
	}
	for _, c := range others {
		alice.waitFor("reply in a room without limits", wait, replyTo(botID(), c))
	}
	othersTook := time.Since(start)
	alice.waitFor("reply in the limited room", wait, replyTo(botID(), slow))
	slowTook := time.Since(start)
	t.Logf("9 other rooms answered in %v; the limited room in %v", othersTook.Round(time.Millisecond), slowTook.Round(time.Millisecond))
	if othersTook > 3*time.Second {
		t.Errorf("the other rooms took %v: they waited for the limited one", othersTook)
	}
	if slowTook < 4500*time.Millisecond || limited.Load() < 3 {
		t.Errorf("limited room answered in %v after %d 429s: the limit was not met", slowTook, limited.Load())
	}
	time.Sleep(300 * time.Millisecond)
	for _, c := range append(others, slow) {
		if n := len(alice.matching(replyTo(botID(), c))); n != 1 {
			t.Errorf("%s answered %d times, want once", c, n)
		}
	}
}
