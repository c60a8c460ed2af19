package telegram

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// With replies piling up faster than the limits let them out, polling
// pauses at MaxQueued: the rest waits at Telegram (not in memory and not in
// the journal) and is fetched as the queue drains. Every update is still
// answered once. One flooded chat counts for at most 20 and does not stop
// the others.
func TestBacklogPausesPolling(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.GlobalLimit, cfg.GlobalWindow = 10, 100*time.Millisecond // 100/s
	cfg.MaxQueued = 40
	const chats = 200
	for c := range chats {
		f.SayIn(telegramtest.Group(int64(-2000-c)), telegramtest.User{ID: int64(5000 + c), Name: "u"}, fmt.Sprintf("/echo %d", c))
	}
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	r := start(t, cfg, testRouter(t), db)
	time.Sleep(300 * time.Millisecond)
	if q := r.a.QueueDepth(); q > int64(cfg.MaxQueued)+100 {
		t.Errorf("%d replies queued with MaxQueued %d (one batch of 100 may exceed it)", q, cfg.MaxQueued)
	}
	waiting := f.Pending()
	if waiting == 0 {
		t.Error("every update was fetched at once: polling did not pause")
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(f.Sent()) < chats && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	seen := map[int64]int{}
	for _, s := range f.Sent() {
		seen[s.Chat]++
	}
	for c := range chats {
		if n := seen[int64(-2000-c)]; n != 1 {
			t.Errorf("chat %d: %d replies", -2000-c, n)
		}
	}
	if !strings.Contains(r.logs.String(), "fetching paused") {
		t.Error("the pause is not logged")
	}
}
