package pad_test

import (
	"context"
	"path/filepath"
	"testing"

	"zaria/core"
	"zaria/core/reply"
)

// A pad press costs about what the same command typed costs: one more
// indexed read (the button) and the active character's name.
//
//	go test -tags goolm -run '^$' -bench . ./core/pad/
func BenchmarkTypedVsPressed(b *testing.B) {
	bt := open(b, filepath.Join(b.TempDir(), "bench.db"))
	bt.ok(ana, "/pj crear Drake")
	bt.ok(ana, "/pad add d20+2")
	act := *bt.ok(ana, "/pad").Buttons[0].Action
	ctx := context.Background()
	m := core.Message{Chat: here, From: ana, Text: "/roll d20+2"}
	b.Run("typed", func(b *testing.B) {
		for b.Loop() {
			if rep, _ := bt.r.Dispatch(ctx, m); rep == nil || rep.Error {
				b.Fatal(reply.PlainText(rep))
			}
		}
	})
	b.Run("pressed", func(b *testing.B) {
		for b.Loop() {
			if rep, _ := bt.r.Press(ctx, m, act); rep == nil || rep.Error {
				b.Fatal(reply.PlainText(rep))
			}
		}
	})
}

// A button that asks its value: the question costs the button's read and
// the list; the chosen value costs what the same command typed costs,
// plus the button's read and the check of the value.
func BenchmarkAskedValue(b *testing.B) {
	bt := open(b, filepath.Join(b.TempDir(), "bench.db"))
	bt.ok(ana, "/pj crear Drake")
	bt.ok(ana, "/pad add /dh ataque espada-larga vs {objetivo}")
	act := *bt.ok(ana, "/pad").Buttons[0].Action
	ctx := context.Background()
	m := core.Message{Chat: here, From: ana, Text: "/dh ataque espada-larga vs coraza"}
	chosen := reply.Action{Kind: reply.ActRun, Button: act.Button, Values: []string{"coraza"}}
	b.Run("typed", func(b *testing.B) {
		for b.Loop() {
			if rep, _ := bt.r.Dispatch(ctx, m); rep == nil || rep.Error {
				b.Fatal(reply.PlainText(rep))
			}
		}
	})
	b.Run("asked", func(b *testing.B) {
		for b.Loop() {
			if rep, _ := bt.r.Press(ctx, m, act); rep == nil || len(rep.Buttons) != 13 {
				b.Fatal(reply.PlainText(rep))
			}
		}
	})
	b.Run("chosen", func(b *testing.B) {
		for b.Loop() {
			if rep, _ := bt.r.Press(ctx, m, chosen); rep == nil || rep.Error {
				b.Fatal(reply.PlainText(rep))
			}
		}
	})
}
