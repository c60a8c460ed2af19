package dice

import (
	"math"
	"math/big"
)

// group is the distribution of a grouped roll's value. Its expressions
// are independent: their totals add by convolution, their successes are
// a sum of Bernoulli variables (±1 for failures), and keeping or dropping
// some of them is an order statistic of independent, differently
// distributed totals (keepMixed).
func (oc *oddsCtx) group(g *Group) (*dist, error) {
	if g.PerDie {
		return oc.groupDice(g)
	}
	ds := make([]*dist, len(g.Items))
	for i, x := range g.Items {
		d, err := oc.node(x)
		if err != nil {
			return nil, err
		}
		ds[i] = d
	}
	score := g.score()
	if g.Keep.Mode == NoKeep {
		if g.Success != nil {
			for i := range ds {
				var err error
				if ds[i], err = oc.mapDist(ds[i], score); err != nil {
					return nil, err
				}
			}
		}
		return oc.sumAll(ds)
	}
	c := ident
	if g.Success != nil {
		c = score
	}
	types := make([]keepType, len(ds))
	for i, d := range ds {
		types[i] = keepType{d, 1}
	}
	return oc.keepMixed(types, g.Keep.Mode, g.Keep.N, c)
}

// score is what one total adds to a group's count: +1, −1 or 0.
func (g *Group) score() func(int64) int64 {
	return func(v int64) int64 {
		switch {
		case g.Success.Match64(v):
			return 1
		case g.Failure != nil && g.Failure.Match64(v):
			return -1
		}
		return 0
	}
}

