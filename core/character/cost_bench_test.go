package character_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/dice"
	"zaria/core/history"
	"zaria/core/reply"
)

// statsHistory logs a crafted history in chatA: rolls rolls of perRoll
// dice each, over die sizes 2 to 1000, so that /stats sees many sizes and
// faces.
func statsHistory(tb testing.TB, h *harness, rolls, perRoll int) {
	tb.Helper()
	ctx := context.Background()
	for i := range rolls {
		r := history.Roll{Chat: chatA, UserID: fmt.Sprint("u", i%7), UserName: fmt.Sprint("User ", i%7), Command: "/roll"}
		for j := range perRoll {
			sides := 2 + (i*perRoll+j)%999
			r.Sides = append(r.Sides, sides)
			r.Dice = append(r.Dice, 1+(i*31+j*17)%sides)
		}
		if err := h.db.AppendRoll(ctx, r, 500); err != nil {
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
			h := newHarness(b, character.Limits{})
			statsHistory(b, h, c.rolls, c.perRoll)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU()
			for b.Loop() {
				rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatA, From: ana, Text: "/stats"}, dice.Seeded(1))
				if rep.Error {
					b.Fatal(reply.PlainText(rep))
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// largestImport builds the largest export document the default limits let
// /importar take: characters with 40 values of the longest names and
// values, as many as fit in the import limit.
func largestImport(tb testing.TB, limit int) string {
	tb.Helper()
	type value struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type char struct {
		Name      string  `json:"name"`
		Owner     string  `json:"owner"`
		OwnerName string  `json:"owner_name"`
		System    string  `json:"system"`
		Values    []value `json:"values"`
	}
	doc := map[string]any{"format": "zaria-chat", "version": 1, "settings": map[string]any{"lang": "es"}}
	var chars []char
	var last string
	for n := 0; n < 200; n++ {
		c := char{Name: fmt.Sprintf("Personaje%03d", n), Owner: fmt.Sprint(1000 + n/10), OwnerName: "Jugador", System: "zaria"}
		for v := range 40 {
			c.Values = append(c.Values, value{Name: fmt.Sprintf("valor%02d", v) + strings.Repeat("x", 25), Value: strings.Repeat("v", 60) + fmt.Sprint(1000+v)})
		}
		chars = append(chars, c)
		doc["characters"] = chars
		data, err := json.Marshal(doc)
		if err != nil {
			tb.Fatal(err)
		}
		if len(data) > limit {
			break
		}
		last = string(data)
	}
	return last
}

// BenchmarkImport is /importar of the largest document the limits allow.
func BenchmarkImport(b *testing.B) {
	h := newHarness(b, character.Limits{})
	doc := largestImport(b, character.DefaultLimits().ImportLen)
	b.Logf("document: %d bytes", len(doc))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, FromGM: true, Text: "/importar --replace " + doc}, dice.Seeded(1))
		if rep.Error {
			b.Fatal(reply.PlainText(rep))
		}
	}
	reportCPU(b, cpu)
}

// processCPU is the process's user+system CPU time (SQLite's C code
// included), so that a benchmark on a busy machine reports the work done
// as well as the wall time it waited.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkImportNewChat is /importar of the largest document into a
// chat that has nothing yet (no sheets to delete first).
func BenchmarkImportNewChat(b *testing.B) {
	h := newHarness(b, character.Limits{})
	doc := largestImport(b, character.DefaultLimits().ImportLen)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	n := 0
	for b.Loop() {
		n++
		chat := core.ChatRef{Platform: chatB.Platform, ID: fmt.Sprint("new-", n)}
		rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chat, From: admin, FromGM: true, Text: "/importar " + doc}, dice.Seeded(1))
		if rep.Error {
			b.Fatal(reply.PlainText(rep))
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkExport is /exportar of the chat that document made.
func BenchmarkExport(b *testing.B) {
	h := newHarness(b, character.Limits{})
	doc := largestImport(b, character.DefaultLimits().ImportLen)
	ctx := context.Background()
	rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, FromGM: true, Text: "/importar " + doc}, dice.Seeded(1))
	if rep.Error {
		b.Fatal(reply.PlainText(rep))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatB, From: admin, Text: "/exportar"}, dice.Seeded(1))
		if rep.Error || rep.File == nil {
			b.Fatal(reply.PlainText(rep))
		}
	}
	reportCPU(b, cpu)
}
