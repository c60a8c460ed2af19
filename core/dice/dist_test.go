package dice

import (
	"errors"
	"math/big"
	"slices"
	"testing"
)

// sameAsNotation: the odds core's pools give, fraction by fraction, the
// distribution of the dice notation that writes them.
func TestDistSameAsNotation(t *testing.T) {
	six := FairDie(6)
	ten := FairDie(10)
	for _, c := range []struct {
		in   string
		dist func() (*Dist, error)
	}{
		{"3d6", func() (*Dist, error) { return SumPool(six, 3) }},
		{"4d6kh3", func() (*Dist, error) { return HighestK(six, 4, 3) }},
		{"5d10kl2", func() (*Dist, error) { return LowestK(ten, 5, 2) }},
		{"8d10>=7", func() (*Dist, error) { return CountPool(ten, 8, func(v int64) bool { return v >= 7 }) }},
		{"6d10>=8f1", func() (*Dist, error) {
			return ScorePool(ten, 6, func(v int64) int64 {
				switch {
				case v >= 8:
					return 1
				case v == 1:
					return -1
				}
				return 0
			})
		}},
		{"1d6!", func() (*Dist, error) { return Exploding(six, func(v int64) bool { return v == 6 }, false) }},
		{"1d6!p", func() (*Dist, error) { return Exploding(six, func(v int64) bool { return v == 6 }, true) }},
		{"1d8!+1d6!", func() (*Dist, error) {
			a, err := Exploding(FairDie(8), func(v int64) bool { return v == 8 }, false)
			if err != nil {
				return nil, err
			}
			b, err := Exploding(six, func(v int64) bool { return v == 6 }, false)
			if err != nil {
				return nil, err
			}
			return Convolve(a, b)
		}},
		{"max(1d8, 1d6)", func() (*Dist, error) { return MaxOf(FairDie(8), six) }},
		{"2d6*2", func() (*Dist, error) {
			s, err := SumPool(six, 2)
			if err != nil {
				return nil, err
			}
			return s.Map(func(v int64) int64 { return 2 * v })
		}},
	} {
		o := exactOdds(t, c.in)
		d, err := c.dist()
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if d.Min() != o.Min || d.Max() != o.Max || !slices.Equal(d.Fractions(), o.Fractions()) || d.Approx() != o.Approx {
			t.Errorf("%s: the odds core gives %d..%d %v (approx %v), the notation %d..%d %v (approx %v)",
				c.in, d.Min(), d.Max(), d.Fractions(), d.Approx(), o.Min, o.Max, o.Fractions(), o.Approx)
		}
		if !o.Approx && d.Mean().Cmp(o.MeanExact) != 0 {
			t.Errorf("%s: mean %v, want %v", c.in, d.Mean(), o.MeanExact)
		}
	}
}

// TestFoldPoolV5 counts Vampire 5's successes (6 or more; each pair of
// tens adds two more) by FoldPool and by enumerating every roll of 5d10.
func TestFoldPoolV5(t *testing.T) {
	type v5 struct{ succ int64 }
	d, err := FoldPool(FairDie(10), 5, v5{}, func(s v5, face int64, n int) v5 {
		if face >= 6 {
			s.succ += int64(n)
		}
		if face == 10 {
			s.succ += 2 * int64(n/2)
		}
		return s
	}, func(s v5) int64 { return s.succ })
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]int64{}
	faces := make([]int, 5)
	var walk func(i int)
	walk = func(i int) {
		if i == len(faces) {
			var succ, tens int64
			for _, f := range faces {
				if f >= 6 {
					succ++
				}
				if f == 10 {
					tens++
				}
			}
			want[succ+2*(tens/2)]++
			return
		}
		for f := 1; f <= 10; f++ {
			faces[i] = f
			walk(i + 1)
		}
	}
	walk(0)
	for v := d.Min() - 1; v <= d.Max()+1; v++ {
		if got, w := d.Prob(v), big.NewRat(want[v], 100000); got.Cmp(w) != 0 {
			t.Errorf("P(%d) = %v, want %v", v, got, w)
		}
	}
	if d.AtLeast(5).Cmp(d.Where(func(v int64) bool { return v >= 5 })) != 0 {
		t.Error("AtLeast and Where disagree")
	}
}

