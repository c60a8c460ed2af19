package engine

import (
	"math/big"

	"zaria/core/dice"
)

// Wide weights: a check whose dice have more equally likely sequences
// than an int64 counts (Dungeon Hack's largest attack, 10d20 against ten
// d12: 20¹⁰ × 12¹⁰ ≈ 6·10²³) is still walked exactly, its leaves weighed
// in big integers from the pool where int64 would overflow.

// walkWide is walk from step i on with big weights wn/wd: every leaf goes
// to w.wide. The leaves budget still applies.
func (w *walker) walkWide(e *env, i int, wn, wd *big.Int) {
	for ; i < len(w.steps) && w.steps[i].roll == nil; i++ {
		w.steps[i].let(e)
	}
	if w.over {
		return
	}
	if i == len(w.steps) {
		if w.leaves++; w.leaves > OddsBudget {
			w.over = true
			return
		}
		w.wide(e, wn, wd)
		return
	}
	st := &w.steps[i]
	pd := st.dist(e)
	if pd == nil {
		w.over = true
		return
	}
	first := st.roll.first
	if pd.den == 1 { // an empty pool: one reading, nothing to weigh
		copy(e.r[first:], pd.reads[0])
		w.walkWide(e, i+1, wn, wd)
		return
	}
	if pd.wden != nil {
		w.walkWidePool(e, i, pd, wn, wd)
		return
	}
	d := new(big.Int).Mul(wd, big.NewInt(pd.den))
	// One weight per step, reused for each of its branches: a leaf's
	// addWide copies what it keeps.
	for len(w.scratch) <= i {
		w.scratch = append(w.scratch, new(big.Int))
	}
	x := w.scratch[i]
	c := new(big.Int)
	for j, reads := range pd.reads {
		copy(e.r[first:], reads)
		w.walkWide(e, i+1, x.Mul(wn, c.SetInt64(pd.counts[j])), d)
	}
}

// addWide adds n/d: summed as integers while the denominators agree (a
// check without granted dice has one), else as a rational.
func (w *weight) addWide(n, d *big.Int) {
	switch {
	case w.bn == nil:
		w.bn, w.bd = new(big.Int).Set(n), d
	case w.bd == d || w.bd.Cmp(d) == 0:
		w.bn.Add(w.bn, n)
	default:
		if w.big == nil {
			w.big = new(big.Rat)
		}
		w.big.Add(w.big, new(big.Rat).SetFrac(n, d))
	}
}

// walkWidePool is walkWide through a wide pool (step i, distribution
// pd): its counts are big already.
func (w *walker) walkWidePool(e *env, i int, pd *poolDist, wn, wd *big.Int) {
	d := new(big.Int).Mul(wd, pd.wden)
	for len(w.scratch) <= i {
		w.scratch = append(w.scratch, new(big.Int))
	}
	x := w.scratch[i]
	first := w.steps[i].roll.first
	for j, reads := range pd.reads {
		copy(e.r[first:], reads)
		w.walkWide(e, i+1, x.Mul(wn, pd.wcounts[j]), d)
	}
}

// Wide pools: a pool of more than 10^15 equally likely rolls (Shadowrun's
// 20 d6, L5R's 10 d10 exploding) is still exact when read one way or
// only by counts: core/dice's convolutions and FoldPool count in big
// integers within their work budget, and the weights, reduced by their
// greatest common divisor, are walked by walkWide. Read otherwise it is
// sampled.

// wideDist is the distribution of a pool of n dice past 10^15 rolls, nil
// when it is read otherwise or past the odds core's budget.
func (rs *rollStep) wideDist(die *dice.Dist, n int) *poolDist {
	if d := rs.oneDist(die, n); d != nil {
		return wideFrom(d, func(v int64) []num { return []num{integer(v)} })
	}
	if rs.foldWork(die, n) > WideFoldBudget {
		return nil // sampled: a fold in big integers that long would take too long
	}
	if d, reads, _ := rs.countDist(die, n); d != nil {
		return wideFrom(d, func(v int64) []num { return reads[v] })
	}
	return nil
}

// wideFrom is the pool distribution of d's totals, each total's readings
// given by reads: in int64 when its reduced den is at most 10^15 (a d6
// counted by 5+: 3^n, 31 dice), else in big integers.
func wideFrom(d *dice.Dist, reads func(v int64) []num) *poolDist {
	w, den := d.Weights()
	small := den.IsInt64() && den.Int64() <= 1e15
	pd := &poolDist{}
	if small {
		pd.den = den.Int64()
	} else {
		pd.wden = den
	}
	for i, c := range w {
		if c.Sign() == 0 {
			continue
		}
		pd.reads = append(pd.reads, reads(d.Min()+int64(i)))
		if small {
			pd.counts = append(pd.counts, c.Int64())
		} else {
			pd.wcounts = append(pd.wcounts, c)
		}
	}
	return pd
}

// foldWork is about what FoldPool would spend on a pool of n dice read
// only by counts (0 when read otherwise): at the j-th kind of face, the
// vectors of the j kinds before of at most n dice (C(n+j, j)) each try
// the dice left, C(n+j+1, j+1) in all, weighed as the odds core weighs
// big integers (1 + bits/128). An upper bound: tallies that agree merge.
func (rs *rollStep) foldWork(die *dice.Dist, n int) float64 {
	sigs := map[uint8]bool{}
	for v := die.Min(); v <= die.Max(); v++ {
		var sig uint8
		for j, rd := range rs.reads {
			switch rd.kind {
			case "count", "count_ge", "count_le", "all", "any", "size":
			default:
				return 0
			}
			if rd.counts(v) {
				sig |= 1 << j
			}
		}
		sigs[sig] = true
	}
	work, c := 0.0, 1.0 // c: C(n+j+1, j+1)
	for j := range len(sigs) {
		c = c * float64(n+j+1) / float64(j+1)
		work += c
	}
	_, den := die.Weights()
	return work * float64(1+n*den.BitLen()/128)
}
