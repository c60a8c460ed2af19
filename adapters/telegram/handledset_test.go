package telegram

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// handledHeap commits n handled updates (in batches of 100, the most one
// getUpdates returns, written to a real SQLite file every 10,000) into a
// fresh journal and returns the heap they keep once written.
func handledHeap(t *testing.T, n int) (perUpdate float64, j *journal) {
	t.Helper()
	db := openDB(t, t.TempDir()+"/zaria.db")
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	j = newJournal(db, "telegram.1", 48*time.Hour)
	before := heap()
	now := time.Now()
	for id := 1; id <= n; id += 100 {
		batch := make([]*entry, 0, 100)
		for u := id; u < id+100 && u <= n; u++ {
			batch = append(batch, &entry{Update: u})
		}
		j.commit(batch, 0, now)
		now = now.Add(3 * time.Second) // 30 updates a second
		if id%10_000 == 1 || id+100 > n {
			if err := j.flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := j.flush(ctx); err != nil {
		t.Fatal(err)
	}
	after := heap()
	runtime.KeepAlive(j)
	return float64(after-before) / float64(n), j
}

// TestHandledSetMemory: 100,000 handled updates (an hour of a busy bot at
// 30 a second) keep under 10 bytes each in memory (a map of id → time
// kept ~150), and every one of them is still recognised as handled, an
// update never seen is not.
func TestHandledSetMemory(t *testing.T) {
	const n = 100_000
	per, j := handledHeap(t, n)
	t.Logf("memory per handled update: %.1f bytes (%.2f MB per 100,000)", per, per*n/1e6)
	if per > 10 {
		t.Errorf("%.1f bytes kept per handled update, want < 10", per)
	}
	for id := 1; id <= n; id++ {
		if !j.handled(id) {
			t.Fatalf("update %d not recognised as handled", id)
		}
	}
	if j.handled(n + 1) {
		t.Errorf("update %d recognised though never handled", n+1)
	}
}

// TestHandledSetExpiry: records older than the retention are forgotten
// (and their stored records deleted) in whole blocks, except an update
// whose reply is still unsent; updates out of order (webhook retries) and
// ids far apart are recognised.
func TestHandledSetExpiry(t *testing.T) {
	db := openDB(t, t.TempDir()+"/zaria.db")
	defer db.Close()
	ctx := context.Background()
	j := newJournal(db, "telegram.1", 24*time.Hour)
	t0 := time.Now()
	pend := &entry{Update: 5, Ops: []*op{{Method: "sendMessage", Chat: 1, Params: map[string]string{"text": "x"}}}}
	j.commit([]*entry{{Update: 9}, {Update: 3}, pend, {Update: 1 << 40}}, 0, t0)
	j.commit([]*entry{{Update: 7}}, 0, t0.Add(7*time.Hour)) // a new block (a quarter of the retention later)
	if err := j.flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{9, 3, 5, 1 << 40, 7} {
		if !j.handled(id) {
			t.Errorf("update %d not recognised", id)
		}
	}
	for _, id := range []int{4, 6, 8, 10, 1<<40 + 1} {
		if j.handled(id) {
			t.Errorf("update %d recognised though never handled", id)
		}
	}
	j.commit([]*entry{{Update: 11}}, 0, t0.Add(25*time.Hour))
	if err := j.flush(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]bool{9: false, 3: false, 1 << 40: false, 5: true, 7: true, 11: true} {
		if got := j.handled(id); got != want {
			t.Errorf("after 25 h: update %d handled=%v, want %v", id, got, want)
		}
	}
	recs, err := db.StatesWithPrefix(ctx, "telegram.1.u.")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Errorf("stored records after 25 h: %v, want those of 5 (unsent), 7 and 11", recs)
	}
	// Once sent, the pending one goes at the next sweep.
	j.done(pend, pend.Ops[0])
	j.commit([]*entry{{Update: 12}}, 0, t0.Add(26*time.Hour))
	if j.handled(5) {
		t.Error("update 5 still kept an hour after its reply was sent")
	}
	// A restart reads the records back.
	if err := j.flush(ctx); err != nil {
		t.Fatal(err)
	}
	j2 := newJournal(db, "telegram.1", 24*time.Hour)
	if err := j2.load(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]bool{5: false, 9: false, 7: true, 11: true, 12: true} {
		if got := j2.handled(id); got != want {
			t.Errorf("after a restart: update %d handled=%v, want %v", id, got, want)
		}
	}
}

// size is how many ids are kept.
func (s *handledSet) size() int {
	n := len(s.kept)
	for _, b := range s.blocks {
		n += len(b.off)
	}
	return n
}
