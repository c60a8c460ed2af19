package dice

import (
	"math"
	"math/big"
	"testing"
)

// enumSrc walks every sequence of draws, depth first, like an odometer.
type enumSrc struct {
	path, ns []int
	pos      int
	maxDepth int
	cut      bool // this path went deeper than maxDepth
}

func (s *enumSrc) IntN(n int) int {
	if s.pos >= s.maxDepth {
		s.cut = true
		return 0
	}
	if s.pos < len(s.path) {
		s.ns[s.pos] = n
		s.pos++
		return s.path[s.pos-1]
	}
	s.path = append(s.path, 0)
	s.ns = append(s.ns, n)
	s.pos++
	return 0
}

// next moves to the next path; false when all are done.
func (s *enumSrc) next() bool {
	s.path, s.ns = s.path[:s.pos], s.ns[:s.pos]
	for i := len(s.path) - 1; i >= 0; i-- {
		if s.path[i]+1 < s.ns[i] {
			s.path[i]++
			s.path, s.ns = s.path[:i+1], s.ns[:i+1]
			s.pos, s.cut = 0, false
			return true
		}
	}
	return false
}

func (s *enumSrc) weight() *big.Rat {
	w := big.NewRat(1, 1)
	for _, n := range s.ns[:s.pos] {
		w.Mul(w, big.NewRat(1, int64(n)))
	}
	return w
}

// bruteForce enumerates every way the dice can fall and returns the exact
// distribution of the total (paths deeper than maxDepth are left out, and
// their weight returned as lost).
func bruteForce(t *testing.T, in string, maxDepth int) (map[int64]*big.Rat, *big.Rat) {
	t.Helper()
	e, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]*big.Rat{}
	lost := new(big.Rat)
	s := &enumSrc{maxDepth: maxDepth}
	for {
		res, err := e.Roll(s, names)
		w := s.weight()
		switch {
		case s.cut || err != nil:
			lost.Add(lost, w)
		default:
			if out[res.Total()] == nil {
				out[res.Total()] = new(big.Rat)
			}
			out[res.Total()].Add(out[res.Total()], w)
		}
		if !s.next() {
			return out, lost
		}
	}
}

// sameProbs checks that the exact odds o of in give every total from
// one below their range to one above it the probability want does (a
// total want lacks has none), and that they sum to 1.
func sameProbs(t *testing.T, in string, o *Odds, want map[int64]*big.Rat) {
	t.Helper()
	sum := new(big.Rat)
	for v := o.Min - 1; v <= o.Max+1; v++ {
		got, w := o.Prob(v), want[v]
		if w == nil {
			w = new(big.Rat)
		}
		if got.Cmp(w) != 0 {
			t.Errorf("%s: P(%d) = %v, brute force %v", in, v, got, w)
		}
		sum.Add(sum, got)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("%s: probabilities sum to %v", in, sum)
	}
}

func TestThreeD6DC12(t *testing.T) {
	e, err := Parse("3d6 dc12 ?")
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Approx || o.ChanceExact.Cmp(big.NewRat(3, 8)) != 0 || o.Chance != 0.375 {
		t.Fatalf("3d6 dc12: %v (%v) approx %v, want exactly 3/8", o.ChanceExact, o.Chance, o.Approx)
	}
	if o.MeanExact.Cmp(big.NewRat(21, 2)) != 0 || o.Min != 3 || o.Max != 18 {
		t.Errorf("3d6: mean %v, range %d..%d", o.MeanExact, o.Min, o.Max)
	}
}

// TestOddsExactAgainstBruteForce compares every probability with an
// independent enumeration of all the ways the dice fall.
func TestOddsExactAgainstBruteForce(t *testing.T) {
	for _, in := range []string{
		"3d6", "2d6+3", "1d20+fuerza", "4d6kh3", "4d6kl3", "5d6dh2", "5d6dl1", "4d6k1", "3d8kl2+1d4",
		"5d10>=7", "5d10>=7f1", "4d6<3", "3d6=6", "4dF", "4dF+2", "d%",
		"3d6ro", "3d6ro<3", "3d6ro>=5kh2",
		"2d6*1d4", "2d6-1d6", "1d6/2", "ceil(1d6/4)", "round(3d6/4)", "floor(2d6/3)", "abs(1d6-4)", "-1d6",
		"2d6*2+1", "(1d4+1)*(1d4-2)", "3d4kh2>=3", "4d4dl1>=3f1",
		"2d6 vs 7", "5d10>=7 vs 3", "3d6 dc 12+fuerza",
	} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(names)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if o.Approx {
			t.Errorf("%s: approx, want exact", in)
			continue
		}
		want, lost := bruteForce(t, in, 50)
		if lost.Sign() != 0 {
			t.Fatalf("%s: brute force lost %v", in, lost)
		}
		sameProbs(t, in, o, want)
		// the mean and the chance, recomputed from the enumeration
		mean, hit := new(big.Rat), new(big.Rat)
		for v, p := range want {
			mean.Add(mean, new(big.Rat).Mul(p, new(big.Rat).SetInt64(v)))
			if v >= o.Target {
				hit.Add(hit, p)
			}
		}
		if o.MeanExact.Cmp(mean) != 0 {
			t.Errorf("%s: mean %v, brute force %v", in, o.MeanExact, mean)
		}
		if o.HasChance && o.ChanceExact.Cmp(hit) != 0 {
			t.Errorf("%s: chance %v, brute force %v", in, o.ChanceExact, hit)
		}
	}
}

