package main

import (
	"bytes"
	"context"
	"log/slog"
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
	// Issue 10: the alias bomb (saved rolls full of {*}, chained or calling
	// themselves, used 600 MB or ran out of memory) and a long secret copy.
	// The seeds run in order against the same database.
	stars := strings.Repeat(" {*}", 48)
	ones := strings.Repeat(" 1", 240)
	for _, s := range []string{
		"/alias qqs /roll 1d6", "/alias qqs /qqs" + stars, "/qqs" + ones,
		"/alias c1 /roll 1d6", "/alias c2 /c1" + stars, "/alias c3 /c2" + stars, "/alias c4 /c3" + stars,
		"/c4" + ones, "/c3" + ones, "/c2" + ones, "/gmroll /c4" + ones,
		"/alias l1 /l2", "/alias l2 /l1", "/alias l1 /l2 {*} {*}", "/l1 x",
		"/pj set nota " + strings.Repeat("x", 400), "/gmroll /pj lista", "/gmroll /pj ver", "/gmroll /alias",
	} {
		f.Add(s, uint64(1))
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelError}))
	ctx := context.Background()
	router := testRouter(f, "es", logger)
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
		for s := rep.Secret; s != nil; s = s.Secret {
			if n := len([]rune(reply.PlainText(s))); n > 3500 {
				t.Fatalf("%q gave a secret copy of %d characters", text, n)
			}
		}
		if strings.Contains(out, "Algo falló por mi parte") {
			t.Fatalf("%q gave an internal error", text)
		}
	})
}
