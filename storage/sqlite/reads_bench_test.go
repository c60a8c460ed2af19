package sqlite

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"zaria/core"
	"zaria/core/history"
)

// BenchmarkCommandReads is what the router reads for every roll in a group
// chat with a short history and no session: its settings, whether the
// roller is a GM, the chat's session (none). CPU µs per read.
func BenchmarkCommandReads(b *testing.B) {
	db := benchDB(b, "NORMAL")
	ctx := context.Background()
	chats := make([]core.ChatRef, 300)
	for i := range chats {
		chats[i] = core.ChatRef{Platform: "telegram", ID: fmt.Sprint(-1000 - i)}
		if err := db.AppendRoll(ctx, history.Roll{Chat: chats[i], UserID: "u1", Command: "/roll 1d20", Dice: []int{3}, Sides: []int{20}}, 500); err != nil {
			b.Fatal(err)
		}
	}
	for _, read := range []struct {
		name string
		f    func(core.ChatRef) error
	}{
		{"Settings", func(c core.ChatRef) error { _, err := db.Settings(ctx, c); return err }},
		{"IsGM", func(c core.ChatRef) error { _, err := db.IsGM(ctx, c, "u1"); return err }},
		{"LastSession", func(c core.ChatRef) error {
			if _, err := db.LastSession(ctx, c); err != nil && !errorsIsNotFound(err) {
				return err
			}
			return nil
		}},
	} {
		b.Run(read.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			cpu0 := processCPU()
			for b.Loop() {
				if err := read.f(chats[i%len(chats)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			reportCPU(b, cpu0)
		})
	}
}

func errorsIsNotFound(err error) bool { return errors.Is(err, core.ErrNotFound) }
