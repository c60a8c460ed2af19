package matrix

import (
	"fmt"
	"sort"
	"sync"
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
func TestFanOut50Rooms(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{})
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
