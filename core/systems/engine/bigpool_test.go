package engine

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sum_highest(N) and sum_lowest(N) read one way come from core/dice's
// HighestK and LowestK; they must equal the engine's own enumeration of
// the same pool (forced by a second reading, size), exploding dice and
// N at or past the pool's size included.
func TestKeptSumMatchesEnumeration(t *testing.T) {
	for _, c := range []struct {
		faces, n, times int
		rd              reading
	}{
		{6, 4, 0, reading{kind: "sum_highest", arg: 3}}, {10, 5, 2, reading{kind: "sum_highest", arg: 2}},
		{20, 3, 0, reading{kind: "sum_lowest", arg: 2}}, {10, 4, 1, reading{kind: "sum_lowest", arg: 1}},
		{6, 3, 0, reading{kind: "sum_highest", arg: 3}}, {8, 2, 0, reading{kind: "sum_lowest", arg: 5}},
	} {
		mk := func(reads []reading) *rollStep {
			return &rollStep{faces: c.faces, times: c.times, reads: reads, memo: map[int]*poolDist{}, explode: map[int]bool{c.faces: true}}
		}
		a, ok1 := mk([]reading{c.rd}).dist(c.n)
		b, ok2 := mk([]reading{c.rd, {kind: "size"}}).dist(c.n)
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
			t.Errorf("%dd%d %s(%d): %v, enumeration %v", c.n, c.faces, c.rd.kind, c.rd.arg, got, want)
		}
	}
}

// A kept sum reads the N highest or lowest dice, all of them when the
// pool has N or fewer, and 0 of no dice; N is at least 1.
func TestKeptSumReading(t *testing.T) {
	for _, c := range []struct {
		kind string
		n    int
		d    []int
		want string
	}{
		{"sum_highest", 2, []int{3, 9, 14, 1, 7}, "23"}, {"sum_lowest", 2, []int{3, 9, 14, 1, 7}, "4"},
		{"sum_highest", 5, []int{3, 9}, "12"}, {"sum_lowest", 1, nil, "0"},
	} {
		d := append([]int(nil), c.d...)
		if got := (reading{kind: c.kind, arg: c.n}).read(d).String(); got != c.want || fmt.Sprint(d) != fmt.Sprint(c.d) {
			t.Errorf("%s(%d) of %v: %s (dice now %v), want %s", c.kind, c.n, c.d, got, d, c.want)
		}
	}
	src := strings.Replace(bigPool, "READ", "d.sum_highest(0)", 1)
	if _, err := Load([]byte(src)); err == nil || !strings.Contains(err.Error(), "d.sum_highest keeps at least one die") {
		t.Errorf("sum_highest(0): %v", err)
	}
}

// bigPool is a pool of n d6 (up to 32: 6^32 rolls) read as READ.
const bigPool = `system: big
title: {es: Grande, el: Μεγάλο, en: Big}
command: big
inputs:
  - {key: n, type: number, min: 1, max: 32, names: {es: dados, el: ζάρια, en: dice}}
  - {key: tn, type: number, min: 0, max: 200, names: {es: objetivo, el: στόχος, en: target}}
outcomes:
  - {key: success, success: true, names: {es: éxito, el: επιτυχία, en: success}}
  - {key: failure, success: false, names: {es: fallo, el: αποτυχία, en: failure}}
checks:
  - key: roll
    names: {es: tirada, el: ρίψη, en: roll}
    inputs: [n, tn]
    steps:
      - {roll: d, dice: n, faces: 6}
    total: READ
    result:
      on: READ - tn
      bands:
        - {at_least: "0", outcome: success}
        - {outcome: failure}
example: {es: 3 2, el: 3 2, en: 3 2}
`

