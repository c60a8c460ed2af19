package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestPruneState(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db.now = func() time.Time { clock = clock.Add(time.Second); return clock }

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.SetState(ctx, "matrix/next_batch", "s1"))
	must(db.SetState(ctx, "matrix/again", "not an event record")) // no trailing slash: not under "matrix/again/"
	for i := 0; i < 10; i++ {
		must(db.SetState(ctx, fmt.Sprintf("matrix/again/$ev%02d", i), fmt.Sprint(i)))
	}
	must(db.SetState(ctx, "matrix/again/$ev03", "touched")) // now the newest
	must(db.SetState(ctx, "telegram/offset", "5"))

	n, err := db.PruneState(ctx, "matrix/again/", 3)
	must(err)
	if n != 7 {
		t.Errorf("pruned %d keys, want 7", n)
	}
	for i := 0; i < 10; i++ {
		_, ok, err := db.State(ctx, fmt.Sprintf("matrix/again/$ev%02d", i))
		must(err)
		if want := i == 3 || i == 8 || i == 9; ok != want {
			t.Errorf("$ev%02d kept = %v, want %v", i, ok, want)
		}
	}
	for _, k := range []string{"matrix/next_batch", "matrix/again", "telegram/offset"} {
		if _, ok, err := db.State(ctx, k); err != nil || !ok {
			t.Errorf("%s lost by pruning another prefix: %v %v", k, ok, err)
		}
	}
	if n, err := db.PruneState(ctx, "matrix/again/", 3); err != nil || n != 0 {
		t.Errorf("second prune = %d %v, want 0", n, err)
	}
	if n, err := db.PruneState(ctx, "matrix/again/", 0); err != nil || n != 3 {
		t.Errorf("prune to 0 = %d %v, want 3", n, err)
	}
	if _, err := db.PruneState(ctx, "", 0); err == nil {
		t.Error("pruning with an empty prefix was accepted")
	}
	if _, ok, _ := db.State(ctx, "telegram/offset"); !ok {
		t.Error("empty prefix pruned something")
	}
	// LIKE wildcards in a prefix are plain characters.
	must(db.SetState(ctx, "a%b/1", "x"))
	must(db.SetState(ctx, "aXb/1", "y"))
	if n, err := db.PruneState(ctx, "a%b/", 0); err != nil || n != 1 {
		t.Errorf("prune a%%b/ = %d %v, want 1", n, err)
	}
	if _, ok, _ := db.State(ctx, "aXb/1"); !ok {
		t.Error("% in a prefix matched like a wildcard")
	}
}

// TestSetStateNoSync: the value is stored as SetState stores it, and the
// writer connection is back to the shipped synchronous=FULL afterwards,
// also after a write that failed (a cancelled context), so every other
// write is still fsynced.
func TestSetStateNoSync(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	full := func(when string) {
		t.Helper()
		var mode int
		if err := db.w.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != 2 { // FULL
			t.Errorf("%s: writer synchronous = %d, want 2 (FULL)", when, mode)
		}
	}
	if err := db.SetStateNoSync(ctx, "tg.b.1", "x"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetStateNoSync(ctx, "tg.b.1", "y"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := db.State(ctx, "tg.b.1"); err != nil || !ok || v != "y" {
		t.Errorf("State = %q %v %v, want y", v, ok, err)
	}
	full("after a write")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.SetStateNoSync(cctx, "tg.b.2", "z"); err == nil {
		t.Error("a cancelled write succeeded")
	}
	full("after a cancelled write")
	if _, ok, _ := db.State(ctx, "tg.b.2"); ok {
		t.Error("a cancelled write stored its value")
	}
}