// TestOddsExplosions: explosions are cut (Approx) and agree with a deep
// enumeration to within what the enumeration leaves out.
func TestOddsExplosions(t *testing.T) {
	for _, c := range []struct {
		in    string
		depth int
	}{
		{"1d6!", 12}, {"2d4!", 10}, {"1d6!!", 12}, {"2d4!!", 10}, {"1d6!p", 12}, {"1d6!>=5", 12},
		{"2d4!kh1", 10}, {"2d4!!kl1", 10}, {"3d6!>=5 vs 2", 6}, {"3d10! >=8", 5}, {"2d4!p >=3f1", 10},
		{"2d4!!>=5", 10}, {"3d4!!>=5kh2", 7}, {"2d6r1!", 8}, {"2d6ro!", 6},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !o.Approx {
			t.Errorf("%s: an explosion should be marked approximate", c.in)
		}
		want, lost := bruteForce(t, c.in, c.depth)
		tol, _ := lost.Float64()
		tol += 1e-9
		var mean float64
		for v, p := range want {
			pf, _ := p.Float64()
			mean += pf * float64(v)
			if g, _ := o.Prob(v).Float64(); math.Abs(g-pf) > tol {
				t.Errorf("%s: P(%d) = %g, enumeration %g (±%g)", c.in, v, g, pf, tol)
			}
		}
		if math.Abs(mean-o.Mean) > tol*float64(o.Max+1)*2+1e-9 {
			t.Errorf("%s: mean %g, enumeration %g", c.in, o.Mean, mean)
		}
	}
}

// TestOddsRerolls: r rerolls without end, so the enumeration is cut; the
// exact odds must agree to within what it leaves out.
func TestOddsRerolls(t *testing.T) {
	for _, c := range []struct {
		in    string
		depth int
	}{{"4d6r1", 8}, {"2d6r<3kh1", 8}, {"3d6r<=2>=5", 6}, {"1d6r1!", 10}} {
		e, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, lost := bruteForce(t, c.in, c.depth)
		tol, _ := lost.Float64()
		tol += 1e-9
		for v, p := range want {
			pf, _ := p.Float64()
			if g, _ := o.Prob(v).Float64(); math.Abs(g-pf) > tol {
				t.Errorf("%s: P(%d) = %g, enumeration %g (±%g)", c.in, v, g, pf, tol)
			}
		}
	}
}

func TestOddsChanceForPools(t *testing.T) {
	// Without a target a pool's chance is "at least one success".
	e, _ := Parse("2d6>=5")
	o, err := e.Odds(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !o.HasChance || o.Target != 1 || o.ChanceExact.Cmp(big.NewRat(5, 9)) != 0 {
		t.Errorf("2d6>=5: %v target %d", o.ChanceExact, o.Target)
	}
	// 8d10>=7 vs 3: at least 3 successes, p = 0.4 each.
	e, _ = Parse("8d10>=7 vs 3")
	o, _ = e.Odds(nil)
	want := new(big.Rat)
	for k := 3; k <= 8; k++ {
		var c big.Int
		c.Binomial(8, int64(k))
		p := new(big.Rat).SetInt(&c)
		p.Mul(p, new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(4), big.NewInt(int64(k)), nil), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)))
		p.Mul(p, new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(8-k)), nil), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(8-k)), nil)))
		want.Add(want, p)
	}
	if o.ChanceExact.Cmp(want) != 0 {
		t.Errorf("8d10>=7 vs 3: %v, want %v", o.ChanceExact, want)
	}
	// A plain sum without a target has no chance to report.
	e, _ = Parse("2d6")
	if o, _ := e.Odds(nil); o.HasChance {
		t.Error("2d6 has a chance")
	}
}

