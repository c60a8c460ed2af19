package dice

import (
	"math/big"
	"slices"
	"testing"
)

// exactOdds is Expr.Odds of in, which must parse and have odds.
func exactOdds(t *testing.T, in string) *Odds {
	t.Helper()
	e, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(nil)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return o
}

// oddsOf is the exact distribution of in, computed by oc.
func oddsOf(t *testing.T, oc *oddsCtx, in string) *dist {
	t.Helper()
	e, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	d, err := oc.node(e.Root)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return d
}

// TestExplodingSumsAgainstBruteForce: the sum of exploding dice, total
// by total as fractions, equals an enumeration of every way the dice fall
// with up to four explosions in all, for every total that no fifth
// explosion can reach (a d6 that explodes adds at least 6 + 1).
func TestExplodingSumsAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		in     string
		n      int64 // dice
		least  int64 // the least an explosion adds
		smalls int64 // the lowest total
	}{
		{"3d6!", 3, 6, 3}, {"3d6!!", 3, 6, 3}, {"2d10!>=8", 2, 8, 2},
	} {
		const explosions = 4
		want, _ := bruteForce(t, c.in, int(c.n)+explosions)
		o := oddsOf(t, &oddsCtx{}, c.in)
		// every total below this has all its ways within the enumeration
		reach := c.smalls + (explosions+1)*c.least
		for v := c.smalls - 1; v < reach; v++ {
			w := want[v]
			if w == nil {
				w = new(big.Rat)
			}
			if got := o.prob(v); got.Cmp(w) != 0 {
				t.Errorf("%s: P(%d) = %v, enumeration %v", c.in, v, got, w)
			}
		}
	}
}

// TestKeepAfterExplodeAgainstBruteForce: keeping after an explosion as
// Roll20 reads it (every added die a die of its own), with the explosions
// counted up to j, equals, fraction by fraction, an enumeration of every
// way the dice fall with up to j explosions.
func TestKeepAfterExplodeAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		in   string
		n, j int
	}{
		{"4d6!kh3", 4, 3}, {"3d10!kh2", 3, 2}, {"3d6!dl1", 3, 3}, {"3d4!pkh2", 3, 3}, {"4d6!>=5kl2", 4, 2}, {"3d6!kh2>=5", 3, 3},
	} {
		want, _ := bruteForce(t, c.in, c.n+c.j)
		o := oddsOf(t, &oddsCtx{cutJ: c.j}, c.in)
		for v := o.lo - 1; v <= o.hi()+1; v++ {
			w := want[v]
			if w == nil {
				w = new(big.Rat)
			}
			if got := o.prob(v); got.Cmp(w) != 0 {
				t.Errorf("%s: P(%d) = %v, enumeration %v", c.in, v, got, w)
			}
		}
		for v := range want {
			if v < o.lo || v > o.hi() {
				t.Errorf("%s: the enumeration reaches %d, the odds %d..%d", c.in, v, o.lo, o.hi())
			}
		}
	}
}

// TestBigPoolsAgainstBruteForce: keep and drop over pools of many faces,
// exact, equal to an enumeration of every roll.
func TestBigPoolsAgainstBruteForce(t *testing.T) {
	for _, in := range []string{"5d10kh3", "4d20dl1", "3d40kh2", "6d6kl2>=3"} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil || o.Approx {
			t.Fatalf("%s: %v, approx %v", in, err, o != nil && o.Approx)
		}
		want, lost := bruteForce(t, in, 10)
		if lost.Sign() != 0 {
			t.Fatalf("%s: lost %v", in, lost)
		}
		sameProbs(t, in, o, want)
	}
}

