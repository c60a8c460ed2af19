package chart_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/adapters/chart"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// Largest is the largest distribution /odds draws within the limits: 65,000
// totals (the exact odds keep at most 65,536 values in one distribution).
const Largest = "/odds 1d1000*1d65"

func oddsReply(b *testing.B, r *command.Router, text string) *reply.Reply {
	rep, ok := r.Dispatch(context.Background(), core.Message{Chat: core.ChatRef{Platform: "console", ID: "b"}, From: core.User{ID: "u"}, Text: text})
	if !ok || rep.Error || rep.Chart == nil {
		b.Fatalf("%s: %s", text, reply.PlainText(rep))
	}
	return rep
}

// BenchmarkOddsLargest computes and draws the largest distribution: the
// whole /odds command through the router, then the PNG.
func BenchmarkOddsLargest(b *testing.B) {
	for _, text := range []string{"/odds 3d6 vs 12", "/odds 4d6kh3 | 3d6+1 | 2d10", "/odds 3d6!", "/odds kh 20 10s dc40", "/odds zaria 10+10 dc25", Largest} {
		b.Run(strings.TrimPrefix(text, "/odds "), func(b *testing.B) {
			cat, err := i18n.Load()
			if err != nil {
				b.Fatal(err)
			}
			r := command.New(command.Config{Translator: cat, Settings: memory.New(), Limits: command.Limits{Burst: 1 << 30}})
			roll.RegisterOdds(r)
			systems.Register(r)
			b.ReportAllocs()
			cpu0, ok := processCPU()
			for b.Loop() {
				rep := oddsReply(b, r, text)
				if _, err := chart.PNG(rep.Chart); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0, ok)
		})
	}
}

// BenchmarkOddsFairnessPNG draws the largest fairness picture of /stats:
// four panels, the largest a d100.
func BenchmarkOddsFairnessPNG(b *testing.B) {
	c := &reply.Chart{Title: "Are the dice fair?", XLabel: "face", Equal: "times rolled", ExpectedLabel: "a fair die"}
	for _, sides := range []int{6, 10, 20, 100} {
		obs := make([]int, sides)
		for i := range obs {
			obs[i] = 40 + i%7
		}
		c.Counts = append(c.Counts, reply.Counts{Title: "d · n", Observed: obs, Expected: 43})
	}
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for b.Loop() {
		if _, err := chart.PNG(c); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, ok)
}

// reportCPU adds "cpu-ms/op": the process's CPU time per operation, which
// a busy machine does not inflate as it does the wall-clock ns/op.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool) {
	if cpu1, ok1 := processCPU(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}
