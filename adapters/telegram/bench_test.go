package telegram

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/reply"
)

// waitCount blocks until the fake has recorded n sent messages (or is
// closed).
func (f *fakeAPI) waitCount(n int) {
	_ = f.WaitSent(context.Background(), n)
}

func benchRoundTrip(b *testing.B, st StateStore) {
	f := newFakeAPI(b)
	cfg := testConfig(f)
	cfg.ChatInterval, cfg.GroupWindow, cfg.GlobalWindow = time.Nanosecond, time.Nanosecond, time.Nanosecond
	start(b, cfg, testRouter(b), st)
	f.SayIn(telegramtest.Group(-1), ana, "/echo warm-up")
	f.waitCount(1)
	b.ResetTimer()
	for i := range b.N {
		f.SayIn(telegramtest.Group(int64(-2-i%500)), ana, "/roll 4d6kh3")
		f.waitCount(i + 2)
	}
}

// One command in, one reply out, through the fake Bot API over HTTP:
// long poll wake-up, dispatch, journal write, send, journal write.
func BenchmarkRoundTrip(b *testing.B) { benchRoundTrip(b, newMemState()) }

// The same on the real SQLite store (synchronous=FULL: two fsyncs).
func BenchmarkRoundTripSQLite(b *testing.B) {
	db := openDB(b, filepath.Join(b.TempDir(), "zaria.db"))
	defer db.Close()
	benchRoundTrip(b, db)
}

// Throughput: 1,000 commands queued from 100 chats, limits off; from the
// bot's start to the last reply.
func BenchmarkBurst1000(b *testing.B) {
	var busy time.Duration
	for range b.N {
		f := newFakeAPI(b)
		cfg := testConfig(f)
		cfg.ChatInterval, cfg.GroupWindow, cfg.GlobalWindow = time.Nanosecond, time.Nanosecond, time.Nanosecond
		for i := range 1000 {
			f.SayIn(telegramtest.Group(int64(-1-i%100)), ana, fmt.Sprintf("/echo %d", i))
		}
		router := testRouter(b)
		t0 := time.Now()
		r := start(b, cfg, router, newMemState())
		f.waitCount(1000)
		busy += time.Since(t0)
		r.stop(b)
		f.Close()
	}
	b.ReportMetric(float64(1000*b.N)/busy.Seconds(), "replies/s")
}

func BenchmarkSplitHTML(b *testing.B) {
	var lines []reply.Line
	for i := range 60 {
		lines = append(lines, reply.Line{reply.B(fmt.Sprint(i)), reply.T(" <ζαριά> & "), reply.C(strings.Repeat("7", 40))})
	}
	b.ReportAllocs()
	for range b.N {
		_ = splitHTML(lines, 4096)
	}
}