// TestIssue40Exact: every expression issue 40 found refused is computed,
// exactly or cut under 10⁻¹², not sampled; the sums of exploding dice are,
// fraction by fraction, the convolution (cell by cell, in math/big) of one
// die's distribution as cut; keep/drop over big pools equals the
// reference program in math/big.
func TestIssue40Exact(t *testing.T) {
	ref := &oddsCtx{noFast: true, limit: 1 << 40}
	for _, c := range []struct {
		in, die string
		n       int
	}{
		{"7d6!", "1d6!", 7}, {"10d6!", "1d6!", 10}, {"12d6!", "1d6!", 12}, {"6d10!", "1d10!", 6}, {"8d10!", "1d10!", 8},
		{"10d10!", "1d10!", 10}, {"12d10!", "1d10!", 12}, {"5d20!", "1d20!", 5}, {"6d10!>=8", "1d10!>=8", 6}, {"8d10!>=8", "1d10!>=8", 8},
		{"6d6!!", "1d6!!", 6}, {"8d6!p", "1d6!p", 8},
		{"6d100kh3", "", 0}, {"8d100d3", "", 0}, {"20d100kh5", "", 0}, {"30d10kh10", "", 0}, {"5d10!kh3", "", 0},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil || o.Sampled {
			t.Errorf("%s: %v, sampled %v", c.in, err, o != nil && o.Sampled)
			continue
		}
		got := oddsOf(t, &oddsCtx{}, c.in)
		var want *dist
		if c.die != "" {
			one := oddsOf(t, &oddsCtx{}, c.die)
			want = one
			for range c.n - 1 {
				if want, err = ref.conv(want, one, 1); err != nil {
					t.Fatal(err)
				}
			}
		} else {
			want = oddsOf(t, ref, c.in)
		}
		if !sameFractions(got, want) {
			t.Errorf("%s: %d..%d differs from the reference %d..%d", c.in, got.lo, got.hi(), want.lo, want.hi())
		}
	}
}

func sameFractions(a, b *dist) bool {
	fa := (&Odds{dist: a}).Fractions()
	fb := (&Odds{dist: b}).Fractions()
	return a.lo == b.lo && slices.Equal(fa, fb)
}

// TestPackedPathsAgree: the Kronecker convolution and the packed keep give
// the counts the cell-by-cell programs in math/big give, where the counts
// pass 128 bits or a pool has more than 60 dice, negative faces and
// success pools included.
func TestPackedPathsAgree(t *testing.T) {
	ref := &oddsCtx{noFast: true, limit: 1 << 40}
	for _, in := range []string{"20d20kh5", "70d4kh3", "30d10dl5", "62d6kh2>=5", "70dFkh5", "70dFkl5", "64d6kh3>=5f1",
		"40d20", "12d10!", "30d6+30d8", "50d6-40d8", "25d20kl4+10"} {
		// the same denominator and the same fractions: the same counts
		if fast, slow := oddsOf(t, &oddsCtx{}, in), oddsOf(t, ref, in); fast.den.Cmp(&slow.den) != 0 || !sameFractions(fast, slow) {
			t.Errorf("%s: fast %d..%d over %v, slow %d..%d over %v", in, fast.lo, fast.hi(), &fast.den, slow.lo, slow.hi(), &slow.den)
		}
	}
}

// TestKeepAfterExplodeRange: a keep after an explosion has a ceiling
// (5d10!kh3: 30), which the odds give as the highest total, not "30 or
// more"; a sum of exploding dice or a drop after one has none.
func TestKeepAfterExplodeRange(t *testing.T) {
	for in, want := range map[string]struct {
		lo, hi int64
		open   bool
	}{
		"5d10!kh3": {3, 30, false}, "4d6!kh3": {3, 18, false}, "4d6!kl1": {1, 5, false}, "3d6!": {3, 306, true}, "4d6!dl1": {3, 0, true},
	} {
		o := exactOdds(t, in)
		if !o.Approx || o.Open != want.open || o.Min != want.lo || (want.hi != 0 && o.Max != want.hi) {
			t.Errorf("%s: %d..%d approx %v open %v, want %d..%d open %v", in, o.Min, o.Max, o.Approx, o.Open, want.lo, want.hi, want.open)
		}
	}
}
