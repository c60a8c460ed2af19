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
// Build one with Const, FairDie, Uniform, ExplodingAtMost (a die that
// explodes a bounded number of times: Savage Worlds' aces), or from a
// pool of n independent dice: SumPool (the sum), HighestK and LowestK
// (the sum of the k highest or lowest), CountPool (how many dice match),
// ScorePool (a score per die added up, for successes and failures) and
// FoldPool (any statistic computed face by face, e.g. V5's pairs of
// tens). Map merges or renames totals. Read them with Min, Max, Approx
// and Counts (how many of den equally likely cases give each total), or
// Weights (the same in big integers, reduced: pools past int64). The
// package's tests hold the rest of the core they compare with (Exploding,
// Convolve, Combine, MaxOf, Expr.Dist, Prob: distops_test.go).
//
// Every constructor and combinator works within WorkBudget and MaxCells
// and returns ErrDistTooBig past them (100d1000's 99,901 totals, for one;
// Expr.Odds samples those instead). A Dist is immutable and safe for
// concurrent reads.
// Weights returns, for every total from Min to Max, its weight out of
// den in big integers, reduced by their greatest common divisor (a d6
// counted by 5+ over 20 dice is out of 3²⁰, not 6²⁰): copies, the
// caller's to keep. For a pool whose den outgrows Counts' int64.
func (a *Dist) Weights() (w []*big.Int, den *big.Int) {
	g := new(big.Int).Set(&a.d.den)
	for i := range a.d.c {
		if g.Cmp(big.NewInt(1)) == 0 {
			break
		}
		if a.d.c[i].Sign() != 0 {
			g.GCD(nil, nil, g, &a.d.c[i])
		}
	}
	w = make([]*big.Int, len(a.d.c))
	for i := range a.d.c {
		w[i] = new(big.Int).Quo(&a.d.c[i], g)
	}
	return w, new(big.Int).Quo(&a.d.den, g)
}

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
	if n <= 0 {
		return Const(total(init)), nil
	}
	oc := newCtx()
	var r *dist
	var err error
	if n <= 56 && n*die.d.den.BitLen() < 62 {
		r, err = foldSmall(oc, die, n, init, step, total)
	} else {
		r, err = foldBig(oc, die, n, init, step, total)
	}
	if err != nil {
		return wrap(nil, err, false, false)
	}
	r.den.Exp(&die.d.den, big.NewInt(int64(n)), nil)
	return wrap(r, nil, die.approx, die.open)
}

// foldKey is a state of FoldPool's walk: the statistic so far and how
// many dice the faces still to come share.
type foldKey[S comparable] struct {
	s    S
	left int
}

// foldNext is a map for the states one face can lead to from cur: at
// most one per die count of each state, one each from the last face.
func foldNext[S comparable, W any](cur map[foldKey[S]]W, last bool) map[foldKey[S]]W {
	if last {
		return make(map[foldKey[S]]W, len(cur))
	}
	size := 0
	for k := range cur {
		size += k.left + 1
	}
	return make(map[foldKey[S]]W, size)
}

// foldBig is FoldPool's walk in big integers: the weight of each total
// out of die's den^n (the caller sets den).
func foldBig[S comparable](oc *oddsCtx, die *Dist, n int, init S, step func(S, int64, int) S, total func(S) int64) (*dist, error) {
	cur := map[foldKey[S]]*big.Int{{init, n}: big.NewInt(1)}
	var tmp big.Int
	pow := make([]big.Int, n+1)
	faces := die.faces()
	for fi, v := range faces {
		w := &die.d.c[v-die.d.lo]
		pow[0].SetInt64(1)
		for j := 1; j <= n; j++ {
			pow[j].Mul(&pow[j-1], w)
		}
		next := foldNext(cur, fi == len(faces)-1)
		for k, c := range cur {
			if err := oc.spend((k.left + 1) * weight(n*die.d.den.BitLen())); err != nil {
				return nil, err
			}
			from := 0
			if fi == len(faces)-1 {
				from = k.left // the last face takes every die left
			}
			for j := from; j <= k.left; j++ {
				nk := foldKey[S]{step(k.s, v, j), k.left - j}
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
	for k, c := range cur {
		v := total(k.s)
		if x := vals[v]; x != nil {
			x.Add(x, c)
		} else {
			vals[v] = c
		}
	}
	r, err := newDist(span(vals))
	if err != nil {
		return nil, err
	}
	for v, c := range vals {
		r.c[v-r.lo].Set(c)
	}
	return r, nil
}

// foldSmall is foldBig in machine integers, for when den^n fits an int64
// (every weight of the walk is part of it) and so does each binomial:
// the system files' pools, up to 32 dice of at most 10¹⁵ cases.
func foldSmall[S comparable](oc *oddsCtx, die *Dist, n int, init S, step func(S, int64, int) S, total func(S) int64) (*dist, error) {
	cur := map[foldKey[S]]int64{{init, n}: 1}
	pow := make([]int64, n+1)
	faces := die.faces()
	for fi, v := range faces {
		w := die.d.c[v-die.d.lo].Int64()
		pow[0] = 1
		for j := 1; j <= n; j++ {
			pow[j] = pow[j-1] * w
		}
		next := foldNext(cur, fi == len(faces)-1)
		for k, c := range cur {
			if err := oc.spend(k.left + 1); err != nil {
				return nil, err
			}
			from := 0
			if fi == len(faces)-1 {
				from = k.left // the last face takes every die left
			}
			b := int64(1) // C(k.left, j)
			for j := 0; j <= k.left; j++ {
				if j >= from {
					next[foldKey[S]{step(k.s, v, j), k.left - j}] += b * pow[j] * c
				}
				b = b * int64(k.left-j) / int64(j+1)
			}
		}
		cur = next
	}
	vals := make(map[int64]int64, len(cur))
	for k, c := range cur {
		vals[total(k.s)] += c
	}
	r, err := newDist(span(vals))
	if err != nil {
		return nil, err
	}
	for v, c := range vals {
		r.c[v-r.lo].SetInt64(c)
	}
	return r, nil
}

// span is the lowest and highest key of m.
func span[W any](m map[int64]W) (lo, hi int64) {
	lo, hi = math.MaxInt64, math.MinInt64
	for v := range m {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// faces are the totals of nonzero weight, lowest first.
func (a *Dist) faces() []int64 {
	var out []int64
	a.d.each(func(v int64, _ *big.Int) { out = append(out, v) })
	return out
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

// Counts returns, for every total from Min to Max, how many of den
// equally likely cases give it (a system file's pool counts its cases in
// int64); ok is false unless den is a multiple of the distribution's own
// denominator.
func (a *Dist) Counts(den int64) ([]int64, bool) {
	d := &a.d.den
	if !d.IsInt64() || d.Int64() <= 0 || den%d.Int64() != 0 {
		return nil, false
	}
	scale := den / d.Int64()
	out := make([]int64, len(a.d.c))
	for i := range a.d.c {
		out[i] = a.d.c[i].Int64() * scale // each weight ≤ the denominator
	}
	return out, true
}

// Approx reports that an explosion's tail was cut: what is left out
// weighs less than ExplodeTail.
func (a *Dist) Approx() bool { return a.approx }
