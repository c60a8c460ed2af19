package character_test

import (
	"context"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/dice"
	"zaria/core/systems"
)

// newBench builds the real harness for a benchmark: SQLite in b.TempDir().
func newBench(b *testing.B) *harness {
	b.Helper()
	h := newHarness(b, character.Limits{})
	systems.Register(h.r)
	h.ok(chatA, ana, false, "/pj crear Drake zaria")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	h.ok(chatA, ana, false, "/pj set atletismo 2")
	return h
}

// BenchmarkSheetRead is one character read: the sender's active sheet and
// one value, from SQLite.
func BenchmarkSheetRead(b *testing.B) {
	h := newBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := h.svc.SheetInt(ctx, chatA, ana.ID, "", "fuerza"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkZariaWithSheet is a whole /zaria fuerza+atletismo dc15 through
// the router: two sheet reads, the check with exact odds, the reply, and the
// roll written to the history.
func BenchmarkZariaWithSheet(b *testing.B) {
	h := newBench(b)
	ctx := context.Background()
	msg := core.Message{Chat: chatA, From: ana, Text: "/zaria fuerza+atletismo dc15"}
	b.ResetTimer()
	for b.Loop() {
		rep, _ := h.r.DispatchWith(ctx, msg, dice.Seeded(1))
		if rep.Error {
			b.Fatal("error reply")
		}
	}
}

// BenchmarkLoggedRolls is the sustained throughput of sheet rolls in one
// busy chat, from parallel senders, each read from the sheet and committed
// to the history (with pruning) in SQLite, reported as rolls/s.
func BenchmarkLoggedRolls(b *testing.B) {
	h := newBench(b)
	ctx := context.Background()
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatA, From: ana, Text: "/check fuerza"}, dice.Seeded(1))
			if rep.Error {
				b.Error("error reply")
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rolls/s")
}
