package dice

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// Dist is the odds core for other packages (the system files' engine): an
// exact probability distribution over int64 totals, P(v) = weight(v)/den
// with big-integer weights, built by the same code as Expr.Odds, so that a
// pool a system defines has the same odds, exact to the fraction, as the
// dice notation that writes it.
//
// Build one with Const, FairDie, Uniform, Weighted, Exploding, Expr.Dist
// (any expression of the dice notation), or from a pool of n independent
// dice: SumPool (the sum), HighestK and LowestK (the sum of the k highest
// or lowest), CountPool (how many dice match), ScorePool (a score per die
// added up, for successes and failures) and FoldPool (any statistic
// computed face by face, e.g. V5's pairs of tens). Combine them with
// Convolve (a + b), Combine (any f(a, b)), MaxOf, MinOf and Map. Read them
// with Min, Max, Prob, AtLeast, AtMost, Where, Mean, Fractions, Rats,
// Floats, and Odds (the figures /odds renders).
//
// Every constructor and combinator works within WorkBudget and MaxCells
// and returns ErrDistTooBig past them (100d1000's 99,901 totals, for one;
// Expr.Odds samples those instead). A Dist is immutable and safe for
// concurrent reads.
// Approx reports that an explosion's tail was cut where the rest weighed
// under ExplodeTail (10⁻¹²): then the weights are those of the distribution
// as cut, each total's exact share of it.
type Dist struct {
	d      *dist
	approx bool
	open   bool // weight was cut past Max (an explosion's total has no ceiling)
}

// ErrDistTooBig reports that a distribution would take more than the
// exact-odds budget (WorkBudget multiply-adds, MaxCells totals).
var ErrDistTooBig = errors.New("dice: distribution over the exact-odds budget")

func newCtx() *oddsCtx { return &oddsCtx{limit: WorkBudget} }

// wrap turns the result of internal work into a Dist.
func wrap(d *dist, err error, approx, open bool) (*Dist, error) {
	if err != nil {
		if errors.Is(err, errBudget) || errors.Is(err, errSampled) {
			return nil, fmt.Errorf("%w (%w)", ErrDistTooBig, err)
		}
		return nil, err
	}
	return &Dist{d: d.trim(), approx: approx, open: open}, nil
}

// Const is the distribution of v, certain.
func Const(v int64) *Dist { return &Dist{d: constDist(v)} }

// FairDie is one fair die of sides faces, 1 to sides (sides from 1 to
// MaxCells; out of that range, the nearest).
func FairDie(sides int) *Dist {
	d, _ := Uniform(1, int64(min(max(sides, 1), MaxCells)))
	return d
}

// Uniform is every total from lo to hi, equally likely.
func Uniform(lo, hi int64) (*Dist, error) {
	if hi < lo {
		return nil, fmt.Errorf("dice: Uniform(%d, %d): empty", lo, hi)
	}
	d, err := newDist(lo, hi)
	if err != nil {
		return wrap(nil, err, false, false)
	}
	for i := range d.c {
		d.c[i].SetInt64(1)
	}
	d.den.SetInt64(int64(len(d.c)))
	return &Dist{d: d}, nil
}

// Weighted is P(lo+i) = weights[i] / Σ weights: a die with faces of
// uneven chance (a d6 numbered 1,1,2,2,3,4 is Weighted(1, 2, 2, 1, 1)).
// The weights are ≥ 0, not all 0.
func Weighted(lo int64, weights ...int64) (*Dist, error) {
	d, err := newDist(lo, lo+int64(len(weights))-1)
	if err != nil {
		return wrap(nil, err, false, false)
	}
	for i, w := range weights {
		if w < 0 {
			return nil, fmt.Errorf("dice: Weighted: negative weight %d", w)
		}
		d.c[i].SetInt64(w)
		d.den.Add(&d.den, &d.c[i])
	}
	if d.den.Sign() == 0 {
		return nil, errors.New("dice: Weighted: every weight is 0")
	}
	return &Dist{d: d.trim()}, nil
}

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

