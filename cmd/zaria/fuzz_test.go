package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// FuzzDispatch sends arbitrary messages through the complete router (every
// command, a real SQLite file). No message may make a handler panic, give an
// internal error, exceed the output limit, or take more than a second.
func FuzzDispatch(f *testing.F) {
	for _, s := range []string{
		"/roll 4d6kh3+2", "!ρίξε 2δ6", "/tirar 3d6 vs 12 ?", "/lang el", "/help roll", "/ajustes zaria media_alta",
		"/zaria 4+2 dc15", "/daegon 12 vs 7", "/rq 45 normal", "/kh 6 +2s +1i dc17", "/dh ataque espada-larga vs coraza",
		"/pj crear Drake", "/pj set fuerza 4", "/zaria fuerza+atletismo dc15", "/gmroll 1d20", "/alias a /roll {1}",
		"/roll 6#4d6kh3", "/roll 8d10>=7f<=1", "/roll 1d20!>=5r1", "/roll floor(3d6/2)", "/exportar", "/historial", "/stats",
	} {
		f.Add(s, uint64(1))
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx := context.Background()
	db, err := openDB(ctx, filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	router, err := newRouter("es", db, logger)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		logs.Reset()
		msg := core.Message{Chat: core.ChatRef{Platform: "cli", ID: "fuzz"}, From: core.User{ID: "u", Name: "u"}, Text: text}
		start := time.Now()
		rep, ok := router.DispatchWith(ctx, msg, dice.Seeded(seed))
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%q took %v", text, d)
		}
		if logs.Len() > 0 {
			t.Fatalf("%q logged an error: %s", text, logs.String())
		}
		if !ok {
			return
		}
		out := reply.PlainText(rep)
		if n := len([]rune(out)); n > 3500 {
			t.Fatalf("%q gave %d characters", text, n)
		}
		if strings.Contains(out, "Algo falló por mi parte") {
			t.Fatalf("%q gave an internal error", text)
		}
	})
}
