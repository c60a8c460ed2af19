package engine

import (
	"fmt"
	"testing"
)

// A pool read one way comes from core/dice's distributions; it must
// equal the engine's own enumeration of the same pool (forced here by a
// second reading, size, that every sequence shares).
func TestOneReadingMatchesEnumeration(t *testing.T) {
	for _, c := range []struct {
		faces, n int
		rd       reading
	}{
		{6, 10, reading{kind: "sum"}}, {10, 3, reading{kind: "highest"}}, {20, 2, reading{kind: "lowest"}},
		{6, 8, reading{kind: "count", arg: 6}}, {10, 7, reading{kind: "count_ge", arg: 8}}, {4, 9, reading{kind: "count_le", arg: 1}},
		{100, 1, reading{kind: "sum"}},
	} {
		one := &rollStep{faces: c.faces, reads: []reading{c.rd}, memo: map[int]*poolDist{}}
		two := &rollStep{faces: c.faces, reads: []reading{c.rd, {kind: "size"}}, memo: map[int]*poolDist{}}
		a, ok1 := one.dist(c.n)
		b, ok2 := two.dist(c.n)
		if !ok1 || !ok2 || a.den != b.den {
			t.Fatalf("%+v: %v %v", c, ok1, ok2)
		}
		want := map[string]int64{}
		for i, r := range b.reads {
			want[r[0].String()] += b.counts[i]
		}
		got := map[string]int64{}
		for i, r := range a.reads {
			got[r[0].String()] += a.counts[i]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%dd%d %s: %v, enumeration %v", c.n, c.faces, c.rd.kind, got, want)
		}
	}
}
