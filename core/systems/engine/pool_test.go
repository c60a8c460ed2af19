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

// A pool read only by counts comes from core/dice's FoldPool over kinds of
// face; it must equal the engine's enumeration of every multiset of the
// same pool (forced by a sum reading, which no fold here reads), reading
// by reading, exploding dice included.
func TestCountedMatchesEnumeration(t *testing.T) {
	for _, c := range []struct {
		faces, n, times int
		explode         []int
		reads           []reading
	}{
		{10, 6, 0, nil, []reading{{kind: "count_ge", arg: 6}, {kind: "count", arg: 10}, {kind: "count", arg: 1}}},
		{6, 5, 0, nil, []reading{{kind: "all", arg: 6}, {kind: "any", arg: 1}, {kind: "size"}}},
		{4, 0, 0, nil, []reading{{kind: "all", arg: 4}, {kind: "any", arg: 4}, {kind: "size"}}},
		{6, 4, 2, []int{6}, []reading{{kind: "count_ge", arg: 7}, {kind: "count_le", arg: 2}, {kind: "any", arg: 12}}},
		{8, 3, 3, []int{7, 8}, []reading{{kind: "count", arg: 15}, {kind: "count_ge", arg: 9}, {kind: "all", arg: 3}}},
	} {
		mk := func(reads []reading) *rollStep {
			rs := &rollStep{faces: c.faces, times: c.times, reads: reads, memo: map[int]*poolDist{}, explode: map[int]bool{}}
			for _, f := range c.explode {
				rs.explode[f] = true
			}
			return rs
		}
		folded := mk(c.reads)
		enumerated := mk(append(append([]reading(nil), c.reads...), reading{kind: "sum"}))
		a, ok1 := folded.dist(c.n)
		b, ok2 := enumerated.dist(c.n)
		if !ok1 || !ok2 || a.den != b.den {
			t.Fatalf("%+v: %v %v", c, ok1, ok2)
		}
		key := func(r []num) string { return fmt.Sprint(r[:len(c.reads)]) }
		want := map[string]int64{}
		for i, r := range b.reads {
			want[key(r)] += b.counts[i]
		}
		got := map[string]int64{}
		for i, r := range a.reads {
			got[key(r)] += a.counts[i]
		}
		if len(got) != len(a.reads) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%dd%d %v: %v, enumeration %v", c.n, c.faces, c.reads, got, want)
		}
	}
}