// TestOddsLarge: the largest expressions stay exact where they fit the
// budget, and are otherwise sampled and flagged, never silently guessed.
func TestOddsLarge(t *testing.T) {
	for _, c := range []struct {
		in      string
		sampled bool
	}{
		{"100d6", false},
		{"10d10kh3 dc20", false},
		{"100d20>=15", false},
		{"30d20", false},
		{"100d1000", true},
		{"50d100", true},
		{"100d100kh50", true},
		{"20d1000*20d1000", true},
		{"10d6!>=4kh3>=5", false}, // each die on its own: the kept are the best of those that explode, then of the rest
		{"6d6!<2kh3", true},       // explodes on faces that rank low: sampled
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if o.Sampled != c.sampled {
			t.Errorf("%s: sampled %v, want %v", c.in, o.Sampled, c.sampled)
		}
		if o.Sampled && (!o.Approx || o.ChanceExact != nil || o.MeanExact != nil) {
			t.Errorf("%s: sampled odds must be flagged approximate and carry no exact figure", c.in)
		}
	}
	e, _ := Parse("100d1000")
	o, _ := e.Odds(nil)
	if math.Abs(o.Mean-50050) > 500 {
		t.Errorf("100d1000 sampled mean %g, want ≈ 50050", o.Mean)
	}
}

func TestOddsDivZero(t *testing.T) {
	for _, in := range []string{"1d6/(1d2-1)", "100d1000/(1d1-1)"} { // exact, sampled
		e, _ := Parse(in)
		if o, err := e.Odds(nil); err != ErrOddsDivZero || o != nil {
			t.Errorf("odds of %s: %v", in, err)
		}
	}
}

// TestRandomBounds is a property test: every roll lies within the
// distribution's support, for many seeds.
func TestRandomBounds(t *testing.T) {
	for _, in := range []string{"3d6", "4d6kh3+2", "8d10>=7f1", "2d6!", "1d20-5", "4dF", "3d6!!", "2d6!p", "4d6r1", "ceil(1d6/4)", "2d6*1d4"} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(500) {
			res, err := e.Roll(Seeded(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tot := res.Total(); tot < o.Min || (!o.Approx && tot > o.Max) {
				t.Errorf("%s seed %d: total %d outside [%d, %d]", in, seed, tot, o.Min, o.Max)
			}
		}
	}
}

// TestSampleAgreesWithExact checks the sampler itself against exact odds.
func TestSampleAgreesWithExact(t *testing.T) {
	for _, in := range []string{"3d6 dc12", "4d6kh3 vs 13", "8d10>=7f1 vs 2", "2d6*1d4 vs 10"} {
		e, _ := Parse(in)
		exact, err := e.Odds(nil)
		if err != nil || exact.Approx {
			t.Fatal(in, err)
		}
		s := &Odds{Target: exact.Target, HasChance: true}
		if err := e.sample(s, nil, SampleBudget); err != nil {
			t.Fatal(err)
		}
		if !s.Sampled || !s.Approx || math.Abs(s.Chance-exact.Chance) > 0.02 || math.Abs(s.Mean-exact.Mean) > 0.15 {
			t.Errorf("%s: sampled %.4f (mean %.3f), exact %.4f (mean %.3f)", in, s.Chance, s.Mean, exact.Chance, exact.Mean)
		}
	}
}

// TestFastPathsAgree: the machine-word convolution and keep/drop give the
// same exact distributions as math/big.
func TestFastPathsAgree(t *testing.T) {
	for _, in := range []string{"4d6kh3", "10d10kh3", "20d6dl5", "8d10kl2>=5f1", "2d20kh1+1d20kl1", "3d4!!kh2", "(1d4)d6kh2", "4d6min2max5",
		"60d2kh30", "30d4dh10>=3f1", "12d20kh6", "16d12kh8", "10d100", "2d6*1d4", "8d10>=7f1", "1d100+1d1000"} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := (&oddsCtx{}).node(e.Root)
		if err != nil {
			t.Fatal(in, err)
		}
		slow, err := (&oddsCtx{noFast: true}).node(e.Root)
		if err != nil {
			t.Fatal(in, err)
		}
		if fast.lo != slow.lo || len(fast.c) != len(slow.c) || fast.den.Cmp(&slow.den) != 0 {
			t.Fatalf("%s: fast %d+%d/%v, slow %d+%d/%v", in, fast.lo, len(fast.c), &fast.den, slow.lo, len(slow.c), &slow.den)
		}
		for i := range fast.c {
			if fast.c[i].Cmp(&slow.c[i]) != 0 {
				t.Errorf("%s: P(%d) fast %v, slow %v", in, fast.lo+int64(i), &fast.c[i], &slow.c[i])
				break
			}
		}
	}
}

// A leading sign followed by "+" is kept by the odds as by the roll:
// "-10+1d6" is −9 to −4 (it was 11 to 16, mean 13.5).
func TestOddsLeadingSign(t *testing.T) {
	for in, want := range map[string][3]int64{
		"-10+1d6":  {-13, -9, -4}, // mean×2, min, max
		"-1d6+10":  {13, 4, 9},
		"1+-1d4+1": {-1, -2, 1},
	} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil {
			t.Fatal(err)
		}
		if o.MeanExact.Cmp(big.NewRat(want[0], 2)) != 0 || o.Min != want[1] || o.Max != want[2] {
			t.Errorf("%s: mean %v, %d to %d; want %d/2, %d to %d", in, o.MeanExact, o.Min, o.Max, want[0], want[1], want[2])
		}
	}
}