// ExplodingAtMost is one die that explodes at most times times (a
// system file's explode: {on: [...], times: N}): face is rolled, and
// while explode(the face rolled) holds and fewer than times faces were
// added, another face is rolled and added. Exact, no tail cut: the die
// as it is rolled, each total out of face's denominator to the times+1.
func ExplodingAtMost(face *Dist, explode func(v int64) bool, times int) (*Dist, error) {
	if times <= 0 {
		return face, nil
	}
	d, err := newCtx().chainTo(face.d, explode, times, ident, ident)
	return wrap(d, err, face.approx, face.open)
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

// MinOf is the distribution of the lower of a and b.
func MinOf(a, b *Dist) (*Dist, error) {
	return Combine(a, b, func(x, y int64) int64 { return min(x, y) })
}

// Map is the distribution of f(a).
func (a *Dist) Map(f func(int64) int64) (*Dist, error) {
	d, err := newCtx().mapDist(a.d, f)
	return wrap(d, err, a.approx, a.open)
}

// SumPool is the sum of n independent dice of distribution die (n ≥ 0).
func SumPool(die *Dist, n int) (*Dist, error) {
	if n <= 0 {
		return Const(0), nil
	}
	d, err := newCtx().sumN(die.d, n)
	return wrap(d, err, die.approx, die.open)
}

// HighestK is the sum of the k highest of n independent dice (4d6kh3 is
// HighestK(FairDie(6), 4, 3)); k ≥ n keeps them all, k ≤ 0 none.
func HighestK(die *Dist, n, k int) (*Dist, error) {
	d, err := newCtx().keepN(die.d, n, KeepHigh, k, ident)
	return wrap(d, err, die.approx, die.open && k > 0)
}

// LowestK is the sum of the k lowest of n independent dice.
func LowestK(die *Dist, n, k int) (*Dist, error) {
	d, err := newCtx().keepN(die.d, n, KeepLow, k, ident)
	return wrap(d, err, die.approx, die.open && k > 0)
}

// CountPool is how many of n independent dice show a face for which match
// holds (8d10>=7 is CountPool(FairDie(10), 8, ≥7)).
func CountPool(die *Dist, n int, match func(face int64) bool) (*Dist, error) {
	return ScorePool(die, n, func(v int64) int64 {
		if match(v) {
			return 1
		}
		return 0
	})
}

// ScorePool is the sum of score(face) over n independent dice: +1 for a
// success and −1 for a failure counts both (8d10>=7f1).
func ScorePool(die *Dist, n int, score func(face int64) int64) (*Dist, error) {
	u, err := die.Map(score)
	if err != nil {
		return nil, err
	}
	d, err := SumPool(u, n)
	if err == nil {
		d.open = false
	}
	return d, err
}

// FoldPool is the distribution of a statistic of n independent dice that
// depends only on how many dice show each face (not on their order): the
// multiset walk of Icepool (Liu, AIIDE 2022). The faces of die are
// visited from the lowest up; for each, step gets the state so far, the
// face, and how many of the n dice show it (0 to the dice left), and
// returns the next state. total reads the final state's value. The work is
// faces × states × n: keep the state small (V5: the successes and whether
// a ten is left unpaired).
func FoldPool[S comparable](die *Dist, n int, init S, step func(s S, face int64, count int) S, total func(S) int64) (*Dist, error) {
	type key struct {
		s    S
		left int
	}
	oc := newCtx()
	var faces []int64
	die.d.each(func(v int64, _ *big.Int) { faces = append(faces, v) })
	cur := map[key]*big.Int{{init, n}: big.NewInt(1)}
	var tmp big.Int
	pow := make([]big.Int, n+1)
	for fi, v := range faces {
		w := &die.d.c[v-die.d.lo]
		pow[0].SetInt64(1)
		for j := 1; j <= n; j++ {
			pow[j].Mul(&pow[j-1], w)
		}
		last := fi == len(faces)-1
		next := make(map[key]*big.Int, len(cur))
		for k, c := range cur {
			if err := oc.spend((k.left + 1) * weight(n*die.d.den.BitLen())); err != nil {
				return wrap(nil, err, false, false)
			}
			from := 0
			if last {
				from = k.left // the last face takes every die left
			}
			for j := from; j <= k.left; j++ {
				nk := key{step(k.s, v, j), k.left - j}
				tmp.Mul(oc.binomial(k.left, j), &pow[j])
				tmp.Mul(&tmp, c)
				if x := next[nk]; x != nil {
					x.Add(x, &tmp)
				} else {
					next[nk] = new(big.Int).Set(&tmp)
				}
			}
		}
		cur = next
	}
	vals := map[int64]*big.Int{}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for k, c := range cur {
		v := total(k.s)
		lo, hi = min(lo, v), max(hi, v)
		if x := vals[v]; x != nil {
			x.Add(x, c)
		} else {
			vals[v] = c
		}
	}
	if n == 0 {
		return Const(total(init)), nil
	}
	r, err := newDist(lo, hi)
	if err != nil {
		return wrap(nil, err, false, false)
	}
	for v, c := range vals {
		r.c[v-lo].Set(c)
	}
	r.den.Exp(&die.d.den, big.NewInt(int64(n)), nil)
	return wrap(r, nil, die.approx, die.open)
}

// each calls f with every total of nonzero weight, lowest first.
func (d *dist) each(f func(v int64, w *big.Int)) {
	for i := range d.c {
		if d.c[i].Sign() != 0 {
			f(d.lo+int64(i), &d.c[i])
		}
	}
}

// Min is the lowest total.
func (a *Dist) Min() int64 { return a.d.lo }

// Max is the highest total (of the distribution as cut, when Approx).
func (a *Dist) Max() int64 { return a.d.hi() }

// Approx reports that an explosion's tail was cut: what is left out
// weighs less than ExplodeTail.
func (a *Dist) Approx() bool { return a.approx }

// Prob is P(total = v).
func (a *Dist) Prob(v int64) *big.Rat { return a.d.prob(v) }

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

// AtMost is P(total ≤ v).
func (a *Dist) AtMost(v int64) *big.Rat { return a.Where(func(x int64) bool { return x <= v }) }

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

// Rats returns P(total = Min+i) for every total from Min to Max.
func (a *Dist) Rats() []*big.Rat {
	out := make([]*big.Rat, len(a.d.c))
	for i := range a.d.c {
		out[i] = new(big.Rat).SetFrac(&a.d.c[i], &a.d.den)
	}
	return out
}

// Fractions returns P(total = Min+i) as "p/q", as Odds.Fractions does.
func (a *Dist) Fractions() []string { return (&Odds{dist: a.d}).Fractions() }

// Floats returns P(total = Min+i) as float64, for drawing.
func (a *Dist) Floats() []float64 { return (&Odds{dist: a.d}).Floats() }

// Odds returns the figures /odds renders for this distribution: with
// hasTarget, Chance is P(total ≥ target).
func (a *Dist) Odds(target int64, hasTarget bool) *Odds {
	o := &Odds{Target: target, HasChance: hasTarget}
	o.fromDist(a.d, a.approx) // read only: the Odds may share it
	o.Open = a.open
	return o
}

func (d *dist) prob(v int64) *big.Rat {
	if v < d.lo || v > d.hi() {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(&d.c[v-d.lo], &d.den)
}
