package telegram

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// countingState counts what the journal writes (WriteStates), for the
// append-only check.
type countingState struct {
	StateStore
	mu     sync.Mutex
	writes int
	bytes  int
	keys   map[string]int
}

func (s *countingState) WriteStates(ctx context.Context, set map[string]string, del []string) error {
	s.mu.Lock()
	s.writes++
	for k, v := range set {
		s.bytes += len(k) + len(v)
		s.keys[k]++
	}
	s.mu.Unlock()
	return s.StateStore.WriteStates(ctx, set, del)
}

func (s *countingState) reset() (writes, bytes int, keys map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, b, k := s.writes, s.bytes, s.keys
	s.writes, s.bytes, s.keys = 0, 0, map[string]int{}
	return w, b, k
}

// TestWebhookOldRetryAfterFlood: an update answered before a flood of
// 1,200 others (more than any window of recent ids) and redelivered after
// it, and again after a restart, is acknowledged and answered 0 more
// times: duplicates are known by the journal's record of the update.
func TestWebhookOldRetryAfterFlood(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, t.TempDir()+"/zaria.db")
	defer db.Close()
	w := startWebhook(t, f, db, nil)
	if got := w.post(7, -720, "/echo primero"); got != 200 {
		t.Fatalf("first delivery answered %d", got)
	}
	f.waitSent(-720, 1, 5*time.Second)
	const flood = 1200
	for i := 0; i < flood; i++ {
		if got := w.post(100+i, -int64(30_000+i%50), "/echo x"); got != 200 {
			t.Fatalf("delivery %d answered %d", i, got)
		}
	}
	waitFor(t, "flood replies", flood+1, 30*time.Second, f.Sent)
	if got := w.post(7, -720, "/echo primero"); got != 200 {
		t.Fatalf("the old retry answered %d, want 200 (it was kept)", got)
	}
	w.r.stop(t)
	w = startWebhook(t, f, db, nil)
	f.waitCalls("setWebhook", 2, 5*time.Second)
	if got := w.post(7, -720, "/echo primero"); got != 200 {
		t.Fatalf("the old retry after a restart answered %d", got)
	}
	if got := w.post(150, -30_000, "/echo x"); got != 200 {
		t.Fatalf("a flood retry after a restart answered %d", got)
	}
	time.Sleep(300 * time.Millisecond)
	if got := f.SentTo(-720); len(got) != 1 {
		t.Errorf("the old update was answered %d times: %+v", len(got), got)
	}
	if n := len(f.Sent()); n != flood+1 {
		t.Errorf("%d replies for %d updates", n, flood+1)
	}
}

// TestWebhookJournalAppendOnly: with 200 replies pending (sends held), a
// webhook delivery writes one small record (its update), never the whole
// journal: the bytes written per delivery do not grow with the backlog,
// and the main record (the polling offset) is not written at all.
func TestWebhookJournalAppendOnly(t *testing.T) {
	f := newFakeAPI(t)
	// Every send is held past the request timeout for the whole test, so
	// no reply is recorded as sent while deliveries are counted: each
	// attempt takes one fault, and 220 chats retrying every ~2 s would use
	// up a few hundred within seconds on a slow machine.
	held := make([]telegramtest.Fault, 50_000)
	for i := range held {
		held[i] = telegramtest.Fault{Delay: 5 * time.Second}
	}
	f.Inject("sendMessage", held...)
	db := openDB(t, t.TempDir()+"/zaria.db")
	defer db.Close()
	st := &countingState{StateStore: db, keys: map[string]int{}}
	w := startWebhook(t, f, st, func(c *Config) { c.DrainTimeout = 100 * time.Millisecond })
	per := func(from, n int) (int, map[string]int) {
		st.reset()
		for i := 0; i < n; i++ {
			if got := w.post(from+i, -int64(40_000+from+i), "/echo "+strings.Repeat("z", 100)); got != 200 {
				t.Fatalf("delivery answered %d", got)
			}
		}
		writes, bytes, keys := st.reset()
		if writes < n {
			t.Errorf("%d journal writes for %d deliveries", writes, n)
		}
		return bytes / n, keys
	}
	early, _ := per(1, 20)
	per(100, 180)
	late, keys := per(1000, 20)
	t.Logf("bytes written per delivery: %d with 20 pending, %d with 200 pending", early, late)
	if late > 2*early || late > 2000 {
		t.Errorf("a delivery writes %d bytes with 200 replies pending (%d with 20): the journal is rewritten", late, early)
	}
	me := fmt.Sprintf("telegram.%d", f.Bot().ID)
	if keys[me] != 0 {
		t.Errorf("the main record was written %d times by webhook deliveries", keys[me])
	}
	for k, n := range keys {
		if !strings.HasPrefix(k, me+".u.") || n != 1 {
			t.Errorf("a delivery wrote %s %d times", k, n)
		}
	}
}

// TestJournalFromBeforeRecords: a journal written whole by an earlier
// version (recent ids and pending entries in the main record) is read:
// its pending reply is sent once, its recent ids are still known as
// handled, and the main record is rewritten without them.
func TestJournalFromBeforeRecords(t *testing.T) {
	f := newFakeAPI(t)
	st := newMemState()
	key := fmt.Sprintf("telegram.%d", f.Bot().ID)
	st.m[key] = `{"offset":0,"recent":[41,42],"pending":[{"u":42,"o":[{"m":"sendMessage","c":-730,"p":{"text":"pendiente"}}]}]}`
	w := startWebhook(t, f, st, nil)
	got := f.waitSent(-730, 1, 5*time.Second)
	if got[0].Visible != "pendiente" {
		t.Fatalf("the pending reply: %+v", got)
	}
	if code := w.post(41, -731, "/echo otra vez"); code != 200 {
		t.Fatalf("redelivery answered %d", code)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(f.SentTo(-731)); n != 0 {
		t.Errorf("an update the old journal had handled was answered %d times", n)
	}
	w.r.stop(t)
	st.mu.Lock()
	main := st.m[key]
	st.mu.Unlock()
	if strings.Contains(main, "recent") || strings.Contains(main, "pending") {
		t.Errorf("the main record still holds the old lists: %s", main)
	}
}
