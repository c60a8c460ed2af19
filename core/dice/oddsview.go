package dice

import "math/big"

// HasDistribution reports whether the whole distribution is known: exact,
// cut, or, when Sampled, the share of each total among the samples (when
// they span at most MaxCells totals).
func (o *Odds) HasDistribution() bool { return o.dist != nil }

// Floats returns P(total = Min+i) as float64 for every total from Min to
// Max, for drawing (when Sampled, each total's share of the samples); nil
// without a distribution. The sum of the probabilities is 1 up to rounding.
func (o *Odds) Floats() []float64 {
	d := o.dist
	if d == nil {
		return nil
	}
	den := new(big.Float).SetInt(&d.den)
	out := make([]float64, len(d.c))
	var f big.Float
	for i := range d.c {
		if d.c[i].Sign() == 0 {
			continue
		}
		out[i], _ = f.Quo(f.SetInt(&d.c[i]), den).Float64()
	}
	return out
}

// Fractions returns P(total = Min+i) as exact fractions "p/q" (of the
// distribution as cut, when Approx), nil when sampled.
func (o *Odds) Fractions() []string {
	d := o.dist
	if d == nil || o.Sampled {
		return nil
	}
	out := make([]string, len(d.c))
	var r big.Rat
	for i := range d.c {
		out[i] = r.SetFrac(&d.c[i], &d.den).String()
	}
	return out
}

// ExplodeTail is the most an explosion's cut leaves out of a
// distribution: what lies past Odds.Max weighs less.
const ExplodeTail = explodeTail

// AtLeast returns the exact P(total ≥ x) for each x (exact unless Approx;
// when Sampled, the share of the samples; nil without a distribution),
// summing the distribution once from the top.
func (o *Odds) AtLeast(xs []int64) []*big.Rat {
	d := o.dist
	if d == nil {
		return nil
	}
	out := make([]*big.Rat, len(xs))
	var sum big.Int
	// Visit the totals from the top, answering each x when the sum reaches it.
	next := d.hi()
	for _, need := range sortedDesc(xs) {
		for ; next >= need && next >= d.lo; next-- {
			sum.Add(&sum, &d.c[next-d.lo])
		}
		for i, x := range xs {
			if x == need {
				out[i] = new(big.Rat).SetFrac(new(big.Int).Set(&sum), &d.den)
			}
		}
	}
	return out
}

func sortedDesc(xs []int64) []int64 {
	s := append([]int64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}