// TestDistFromNotation: Expr.Dist is the distribution Odds reads, exact or
// cut, and past the budget says so instead of sampling.
func TestDistFromNotation(t *testing.T) {
	for _, in := range []string{"4d6!kh3", "8d10>=7f1", "3d6+fuerza"} {
		e, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Dist(names)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		o, err := e.Odds(names)
		if err != nil {
			t.Fatal(err)
		}
		if d.Min() != o.Min || d.Max() != o.Max || !slices.Equal(d.Fractions(), o.Fractions()) || d.Approx() != o.Approx {
			t.Errorf("%s: Dist %d..%d, Odds %d..%d", in, d.Min(), d.Max(), o.Min, o.Max)
		}
	}
	e, err := Parse("100d1000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Dist(nil); !errors.Is(err, ErrDistTooBig) {
		t.Errorf("100d1000: %v, want ErrDistTooBig", err)
	}
	if _, err := SumPool(FairDie(1000), 100); !errors.Is(err, ErrDistTooBig) {
		t.Errorf("SumPool(d1000, 100): %v, want ErrDistTooBig", err)
	}
}

// TestExplodingAtMost: a die that explodes at most times times, against
// every sequence of its faces (each stop of the chain weighed out of
// faces^(times+1)), exact and with no tail cut, even when every face
// explodes.
func TestExplodingAtMost(t *testing.T) {
	for _, c := range []struct {
		faces, times int
		on           map[int64]bool
	}{
		{6, 3, map[int64]bool{5: true, 6: true}},
		{4, 2, map[int64]bool{1: true, 2: true, 3: true, 4: true}},
		{20, 10, map[int64]bool{20: true}}, // past where Exploding's tail would cut
		{6, 0, map[int64]bool{6: true}},
	} {
		d, err := ExplodingAtMost(FairDie(c.faces), func(v int64) bool { return c.on[v] }, c.times)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64]*big.Rat{}
		var walk func(total int64, k int, p *big.Rat)
		walk = func(total int64, k int, p *big.Rat) {
			q := new(big.Rat).Mul(p, big.NewRat(1, int64(c.faces)))
			for f := int64(1); f <= int64(c.faces); f++ {
				if k < c.times && c.on[f] {
					walk(total+f, k+1, q)
					continue
				}
				if want[total+f] == nil {
					want[total+f] = new(big.Rat)
				}
				want[total+f].Add(want[total+f], q)
			}
		}
		walk(0, 0, big.NewRat(1, 1))
		if d.Approx() {
			t.Errorf("d%d to %d explosions: approx", c.faces, c.times)
		}
		for v := d.Min() - 1; v <= d.Max()+1; v++ {
			w := want[v]
			if w == nil {
				w = new(big.Rat)
			}
			if got := d.Prob(v); got.Cmp(w) != 0 {
				t.Errorf("d%d to %d explosions: P(%d) = %v, want %v", c.faces, c.times, v, got, w)
			}
		}
		for v := range want {
			if v < d.Min() || v > d.Max() {
				t.Errorf("d%d to %d explosions: %d outside %d..%d", c.faces, c.times, v, d.Min(), d.Max())
			}
		}
	}
}

// Weights are reduced by their greatest common divisor: 20 d6 counted by
// 5+ are out of 3^20 (a hit is 1 in 3), h hits weighing C(20, h)·2^(20−h),
// not out of 6^20.
func TestWeightsReduced(t *testing.T) {
	d, err := CountPool(FairDie(6), 20, func(v int64) bool { return v >= 5 })
	if err != nil {
		t.Fatal(err)
	}
	w, den := d.Weights()
	if want := new(big.Int).Exp(big.NewInt(3), big.NewInt(20), nil); den.Cmp(want) != 0 || d.Min() != 0 || len(w) != 21 {
		t.Fatalf("den %s (want %s), %d weights from %d", den, want, len(w), d.Min())
	}
	for h := range w {
		want := new(big.Int).Binomial(20, int64(h))
		want.Lsh(want, uint(20-h))
		if w[h].Cmp(want) != 0 {
			t.Errorf("%d hits: %s, want %s", h, w[h], want)
		}
	}
	w[0].SetInt64(-1) // the caller's copy
	if again, _ := d.Weights(); again[0].Sign() <= 0 {
		t.Error("Weights hands out the distribution's own integers")
	}
}
