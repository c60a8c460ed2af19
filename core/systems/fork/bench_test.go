package fork

import (
	"testing"

	"zaria/core/systems/engine"
)

// BenchmarkBuild is a fork rebuilt from its changes (a chat's first roll
// after a change or a restart): RQ with its fumble range moved, Daegon
// with a cell changed.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		sys string
		ch  Change
	}{
		{"rq", Change{Kind: KindNumber, Key: "fumble_from", Value: "95"}},
		{"daegon", Change{Kind: KindCell, Key: "pct", Row: 7, Col: 3, Value: "60"}},
	} {
		bs, err := engine.Builtin(c.sys)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.sys, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Build(bs, []Change{c.ch}, "en"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOddsMoves is what a change's reply computes beyond the build:
// the odds it moves (Daegon's cell: across the inputs' range).
func BenchmarkOddsMoves(b *testing.B) {
	bs, _ := engine.Builtin("daegon")
	for b.Loop() {
		s, _, err := Build(bs, []Change{{Kind: KindCell, Key: "pct", Row: 7, Col: 3, Value: "60"}}, "en")
		if err != nil {
			b.Fatal(err)
		}
		if len(OddsMoves(bs, s, "es")) == 0 {
			b.Fatal("no odds moved")
		}
	}
}
