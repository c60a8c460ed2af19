package roll

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/dice"
)

// BenchmarkDispatch is a whole /roll through the router: parse, roll,
// odds where there is a target or pool, and the reply.
func BenchmarkDispatch(b *testing.B) {
	r := newRouter(b, nil)
	for _, in := range []string{"2d6+3", "4d6kh3", "8d10>=7", "4d6!", "1d100", "3d6 dc12 ?"} {
		b.Run(in, func(b *testing.B) {
			msg := core.Message{Chat: core.ChatRef{Platform: "console", ID: "es"}, From: core.User{ID: "u"}, Text: "/roll " + in}
			src := dice.Seeded(1)
			b.ReportAllocs()
			for b.Loop() {
				rep, _ := r.DispatchWith(context.Background(), msg, src)
				if rep.Error {
					b.Fatal(rep.Lines)
				}
			}
		})
	}
}