func (oc *oddsCtx) sumAll(ds []*dist) (*dist, error) {
	acc := ds[0]
	for _, d := range ds[1:] {
		var err error
		if acc, err = oc.conv(acc, d, 1); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// groupDice is the distribution of a group of one expression whose
// modifier acts on the dice of its terms (dice, numbers and names added
// together).
func (oc *oddsCtx) groupDice(g *Group) (*dist, error) {
	if g.Keep.Mode == NoKeep {
		// Counting alone: each term counts as a success pool of its own.
		ds := make([]*dist, len(g.terms))
		for i, d := range g.terms {
			pool := *d
			pool.Success, pool.Failure = g.Success, g.Failure
			var err error
			if ds[i], err = oc.term(&pool); err != nil {
				return nil, err
			}
		}
		return oc.sumAll(ds)
	}
	c := ident
	if g.Success != nil {
		c = func(v int64) int64 {
			switch {
			case g.Success.Match64(v):
				return 1
			case g.Failure != nil && g.Failure.Match64(v):
				return -1
			}
			return 0
		}
	}
	types := make([]keepType, len(g.terms))
	for i, d := range g.terms {
		if d.CountX != nil || d.SidesX != nil {
			return nil, errSampled
		}
		f := oc.faceDist(d)
		u := f
		var err error
		switch d.Explode.Mode {
		case Explode, Penetrate:
			return nil, errSampled // every die an explosion adds is ranked on its own
		case Compound:
			u, err = oc.chain(f, explodes(d), d.Count, ident, ident)
		}
		if err == nil && d.clamps() {
			u, err = oc.mapDist(u, func(v int64) int64 { return int64(d.Clamp(int(v))) })
		}
		if err != nil {
			return nil, err
		}
		types[i] = keepType{u, d.Count}
	}
	r, err := oc.keepMixed(types, g.Keep.Mode, g.Keep.N, c)
	if err != nil {
		return nil, err
	}
	r.lo += oc.constants(g.Items[0])
	return r, nil
}

// constants is the sum of the numbers and names of a sum of terms.
func (oc *oddsCtx) constants(n Node) int64 {
	switch n := n.(type) {
	case *Num:
		return n.V
	case *Name:
		return oc.names[n.idx]
	case *Binary:
		return oc.constants(n.L) + oc.constants(n.R)
	}
	return 0
}

// keepType is n independent units of distribution u.
type keepType struct {
	u *dist
	n int
}

func sameDist(a, b *dist) bool {
	if a.lo != b.lo || len(a.c) != len(b.c) || a.den.Cmp(&b.den) != 0 {
		return false
	}
	for i := range a.c {
		if a.c[i].Cmp(&b.c[i]) != 0 {
			return false
		}
	}
	return true
}

// keepMixed is keepN for units of several distributions: the sum of the
// contributions c of the units kept. Units of equal distributions are one
// type; a single type is keepN's, one unit kept is the largest or
// smallest (from products of cumulative distributions), and anything else
// the same dynamic program over faces in rank order as keepN, whose
// state counts the units placed of each type.
func (oc *oddsCtx) keepMixed(types []keepType, mode KeepMode, k int, c func(int64) int64) (*dist, error) {
	var ts []keepType
	n := 0
	for _, t := range types {
		n += t.n
		merged := false
		for i := range ts {
			if sameDist(ts[i].u, t.u) {
				ts[i].n += t.n
				merged = true
				break
			}
		}
		if !merged {
			ts = append(ts, t)
		}
	}
	if len(ts) == 1 {
		return oc.keepN(ts[0].u, n, mode, k, c)
	}
	desc, k := keepOrder(mode, n, k)
	if k <= 0 {
		return constDist(0), nil
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	bitsDen := 0
	for _, t := range ts {
		lo, hi = min(lo, t.u.lo), max(hi, t.u.hi())
		bitsDen += t.n * t.u.den.BitLen()
	}
	if hi-lo+1 > MaxCells {
		return nil, errBudget
	}
	// faces in visiting order, and each type's count of each
	values := make([]int64, 0, hi-lo+1)
	for i := range hi - lo + 1 {
		v := lo + i
		if !desc {
			v = hi - i // visited last to first below: the reverse of ranking
		}
		values = append(values, v)
	}
	count := func(t keepType, v int64) *big.Int {
		if v < t.u.lo || v > t.u.hi() {
			return new(big.Int)
		}
		return &t.u.c[v-t.u.lo]
	}
	res := &dist{}
	for _, t := range ts {
		var p big.Int
		p.Exp(&t.u.den, big.NewInt(int64(t.n)), nil)
		if res.den.Sign() == 0 {
			res.den.Set(&p)
		} else {
			res.den.Mul(&res.den, &p)
		}
	}
	if k == 1 {
		return oc.extreme(ts, values, count, res, c, bitsDen)
	}
	// Visit the faces in rank order.
	for i, j := 0, len(values)-1; i < j; i, j = i+1, j-1 {
		values[i], values[j] = values[j], values[i]
	}
	return oc.keepStates(ts, values, count, res, k, c, bitsDen)
}

// extreme is the distribution of c(the one unit kept): with values from
// lowest to highest rank, P(best ≤ v) = Π_t P(unit of t ≤ v)^n_t.
func (oc *oddsCtx) extreme(ts []keepType, values []int64, count func(keepType, int64) *big.Int, res *dist, c func(int64) int64, bitsDen int) (*dist, error) {
	if err := oc.spend(len(values) * len(ts) * 2 * weight(bitsDen)); err != nil {
		return nil, err
	}
	cum := make([]big.Int, len(ts))
	var prev, g, p big.Int
	cmin, cmax := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range values {
		cv := c(v)
		cmin, cmax = min(cmin, cv), max(cmax, cv)
	}
	r, err := newDist(cmin, cmax)
	if err != nil {
		return nil, err
	}
	r.den.Set(&res.den)
	for _, v := range values {
		g.SetInt64(1)
		for i, t := range ts {
			cum[i].Add(&cum[i], count(t, v))
			p.Exp(&cum[i], big.NewInt(int64(t.n)), nil)
			g.Mul(&g, &p)
		}
		p.Sub(&g, &prev)
		cv := c(v) - cmin
		r.c[cv].Add(&r.c[cv], &p)
		prev.Set(&g)
	}
	return r.trim(), nil
}

// keepStates is keepN's program for several types: values in rank order;
// a state is the number of units of each type placed so far (all kept,
// fewer than k in all) with the sum of their contributions.
func (oc *oddsCtx) keepStates(ts []keepType, values []int64, count func(keepType, int64) *big.Int, res *dist, k int, c func(int64) int64, bitsDen int) (*dist, error) {
	// the states and the moves from each: estimated first, in full
	states, moves := 1, 1
	stride := make([]int, len(ts))
	for i, t := range ts {
		stride[i] = states
		states = satMul(states, t.n+1)
		moves = satMul(moves, (t.n+1)*(t.n+2)/2)
	}
	cmin, cmax := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range values {
		cv := c(v)
		cmin, cmax = min(cmin, cv), max(cmax, cv)
	}
	lo, hi := min(0, int64(k)*cmin), max(0, int64(k)*cmax)
	width := int(hi - lo + 1)
	cost := satMul(satMul(satMul(len(values), moves), width), weight(bitsDen))
	if err := oc.spend(cost); err != nil {
		return nil, err
	}
	r, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	r.den.Set(&res.den)
	// rest[i][t]: weight of type t's faces after values[i]
	rest := make([][]big.Int, len(values)+1)
	rest[len(values)] = make([]big.Int, len(ts))
	for i := len(values) - 1; i >= 0; i-- {
		rest[i] = make([]big.Int, len(ts))
		for t := range ts {
			rest[i][t].Add(&rest[i+1][t], count(ts[t], values[i]))
		}
	}
	state := make([][]big.Int, states)
	next := make([][]big.Int, states)
	state[0] = make([]big.Int, width)
	state[0][-lo].SetInt64(1)
	m := make([]int, len(ts))
	j := make([]int, len(ts))
	var w, coef, tmp big.Int
	for i, v := range values {
		cv := int(c(v))
		for s := range next {
			next[s] = nil
		}
		for idx, row := range state {
			if row == nil {
				continue
			}
			placed := 0
			for t := range ts {
				m[t] = idx / stride[t] % (ts[t].n + 1)
				placed += m[t]
			}
			// every j with j[t] ≤ n_t − m[t], as an odometer
			clear(j)
			for {
				jt, ok := 0, true
				coef.SetInt64(1)
				for t := range ts {
					if j[t] == 0 {
						continue
					}
					cnt := count(ts[t], v)
					if cnt.Sign() == 0 {
						ok = false
						break
					}
					jt += j[t]
					tmp.Exp(cnt, big.NewInt(int64(j[t])), nil)
					coef.Mul(&coef, &tmp)
					coef.Mul(&coef, oc.binomial(ts[t].n-m[t], j[t]))
				}
				if ok {
					kept := min(jt, k-placed)
					done := placed+jt >= k
					to := idx
					if done {
						for t := range ts {
							tmp.Exp(&rest[i+1][t], big.NewInt(int64(ts[t].n-m[t]-j[t])), nil)
							coef.Mul(&coef, &tmp)
						}
					} else {
						for t := range ts {
							to += j[t] * stride[t]
						}
						if next[to] == nil {
							next[to] = make([]big.Int, width)
						}
					}
					for s := range row {
						if row[s].Sign() == 0 {
							continue
						}
						w.Mul(&coef, &row[s])
						ss := s + kept*cv
						if done {
							r.c[ss].Add(&r.c[ss], &w)
						} else {
							next[to][ss].Add(&next[to][ss], &w)
						}
					}
				}
				t := 0
				for t < len(ts) {
					j[t]++
					if j[t] <= ts[t].n-m[t] {
						break
					}
					j[t] = 0
					t++
				}
				if t == len(ts) {
					break
				}
			}
		}
		state, next = next, state
	}
	return r.trim(), nil
}

// satMul multiplies, saturating at MaxInt.
func satMul(a, b int) int {
	if a != 0 && b > math.MaxInt/a {
		return math.MaxInt
	}
	return a * b
}
