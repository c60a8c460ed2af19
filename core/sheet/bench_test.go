package sheet_test

import (
	"context"
	"testing"
	"zaria/core"
	"zaria/core/dice"
	"zaria/core/systems"
	"zaria/internal/chattest"
)

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

// BenchmarkSheetRead is one character read: the sender's active sheet and
// one value, from SQLite.
func BenchmarkSheetRead(b *testing.B) {
	h := newBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := h.Sheets.SheetInt(ctx, chatA, ana.ID, "", "fuerza"); err != nil {
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
		rep, _ := h.R.DispatchWith(ctx, msg, dice.Seeded(1))
		if rep.Error {
			b.Fatal("error reply")
		}
	}
}
