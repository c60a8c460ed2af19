package dice

// The odds core's constructors, combinators and readings that only this
// package's tests use: the references its tests compare Dist with.

import (
	"fmt"
	"math"
	"math/big"
)

// Exploding is one exploding die (Savage Worlds' ace, zaria's 1d6!): face
// is rolled, and while explode(the face rolled) holds another face is rolled
// and added; with penetrate each added face counts one less (1d6!p).
// The chain is cut where the chance of going on falls under ExplodeTail
// (Approx), or at MaxDraws faces. A compounding die (1d6!!) has the same
// distribution as an exploding one.
func Exploding(face *Dist, explode func(v int64) bool, penetrate bool) (*Dist, error) {
	oc := newCtx()
	h1 := ident
	if penetrate {
		h1 = func(v int64) int64 { return v - 1 }
	}
	all := true
	for i := range face.d.c {
		if face.d.c[i].Sign() != 0 && !explode(face.d.lo+int64(i)) {
			all = false
		}
	}
	if all {
		return nil, fmt.Errorf("%w: every face explodes", ErrDistTooBig)
	}
	d, err := oc.chain(face.d, explode, 1, ident, h1)
	return wrap(d, err, oc.approx || face.approx, true)
}

// Dist is the exact distribution of the expression's total (one
// repetition), as Odds computes it, names resolved through lookup: a
// pool written in dice notation ("4d6!kh3", "8d10>=7f1") to combine with
// the rest of the odds core. Past WorkBudget it returns ErrDistTooBig
// (Odds would sample).
func (e *Expr) Dist(lookup Lookup) (*Dist, error) {
	names, err := e.resolve(lookup)
	if err != nil {
		return nil, err
	}
	oc := &oddsCtx{names: names, limit: WorkBudget}
	d, err := oc.node(e.Root)
	return wrap(d, err, oc.approx, oc.open)
}

// Convolve is the distribution of a + b, a and b independent.
func Convolve(a, b *Dist) (*Dist, error) {
	d, err := newCtx().conv(a.d, b.d, 1)
	return wrap(d, err, a.approx || b.approx, a.open || b.open)
}

// Combine is the distribution of f(a, b), a and b independent.
func Combine(a, b *Dist, f func(x, y int64) int64) (*Dist, error) {
	oc := newCtx()
	if err := oc.spend(2 * len(a.d.c) * len(b.d.c) * weight(a.d.den.BitLen()+b.d.den.BitLen())); err != nil {
		return wrap(nil, err, false, false)
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	a.d.each(func(x int64, _ *big.Int) {
		b.d.each(func(y int64, _ *big.Int) {
			v := f(x, y)
			lo, hi = min(lo, v), max(hi, v)
		})
	})
	r, err := newDist(lo, hi)
	if err != nil {
		return wrap(nil, err, false, false)
	}
	r.den.Mul(&a.d.den, &b.d.den)
	var tmp big.Int
	a.d.each(func(x int64, wx *big.Int) {
		b.d.each(func(y int64, wy *big.Int) {
			v := f(x, y) - lo
			tmp.Mul(wx, wy)
			r.c[v].Add(&r.c[v], &tmp)
		})
	})
	return wrap(r, nil, a.approx || b.approx, a.open || b.open)
}

// MaxOf is the distribution of the higher of a and b (Savage Worlds'
// trait die and wild die).
func MaxOf(a, b *Dist) (*Dist, error) {
	return Combine(a, b, func(x, y int64) int64 { return max(x, y) })
}

// Mean is the exact mean (of the distribution as cut, when Approx).
func (a *Dist) Mean() *big.Rat {
	var sum, v, tmp big.Int
	a.d.each(func(x int64, w *big.Int) {
		v.SetInt64(x)
		tmp.Mul(&v, w)
		sum.Add(&sum, &tmp)
	})
	return new(big.Rat).SetFrac(&sum, &a.d.den)
}

// Fractions returns P(total = Min+i) as "p/q", as Odds.Fractions does.
func (a *Dist) Fractions() []string { return (&Odds{dist: a.d}).Fractions() }

// Where is P(match(total)).
func (a *Dist) Where(match func(v int64) bool) *big.Rat {
	var sum big.Int
	a.d.each(func(v int64, w *big.Int) {
		if match(v) {
			sum.Add(&sum, w)
		}
	})
	return new(big.Rat).SetFrac(&sum, &a.d.den)
}

// AtLeast is P(total ≥ v).
func (a *Dist) AtLeast(v int64) *big.Rat { return a.Where(func(x int64) bool { return x >= v }) }

// Prob is P(total = v).
func (a *Dist) Prob(v int64) *big.Rat { return a.d.prob(v) }

func (d *dist) prob(v int64) *big.Rat {
	if v < d.lo || v > d.hi() {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(&d.c[v-d.lo], &d.den)
}
