package session_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core/session"
)

// BenchmarkSessionFileLargest: /sesion on a log at its limit
// (MaxEvents entries of MaxText characters, a tenth of them secret):
// the chat's file and the GMs' copy.
func BenchmarkSessionFileLargest(b *testing.B) {
	bt := open(b)
	bt.ok(gm, "/sesion empezar Larga")
	text := strings.Repeat("🎲 1d20+5 · [14] + 5 = 19 ", 25)[:session.MaxText]
	for i := range session.MaxEvents {
		e := session.Event{Time: bt.clock, UserName: "Ana", Command: "/tirar 1d20+5", Text: text}
		if i%10 == 0 {
			e.Secret = text
		}
		if _, err := bt.db.AppendEvent(context.Background(), here, e, session.MaxEvents); err != nil {
			b.Fatal(err)
		}
	}
	var size, gmSize int
	b.ResetTimer()
	for range b.N {
		rep := bt.ok(ana, "/sesion")
		size, gmSize = len(rep.File.Data), len(rep.Secret.File.Data)
	}
	b.ReportMetric(float64(size), "file-bytes")
	b.ReportMetric(float64(gmSize), "gm-file-bytes")
}