// A pool past 10^15 rolls is exact when read one way (20 d6 by their
// sum: P(sum ≥ 70), counted here apart in big integers), and sampled,
// shown as not exact, when read two ways that are not both counts (its
// sum less its highest die: the multisets' enumeration counts in int64).
func TestWidePoolExactOrSampled(t *testing.T) {
	s, err := Load([]byte(strings.ReplaceAll(bigPool, "READ", "d.sum")))
	if err != nil {
		t.Fatal(err)
	}
	od, err := s.Odds("roll", Params{Inputs: map[string]int{"n": 20, "tn": 70}})
	if err != nil || !od.Exact {
		t.Fatalf("%v exact=%v", err, od != nil && od.Exact)
	}
	ways := []*big.Int{big.NewInt(1)} // ways 20 d6 sum to x
	for range 20 {
		next := make([]*big.Int, len(ways)+6)
		for i := range next {
			next[i] = new(big.Int)
		}
		for x, k := range ways {
			for f := 1; f <= 6; f++ {
				next[x+f].Add(next[x+f], k)
			}
		}
		ways = next
	}
	hit := new(big.Int)
	for x := 70; x < len(ways); x++ {
		hit.Add(hit, ways[x])
	}
	want := new(big.Rat).SetFrac(hit, new(big.Int).Exp(big.NewInt(6), big.NewInt(20), nil))
	if got := od.Outcomes["success"]; got == nil || got.Cmp(want) != 0 {
		t.Errorf("P(20d6 ≥ 70) = %v, want %s", got, want.RatString())
	}
	s, err = Load([]byte(strings.ReplaceAll(bigPool, "READ", "d.sum - d.highest")))
	if err != nil {
		t.Fatal(err)
	}
	od, err = s.Odds("roll", Params{Inputs: map[string]int{"n": 20, "tn": 70}})
	if err != nil || od.Exact {
		t.Fatalf("20 d6 read twice: %v exact=%v, want sampled", err, od != nil && od.Exact)
	}
}

