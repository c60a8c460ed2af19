package engine

import "math/big"

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
