package telegram

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// checkLimits verifies, on the times the server saw, that no chat got two
// messages closer than cfg.ChatInterval, no group more than GroupLimit in
// any GroupWindow, and the bot as a whole no more than GlobalLimit in any
// GlobalWindow.
func checkLimits(t *testing.T, sent []telegramtest.Sent, cfg Config) {
	t.Helper()
	byChat := map[int64][]time.Time{}
	var all []time.Time
	for _, m := range sent {
		byChat[m.Chat] = append(byChat[m.Chat], m.At)
		all = append(all, m.At)
	}
	maxIn := func(ts []time.Time, w time.Duration) int {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		best, j := 0, 0
		for i := range ts {
			for ts[i].Sub(ts[j]) >= w {
				j++
			}
			best = max(best, i-j+1)
		}
		return best
	}
	for chat, ts := range byChat {
		if n := maxIn(ts, cfg.ChatInterval); n > 1 {
			t.Errorf("chat %d: %d messages within %v", chat, n, cfg.ChatInterval)
		}
		if chat < 0 {
			if n := maxIn(ts, cfg.GroupWindow); n > cfg.GroupLimit {
				t.Errorf("group %d: %d messages within %v (limit %d)", chat, n, cfg.GroupWindow, cfg.GroupLimit)
			}
		}
	}
	if n := maxIn(all, cfg.GlobalWindow); n > cfg.GlobalLimit {
		t.Errorf("%d messages within %v (limit %d)", n, cfg.GlobalWindow, cfg.GlobalLimit)
	}
}

// Two thousand messages from 200 chats, on the real SQLite store, with
// Telegram's limits scaled down
// (20 ms per chat, 5 per 200 ms per group, 100 per 50 ms overall) and a few
// 429s: every reply arrives, once, in order per chat, within the limits.
func TestBurst2000From200Chats(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.ChatInterval = 20 * time.Millisecond
	cfg.GroupLimit, cfg.GroupWindow = 5, 200*time.Millisecond
	cfg.GlobalLimit, cfg.GlobalWindow = 100, 50*time.Millisecond
	cfg.DrainTimeout = 30 * time.Second
	// A send the fake answers after the request timeout is retried, and
	// Telegram has no idempotency key: the reply would be shown twice. The
	// fake answers in microseconds; under -race on a loaded 2-core machine
	// a few took over the test default of 2 s, so give them 15 s (the
	// shipped default is 20 s).
	cfg.RequestTimeout = 15 * time.Second
	for range 5 {
		f.Inject("sendMessage", telegramtest.Fault{Code: 429, Description: "Too Many Requests: retry after 1", RetryAfter: 1})
	}
	const chats, per = 200, 10
	for i := range per {
		for c := range chats {
			u := telegramtest.User{ID: int64(1000 + c%37), Name: fmt.Sprintf("u%d", c%37)}
			f.SayIn(telegramtest.Group(int64(-1000-c)), u, fmt.Sprintf("/echo %d-%d", c, i))
		}
	}
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	router := testRouter(t)
	begin := time.Now()
	r := start(t, cfg, router, db)
	deadline := time.Now().Add(60 * time.Second)
	for len(f.Sent()) < chats*per && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(begin)
	time.Sleep(100 * time.Millisecond)
	sent := f.Sent()
	if len(sent) != chats*per {
		t.Fatalf("%d replies, want %d", len(sent), chats*per)
	}
	for c := range chats {
		got := f.SentTo(int64(-1000 - c))
		if len(got) != per {
			t.Fatalf("chat %d: %d replies", c, len(got))
		}
		for i, m := range got {
			if want := fmt.Sprintf("%d-%d", c, i); m.Visible != want {
				t.Fatalf("chat %d reply %d = %q, want %q (order)", c, i, m.Visible, want)
			}
		}
	}
	checkLimits(t, sent, cfg)
	// The floor set by the limits: 10 per group at 5 per 200 ms, and
	// 2,000 at 100 per 50 ms → at least 1 s either way.
	r.stop(t)
	v, _, _ := db.State(context.Background(), "telegram.4242")
	t.Logf("2000 replies in %v (%.0f/s), %d getUpdates calls; journal at the end: %d bytes", took, float64(chats*per)/took.Seconds(), len(f.CallsOf("getUpdates")), len(v))
}

// At the production numbers a group gets at most 20 messages a minute and
// a chat one a second; checked on a short burst in one group.
func TestProductionLimitsInOneGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 3 s")
	}
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.ChatInterval, cfg.GroupLimit, cfg.GroupWindow, cfg.GlobalLimit, cfg.GlobalWindow = 0, 0, 0, 0, 0
	start(t, cfg, testRouter(t), newMemState())
	for i := range 4 {
		f.SayIn(telegramtest.Group(-300), ana, fmt.Sprintf("/echo %d", i))
	}
	got := f.waitSent(-300, 4, 10*time.Second)
	for i := 1; i < len(got); i++ {
		if gap := got[i].At.Sub(got[i-1].At); gap < time.Second {
			t.Errorf("messages %d and %d %v apart", i-1, i, gap)
		}
	}
}
