package history_test

import (
	"context"
	"fmt"
	"testing"
	"time"
	"zaria/core"
	"zaria/core/dice"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

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
			rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatA, From: ana, Text: "/check fuerza"}, dice.Seeded(1))
			if rep.Error {
				b.Error("error reply")
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "rolls/s")
}

// statsHistory logs a crafted history in chatA: rolls rolls of perRoll
// dice each, over die sizes 2 to 1000, so that /stats sees many sizes and
// faces.
func statsHistory(tb testing.TB, h *chattest.Harness, rolls, perRoll int) {
	tb.Helper()
	ctx := context.Background()
	for i := range rolls {
		r := history.Roll{Chat: chatA, UserID: fmt.Sprint("u", i%7), UserName: fmt.Sprint("User ", i%7), Command: "/roll"}
		for j := range perRoll {
			sides := 2 + (i*perRoll+j)%999
			r.Sides = append(r.Sides, sides)
			r.Dice = append(r.Dice, 1+(i*31+j*17)%sides)
		}
		if err := h.DB.AppendRoll(ctx, r, 500); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkStats is /stats over the largest history the limits allow (500
// kept rolls; at most 1,000 dice a command) and over the history of the
// issue (500 rolls, one size each from 2 to 1000).
func BenchmarkStats(b *testing.B) {
	for _, c := range []struct {
		name           string
		rolls, perRoll int
	}{{"500rolls×1die", 500, 1}, {"500rolls×10dice", 500, 10}, {"500rolls×1000dice", 500, 1000}} {
		b.Run(c.name, func(b *testing.B) {
			h := newHarness(b, chattest.Limits{})
			statsHistory(b, h, c.rolls, c.perRoll)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := chattest.ProcessCPU()
			for b.Loop() {
				rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatA, From: ana, Text: "/stats"}, dice.Seeded(1))
				if rep.Error {
					b.Fatal(reply.PlainText(rep))
				}
			}
			chattest.ReportCPU(b, cpu)
		})
	}
}

// newBench builds the real harness for a benchmark: SQLite in b.TempDir().
func newBench(b *testing.B) *chattest.Harness {
	b.Helper()
	h := newHarness(b, chattest.Limits{})
	systems.Register(h.R)
	h.OK(chatA, ana, false, "/pj crear Drake zaria")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/pj set atletismo 2")
	return h
}