// Every pool the outsiders' files let a user roll has exact odds that
// sum to 1: Shadowrun's 1 to 32 d6, L5R's 1k1 to 10k10 (10 d10 exploding
// 5 times: 10^60 rolls).
func TestEveryOutsiderPoolExact(t *testing.T) {
	load := func(name string) *System {
		src, err := os.ReadFile(filepath.Join("testdata", "outsider", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Load(src)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(s *System, words string) {
		p, err := s.ParseWords(strings.Fields(words))
		if err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		od, err := s.Odds(p.Check, s.Params(p))
		if err != nil || !od.Exact {
			t.Fatalf("%q: %v exact=%v", words, err, od != nil && od.Exact)
		}
		sum := new(big.Rat)
		for _, r := range od.Outcomes {
			sum.Add(sum, r)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%q: the outcomes sum to %s", words, sum.RatString())
		}
	}
	sr := load("sr5")
	for n := 1; n <= 32; n++ {
		check(sr, fmt.Sprintf("%d t%d", n, (n+2)/3))
	}
	l5r := load("l5r")
	for x := 1; x <= 10; x++ {
		for k := 1; k <= x; k++ {
			check(l5r, fmt.Sprintf("%dk%d tn%d", x, k, 7*k))
		}
	}
}

// A pool past 10^15 rolls read only by counts is folded in big integers
// while its walk is at most WideFoldBudget steps, else sampled: 32 d20
// read by count(1), count(2) and count_ge(9) (foldWork 132,088) are
// exact, each count binomial as counted here apart; read by three
// counts and count_ge(9) (1,003,882), sampled.
func TestWideFoldBudget(t *testing.T) {
	mk := func(reads ...reading) *rollStep {
		return &rollStep{faces: 20, reads: reads, memo: map[int]*poolDist{}, explode: map[int]bool{}}
	}
	ok := mk(reading{kind: "count", arg: 1}, reading{kind: "count", arg: 2}, reading{kind: "count_ge", arg: 9})
	over := mk(reading{kind: "count", arg: 1}, reading{kind: "count", arg: 2}, reading{kind: "count", arg: 3}, reading{kind: "count_ge", arg: 9})
	die, _, _ := ok.die()
	if w := ok.foldWork(die, 32); w > WideFoldBudget {
		t.Fatalf("foldWork %g over %d", w, WideFoldBudget)
	}
	if w := over.foldWork(die, 32); w <= WideFoldBudget {
		t.Fatalf("foldWork %g within %d", w, WideFoldBudget)
	}
	pd, exact := ok.dist(32)
	if !exact || pd.wden == nil {
		t.Fatalf("32 d20 read by 3 counts: exact %v", exact)
	}
	// P(count_ge(9) = h) = C(32, h)·12^h·8^(32−h) / 20^32.
	den := new(big.Int).Exp(big.NewInt(20), big.NewInt(32), nil)
	got := map[int64]*big.Rat{}
	for i, r := range pd.reads {
		h := r[2].n
		if got[h] == nil {
			got[h] = new(big.Rat)
		}
		got[h].Add(got[h], new(big.Rat).SetFrac(pd.wcounts[i], pd.wden))
	}
	for h := int64(0); h <= 32; h++ {
		w := new(big.Int).Binomial(32, h)
		w.Mul(w, new(big.Int).Exp(big.NewInt(12), big.NewInt(h), nil))
		w.Mul(w, new(big.Int).Exp(big.NewInt(8), big.NewInt(32-h), nil))
		if want := new(big.Rat).SetFrac(w, den); got[h] == nil || got[h].Cmp(want) != 0 {
			t.Errorf("%d dice of 9+: %v, want %s", h, got[h], want.RatString())
		}
	}
	if _, exact := over.dist(32); exact {
		t.Error("32 d20 read by 4 counts: exact, want sampled")
	}
}

// A pool past 10^15 rolls whose weights reduce under it stays in int64
// (the walk's fast path, and an opposed check's): 25 d6 read only by
// count_ge(5) are out of 3^25, h hits weighing C(25, h)·2^(25−h).
func TestWidePoolReducedToInt64(t *testing.T) {
	rs := &rollStep{faces: 6, reads: []reading{{kind: "count_ge", arg: 5}}, memo: map[int]*poolDist{}, explode: map[int]bool{}}
	pd, ok := rs.dist(25)
	if !ok || pd.wden != nil || pd.den != 847288609443 || len(pd.reads) != 26 {
		t.Fatalf("ok %v, wide %v, den %d, %d values", ok, pd != nil && pd.wden != nil, pd.den, len(pd.reads))
	}
	for i, r := range pd.reads {
		h := r[0].n
		want := new(big.Int).Binomial(25, h)
		want.Lsh(want, uint(25-h))
		if pd.counts[i] != want.Int64() {
			t.Errorf("%d hits: %d, want %s", h, pd.counts[i], want)
		}
	}
}

// A number kept typed in the chat (L5R's 6k3: `d.sum_highest(k)`) reads
// as the same keep written in the file, each k its own exact pool; k past
// the pool's dice keeps them all, and k of 0 keeps none.
func TestKeptSumTyped(t *testing.T) {
	typed := strings.Replace(strings.Replace(bigPool,
		"{key: tn,", "{key: k, type: number, min: 0, max: 40, names: {es: guardas, el: κρατάς, en: kept}}\n  - {key: tn,", 1),
		"inputs: [n, tn]", "inputs: [n, k, tn]", 1)
	typed = strings.Replace(typed, "example: {es: 3 2, el: 3 2, en: 3 2}", "example: {es: 3 2 2, el: 3 2 2, en: 3 2 2}", 1)
	s, err := Load([]byte(strings.ReplaceAll(typed, "READ", "d.sum_highest(k)")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, k, tn int }{{5, 3, 12}, {5, 1, 6}, {4, 4, 14}, {3, 7, 10}, {6, 2, 11}} {
		kept := min(c.k, c.n)
		lit, err := Load([]byte(strings.ReplaceAll(bigPool, "READ", fmt.Sprintf("d.sum_highest(%d)", kept))))
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := lit.Chance("roll", Params{Inputs: map[string]int{"n": c.n, "tn": c.tn}})
		if err != nil {
			t.Fatal(err)
		}
		got, exact, err := s.Chance("roll", Params{Inputs: map[string]int{"n": c.n, "k": c.k, "tn": c.tn}})
		if err != nil || !exact || got.Cmp(want) != 0 {
			t.Errorf("%dd6 keep %d ≥ %d: %v exact=%v err=%v, the file's keep %d gives %v", c.n, c.k, c.tn, got, exact, err, kept, want)
		}
	}
	got, _, err := s.Chance("roll", Params{Inputs: map[string]int{"n": 3, "k": 0, "tn": 1}})
	if err != nil || got.Sign() != 0 {
		t.Errorf("keep 0 ≥ 1: %v %v, want 0", got, err)
	}
}
