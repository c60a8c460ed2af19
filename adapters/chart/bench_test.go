package chart_test

import (
	"context"
	"strings"
	"testing"

	"zaria/adapters/chart"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/roll"
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
	for _, text := range []string{"/odds 3d6 vs 12", "/odds 4d6kh3 | 3d6+1 | 2d10", Largest} {
		b.Run(strings.TrimPrefix(text, "/odds "), func(b *testing.B) {
			cat, err := i18n.Load()
			if err != nil {
				b.Fatal(err)
			}
			r := command.New(command.Config{Translator: cat, Settings: memory.New(), Limits: command.Limits{Burst: 1 << 30}})
			roll.RegisterOdds(r)
			b.ReportAllocs()
			for b.Loop() {
				rep := oddsReply(b, r, text)
				if _, err := chart.PNG(rep.Chart); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
