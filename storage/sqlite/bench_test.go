package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/history"
	"zaria/core/sheet"
)

func benchDB(b *testing.B, syncMode string) *DB {
	b.Helper()
	db, err := open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), config{sync: syncMode, migrations: migrationFiles})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// fillChat gives chat n characters of 12 values each, one per owner.
func fillChat(b *testing.B, db *DB, chat core.ChatRef, n int) {
	b.Helper()
	for i := 0; i < n; i++ {
		c := sheet.Character{Owner: fmt.Sprint("u", i), Name: fmt.Sprint("Pj", i), Key: fmt.Sprint("pj", i), System: "zaria"}
		for v := 0; v < 12; v++ {
			c.Values = append(c.Values, sheet.Value{Name: fmt.Sprint("Stat", v), Key: fmt.Sprint("stat", v), Text: fmt.Sprint(v)})
		}
		if _, err := db.CreateCharacter(context.Background(), chat, c, sheet.Quota{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCharacterRead reads one 12-value sheet by name from a chat of
// 50 characters, among 20 such chats: what every roll with a sheet does.
func BenchmarkCharacterRead(b *testing.B) {
	db := benchDB(b, synchronous)
	for c := 0; c < 20; c++ {
		fillChat(b, db, core.ChatRef{Platform: "telegram", ID: fmt.Sprint(c)}, 50)
	}
	chat := core.ChatRef{Platform: "telegram", ID: "7"}
	ctx := context.Background()
	b.ReportAllocs()
	b.Run("ByName", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := db.Character(ctx, chat, "pj25")
			if err != nil || len(c.Values) != 12 {
				b.Fatal(c, err)
			}
		}
	})
	b.Run("Active", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := db.ActiveCharacter(ctx, chat, "u25")
			if err != nil || len(c.Values) != 12 {
				b.Fatal(c, err)
			}
		}
	})
	b.Run("Parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := db.Character(ctx, chat, "pj25"); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkSettingsRead is the read the router makes for every message.
func BenchmarkSettingsRead(b *testing.B) {
	db := benchDB(b, synchronous)
	ctx := context.Background()
	chat := core.ChatRef{Platform: "telegram", ID: "1"}
	if err := db.SaveSettings(ctx, chat, core.Settings{Lang: "es", Options: map[string]string{"prefix": "!", "zaria": "heroico"}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := db.Settings(ctx, chat); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendRoll is the sustained rate of logged rolls: one
// transaction per roll (insert + prune to the newest 1000 of the chat),
// with the shipped synchronous=FULL (an fsync per commit) and, for
// comparison, NORMAL.
func BenchmarkAppendRoll(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		b.Run(mode, func(b *testing.B) {
			db := benchDB(b, mode)
			ctx := context.Background()
			chat := core.ChatRef{Platform: "telegram", ID: "1"}
			r := history.Roll{Chat: chat, UserID: "u1", UserName: "Ana", Command: "/zaria fuerza+atletismo dc15",
				Dice: []int{7, 3, 9}, Sides: []int{10, 10, 10}, Result: "🎲 7 + 3 + 4 = 14 · Éxito"}
			b.ReportAllocs()
			for b.Loop() {
				if err := db.AppendRoll(ctx, r, 1000); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
		})
	}
	b.Run("FULL/Parallel", func(b *testing.B) {
		db := benchDB(b, "FULL")
		ctx := context.Background()
		var next atomic.Int64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			chat := core.ChatRef{Platform: "telegram", ID: fmt.Sprint(next.Add(1))}
			r := history.Roll{Chat: chat, UserID: "u1", Command: "/roll 3d6", Dice: []int{1, 2, 3}, Sides: []int{6, 6, 6}}
			for pb.Next() {
				if err := db.AppendRoll(ctx, r, 1000); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
	})
}

// BenchmarkFaceCounts is /stats over a full history of 1000 rolls of
// five dice.
func BenchmarkFaceCounts(b *testing.B) {
	db := benchDB(b, "NORMAL")
	ctx := context.Background()
	chat := core.ChatRef{Platform: "telegram", ID: "1"}
	for i := 0; i < 1000; i++ {
		r := history.Roll{Chat: chat, UserID: fmt.Sprint("u", i%5), Command: "/roll 5d6",
			Dice: []int{i%6 + 1, (i+1)%6 + 1, (i+2)%6 + 1, (i+3)%6 + 1, (i+4)%6 + 1}, Sides: []int{6, 6, 6, 6, 6}}
		if err := db.AppendRoll(ctx, r, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		fc, err := db.FaceCounts(ctx, chat)
		if err != nil || len(fc) != 6 {
			b.Fatal(fc, err)
		}
	}
}

// BenchmarkSetState is one Telegram button record or work mark (~300
// bytes) per update: fsynced (SetState), and as the adapter writes them
// now (SetStateNoSync).
func BenchmarkSetState(b *testing.B) {
	value := fmt.Sprintf("%0300d", 7)
	for _, c := range []struct {
		name string
		set  func(db *DB, ctx context.Context, k, v string) error
	}{
		{"fsync", (*DB).SetState},
		{"nosync", (*DB).SetStateNoSync},
	} {
		b.Run(c.name, func(b *testing.B) {
			db := benchDB(b, synchronous)
			ctx := context.Background()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := c.set(db, ctx, fmt.Sprint("tg.b.", i%1000), value); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendRollChats is the capacity phase of bench/e2e as the
// history sees it: rolls from 500 chats in turn, each with a short
// history (keep 500, nothing pruned yet), NORMAL so that the statements'
// own cost shows rather than the fsync.
func BenchmarkAppendRollChats(b *testing.B) {
	db := benchDB(b, "NORMAL")
	ctx := context.Background()
	chats := make([]core.ChatRef, 500)
	for i := range chats {
		chats[i] = core.ChatRef{Platform: "telegram", ID: fmt.Sprint(-1000 - i)}
	}
	r := history.Roll{UserID: "u1", UserName: "Ana", Command: "/roll 1d20+3", Dice: []int{14}, Sides: []int{20}, Result: "🎲 1d20+3: [14] + 3 = 17"}
	b.ReportAllocs()
	i := 0
	cpu0 := processCPU()
	for b.Loop() {
		r.Chat = chats[i%len(chats)]
		i++
		if err := db.AppendRoll(ctx, r, 500); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// processCPU is the CPU time the process has used (user + system, every
// thread): the work a benchmark does, whatever else keeps the machine busy.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since cpu0 (cpu-µs/op).
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(processCPU()-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}
