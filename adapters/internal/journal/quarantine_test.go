package journal

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"zaria/storage/sqlite"
)

func openStore(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "z.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestQuarantineCountsDeaths: each process is a new Quarantine over the
// same store. An event begun and never ended counts one death per
// process; at MaxCrashes it is poisoned. An event handled after all, or
// interrupted by a clean stop, counts none.
func TestQuarantineCountsDeaths(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	handled := map[string]bool{}
	proc := func() *Quarantine { return New(db, func(_ context.Context, it string) bool { return handled[it] }) }
	q := proc()
	for run := 1; run <= MaxCrashes; run++ {
		if _, bad, _ := q.Poisoned(ctx, "lane", "e1"); bad {
			t.Fatalf("run %d: poisoned too early", run)
		}
		again, err := q.Begin(ctx, "lane", "e1")
		if err != nil || again != (run > 1) {
			t.Errorf("run %d: again %v %v", run, again, err)
		}
		q = proc() // the process dies handling e1
		if it, n, _ := q.Crashed(ctx, "lane"); it != "e1" || n != run {
			t.Errorf("run %d: crashed %q %d", run, it, n)
		}
	}
	if n, bad, _ := q.Poisoned(ctx, "lane", "e1"); !bad || n != MaxCrashes {
		t.Errorf("after %d deaths: %d, poisoned %v", MaxCrashes, n, bad)
	}
	q.Forget("lane", "e1")

	// Handled, its mark left running: no death.
	q.Begin(ctx, "lane", "e2")
	handled["e2"] = true
	q = proc()
	if it, _, _ := q.Crashed(ctx, "lane"); it != "" {
		t.Errorf("a handled event counted as a death: %q", it)
	}
	// Interrupted by a stop: no death, but begun again it is "again".
	q.Begin(ctx, "lane", "e3")
	if err := q.Interrupted(ctx, "lane"); err != nil {
		t.Fatal(err)
	}
	q = proc()
	if it, _, _ := q.Crashed(ctx, "lane"); it != "" {
		t.Errorf("a clean stop counted as a death: %q", it)
	}
	if again, _ := q.Begin(ctx, "lane", "e3"); !again {
		t.Error("an interrupted event begun again is not known as begun before")
	}
}

// TestQuarantineReadsEarlierMarks: the work marks the release before
// wrote (Telegram's, Matrix's) count as they did.
func TestQuarantineReadsEarlierMarks(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	db.SetState(ctx, "tg.work", `{"u":1002,"c":{"1001":1,"1003":1}}`)
	db.SetState(ctx, "matrix/inflight/!r", `{"event":"$e","crashes":1,"running":true}`)
	db.SetState(ctx, "matrix/inflight/!s", `{"event":"$f","crashes":1}`)
	q := New(db, func(_ context.Context, it string) bool { return it == "1003" })
	for _, c := range []struct {
		lane, item string
		n          int
		bad        bool
	}{{"tg.work", "1001", 1, false}, {"tg.work", "1002", 1, false}, {"tg.work", "1003", 0, false},
		{"matrix/inflight/!r", "$e", 2, true}, {"matrix/inflight/!s", "$f", 1, false}} {
		if n, bad, err := q.Poisoned(ctx, c.lane, c.item); err != nil || n != c.n || bad != c.bad {
			t.Errorf("%s %s: %d %v %v, want %d %v", c.lane, c.item, n, bad, err, c.n, c.bad)
		}
	}
	if again, _ := q.Begin(ctx, "matrix/inflight/!s", "$f"); !again {
		t.Error("Matrix's interrupted event is not known as begun before")
	}
}

// TestQuarantineBounded: at most maxSuspects suspects are kept, the
// newest.
func TestQuarantineBounded(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	for i := range maxSuspects + 10 {
		q := New(db, nil)
		q.Begin(ctx, "lane", strconv.Itoa(100+i))
	}
	q := New(db, nil)
	q.Begin(ctx, "lane", "999")
	q = New(db, nil)
	if _, bad, _ := q.Poisoned(ctx, "lane", "100"); bad {
		t.Error("the oldest suspect kept")
	}
	if n, _, _ := q.Poisoned(ctx, "lane", strconv.Itoa(100+maxSuspects+9)); n != 1 {
		t.Errorf("a recent suspect has %d deaths", n)
	}
}

// TestQuarantineStart: Start counts the deaths as Poisoned does and
// records the item begun as Begin does, up to MaxCrashes and past it.
func TestQuarantineStart(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	proc := func() *Quarantine { return New(db, func(context.Context, string) bool { return false }) }
	for run := 0; run <= MaxCrashes; run++ {
		crashes, again, err := proc().Start(ctx, "lane", "e1") // the process dies handling e1
		if err != nil || crashes != run || again != (run > 0) {
			t.Errorf("run %d: %d deaths, again %v, %v", run, crashes, again, err)
		}
	}
	if crashes, again, _ := proc().Start(ctx, "lane", "e2"); crashes != 0 || again {
		t.Errorf("a new item: %d deaths, again %v", crashes, again)
	}
}
