package dice

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"slices"
)

// Odds is the distribution of an expression's total (of one repetition).
type Odds struct {
	Min, Max int64 // lowest and highest total
	Mean     float64
	// MeanExact is the exact mean, nil when Approx.
	MeanExact *big.Rat
	// HasChance is set when there is a target (Chance = P(total ≥ target))
	// or, without a target, a success pool (Chance = P(total ≥ 1): at least
	// one success).
	HasChance bool
	Target    int64 // the target compared with, 1 for a pool without one
	Chance    float64
	// ChanceExact is the exact chance, nil when Approx.
	ChanceExact *big.Rat
	// Approx is set when the figures are not exact: explosions, which can
	// go on forever, are cut after a depth where the rest weighs less than
	// 10⁻¹², and expressions too large to enumerate within the work budget
	// are sampled (SampleBudget draws with a fixed seed).
	Approx bool
	// Open is set when an explosion's tail was cut past Max: the totals go
	// on beyond it (3d6!), which a reply writes "≥Max". An explosion whose
	// dice are kept or dropped has a ceiling (5d10!kh3: 30): not Open.
	Open bool
	// Sampled is set when the figures come from sampling: Samples rolls
	// with a fixed seed, whose totals make the distribution (Floats,
	// AtLeast) when they span at most MaxCells totals.
	Sampled bool
	Samples int
	// SampledSD is the standard deviation of the samples, when Sampled.
	SampledSD float64
	// Work is what the computation cost, in the units of OddsWithin: exact
	// multiply-adds plus sampled draws.
	Work int

	dist *dist
}

// Work budgets: exact computation stops past WorkBudget big-integer
// multiply-adds (about 50 ms on one core) and MaxCells values in one
// distribution, then falls back to sampling SampleBudget random draws.
const (
	WorkBudget   = 500_000
	MaxCells     = 1 << 16
	SampleBudget = 100_000
	// MinOddsWork is the least work OddsWithin starts with: about one
	// sample of the largest roll the limits admit.
	MinOddsWork = MaxDraws + 1
	maxSamples  = 10_000
	explodeTail = 1e-12
)

var (
	errBudget  = errors.New("over the exact-odds budget")
	errSampled = errors.New("needs sampling")
)

// ErrOddsDivZero reports that some outcome divides by zero, so the
// distribution does not exist (the roll itself may still succeed).
var ErrOddsDivZero = &Error{Code: CodeDivZero, Pos: -1}

// Odds computes the distribution of the total, the mean, and the chance of
// success: P(total ≥ target) with a target, P(total ≥ 1) for a success pool
// without one. Named values are resolved through lookup, as in Roll.
//
// The computation is exact (big integers) by convolution for sums, by a
// dynamic program over the faces in rank order for keep/drop, and by
// recursion over the explosion depth for explosions (then Approx, see
// Odds.Approx). If it would exceed WorkBudget it samples instead.
func (e *Expr) Odds(lookup Lookup) (*Odds, error) {
	return e.OddsWithin(lookup, WorkBudget+SampleBudget)
}

// ErrOddsBudget reports that not even a sample of the odds fits the work
// left (OddsWithin); the roll itself may still stand.
var ErrOddsBudget = errors.New("dice: no work left for the odds")

// OddsWithin is Odds within work units: the exact computation may use
// up to min(work − MinOddsWork, WorkBudget), sampling what is left of
// work, up to SampleBudget draws. Odds.Work says what was used. With less than
// MinOddsWork units it returns ErrOddsBudget without computing anything.
func (e *Expr) OddsWithin(lookup Lookup, work int) (*Odds, error) {
	if work < MinOddsWork {
		return nil, ErrOddsBudget
	}
	names, err := e.resolve(lookup)
	if err != nil {
		return nil, err
	}
	o := &Odds{}
	if e.Target != nil {
		ev := evaluator{e: e, names: names}
		if o.Target, err = ev.eval(e.Target); err != nil {
			return nil, err
		}
		o.HasChance = true
	} else if e.Pool() {
		o.Target, o.HasChance = 1, true
	}
	// The exact attempt leaves room for one sample: what it spends before
	// it finds it cannot finish is gone, and the odds must still answer.
	oc := &oddsCtx{names: names, limit: max(1, min(work-MinOddsWork, WorkBudget))}
	d, err := oc.node(e.Root)
	switch {
	case err == nil:
		o.fromDist(d, oc.approx)
		o.Open = oc.open
		o.Work = min(oc.work, oc.limit)
		return o, nil
	case errors.Is(err, errBudget), errors.Is(err, errSampled):
		// The exact attempt may have stopped at once (an estimate) or
		// part way: what it spent is gone either way.
		spent := min(oc.work, oc.limit)
		if work-spent < MinOddsWork {
			return nil, ErrOddsBudget
		}
		if err := e.sample(o, names, min(SampleBudget, work-spent)); err != nil {
			return nil, err
		}
		o.Work += spent
		return o, nil
	}
	return nil, err
}

func (o *Odds) fromDist(d *dist, approx bool) {
	o.dist, o.Approx = d, approx
	o.Min, o.Max = d.lo, d.hi()
	var sum, tmp, v big.Int
	hit := new(big.Int)
	for i := range d.c {
		if d.c[i].Sign() == 0 {
			continue
		}
		v.SetInt64(d.lo + int64(i))
		tmp.Mul(&v, &d.c[i])
		sum.Add(&sum, &tmp)
		if d.lo+int64(i) >= o.Target {
			hit.Add(hit, &d.c[i])
		}
	}
	mean := new(big.Rat).SetFrac(&sum, &d.den)
	o.Mean, _ = mean.Float64()
	if !approx {
		o.MeanExact = mean
	}
	if o.HasChance {
		ch := new(big.Rat).SetFrac(hit, &d.den)
		o.Chance, _ = ch.Float64()
		if !approx {
			o.ChanceExact = ch
		}
	}
}

// sample estimates the figures by rolling with a fixed seed.
func (e *Expr) sample(o *Odds, names []int64, budget int) error {
	o.Approx, o.Sampled = true, true
	ev := evaluator{src: Seeded(0x5eed), e: e, names: names, terms: make([]termRes, len(e.dice))}
	if e.grp != nil {
		ev.items = make([]itemRes, e.nitems())
	}
	var n, hits, used int
	var sum float64
	var lastErr error
	var totals []int64
	o.Min, o.Max = math.MaxInt64, math.MinInt64
	defer func() { o.Work = used }()
	for n < maxSamples && used+MaxDraws+1 <= budget { // room for one more sample of any size
		ev.draws, ev.dice, ev.extra = 0, ev.dice[:0], ev.extra[:0]
		v, err := ev.eval(e.Root)
		used += ev.draws + 1
		if err != nil {
			lastErr = err // an outcome over the limits: the roll would be refused
			continue
		}
		n++
		totals = append(totals, v)
		sum += float64(v)
		o.Min, o.Max = min(o.Min, v), max(o.Max, v)
		if v >= o.Target {
			hits++
		}
	}
	if n == 0 {
		if errors.Is(lastErr, errDivZero) {
			return ErrOddsDivZero
		}
		return lastErr // every outcome is refused, e.g. always too many draws
	}
	o.Mean = sum / float64(n)
	if o.HasChance {
		o.Chance = float64(hits) / float64(n)
	}
	o.Samples = n
	var m2 float64
	for _, v := range totals {
		m2 += (float64(v) - o.Mean) * (float64(v) - o.Mean)
	}
	o.SampledSD = math.Sqrt(m2 / float64(n))
	if h, err := newDist(o.Min, o.Max); err == nil { // the totals' histogram
		for _, v := range totals {
			h.c[v-o.Min].Add(&h.c[v-o.Min], big.NewInt(1))
		}
		h.den.SetInt64(int64(n))
		o.dist = h
	}
	return nil
}

// dist is an exact distribution: P(lo+i) = c[i]/den.
type dist struct {
	lo  int64
	c   []big.Int
	den big.Int
}

func (d *dist) hi() int64 { return d.lo + int64(len(d.c)) - 1 }

type oddsCtx struct {
	noFast bool // tests: always use math/big
	u64    []uint64
	acc    [][2]uint64 // hi, lo
	names  []int64
	work   int
	limit  int // work allowed; 0 means WorkBudget (tests)
	approx bool
	open   bool // an explosion's tail was cut past the highest total
	cutJ   int  // tests: when > 0, the explosions explodeKeep counts up to
	binom  [][]big.Int
}

func (oc *oddsCtx) spend(n int) error {
	if n > oc.max()-oc.work { // n may be a saturated estimate: never add it first

		return errBudget // not done, so not spent: sampling may use it
	}
	oc.work += n
	return nil
}

func (oc *oddsCtx) max() int {
	if oc.limit == 0 {
		return WorkBudget
	}
	return oc.limit
}

// weight is the relative cost of multiplying counts of about this many bits.
func weight(bits int) int { return 1 + bits/128 }

func newDist(lo, hi int64) (*dist, error) {
	if hi-lo+1 > MaxCells || hi-lo < 0 {
		return nil, errBudget
	}
	return &dist{lo: lo, c: make([]big.Int, hi-lo+1)}, nil
}

func constDist(v int64) *dist {
	d := &dist{lo: v, c: make([]big.Int, 1)}
	d.c[0].SetInt64(1)
	d.den.SetInt64(1)
	return d
}

// trim drops zero counts at both ends.
func (d *dist) trim() *dist {
	i, j := 0, len(d.c)
	for i < j && d.c[i].Sign() == 0 {
		i++
	}
	for j > i && d.c[j-1].Sign() == 0 {
		j--
	}
	d.lo += int64(i)
	d.c = d.c[i:j]
	return d
}

// mapDist applies f to every value.
func (oc *oddsCtx) mapDist(a *dist, f func(int64) int64) (*dist, error) {
	if err := oc.spend(len(a.c)); err != nil {
		return nil, err
	}
	if len(a.c) == 0 {
		r := &dist{lo: a.lo}
		r.den.Set(&a.den)
		return r, nil
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range a.c {
		if a.c[i].Sign() != 0 {
			v := f(a.lo + int64(i))
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	r, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	for i := range a.c {
		if a.c[i].Sign() != 0 {
			v := f(a.lo + int64(i))
			r.c[v-lo].Add(&r.c[v-lo], &a.c[i])
		}
	}
	r.den.Set(&a.den)
	return r, nil
}

// conv is the distribution of a + sign·b for independent a and b.
func (oc *oddsCtx) conv(a, b *dist, sign int64) (*dist, error) {
	if sign < 0 {
		var err error
		if b, err = oc.mapDist(b, func(v int64) int64 { return -v }); err != nil {
			return nil, err
		}
	}
	if err := oc.spend(convCost(len(a.c), len(b.c), a.den.BitLen(), b.den.BitLen())); err != nil {
		return nil, err
	}
	r, err := newDist(a.lo+b.lo, a.hi()+b.hi())
	if err != nil {
		return nil, err
	}
	r.den.Mul(&a.den, &b.den)
	if oc.conv128(a, b, r) {
		return r, nil
	}
	if !oc.noFast && kronecker(len(a.c), len(b.c), a.den.BitLen(), b.den.BitLen()) {
		convKronecker(a, b, r)
		return r, nil
	}
	var tmp big.Int
	for i := range a.c {
		if a.c[i].Sign() == 0 {
			continue
		}
		for j := range b.c {
			if b.c[j].Sign() == 0 {
				continue
			}
			tmp.Mul(&a.c[i], &b.c[j])
			r.c[i+j].Add(&r.c[i+j], &tmp)
		}
	}
	return r, nil
}

// conv128 is conv with machine words, used when every count fits in 64
// bits and every product and sum in 128 (the denominators say so: a count
// never exceeds its denominator). It reports whether it did the work.
func (oc *oddsCtx) conv128(a, b, r *dist) bool {
	if oc.noFast || a.den.BitLen() > 64 || b.den.BitLen() > 64 || r.den.BitLen() > 127 {
		return false
	}
	oc.u64 = slices.Grow(oc.u64[:0], len(a.c)+len(b.c))[:len(a.c)+len(b.c)]
	au, bu := oc.u64[:len(a.c)], oc.u64[len(a.c):]
	for i := range a.c {
		au[i] = a.c[i].Uint64()
	}
	for j := range b.c {
		bu[j] = b.c[j].Uint64()
	}
	oc.acc = slices.Grow(oc.acc[:0], len(r.c))[:len(r.c)]
	clear(oc.acc)
	acc := oc.acc
	for i, x := range au {
		if x == 0 {
			continue
		}
		row := acc[i : i+len(bu)]
		for j, y := range bu {
			hi, lo := bits.Mul64(x, y)
			var c uint64
			row[j][1], c = bits.Add64(row[j][1], lo, 0)
			row[j][0] += hi + c
		}
	}
	words := make([]big.Word, 2)
	for k, v := range acc {
		if v[0] == 0 {
			r.c[k].SetUint64(v[1])
			continue
		}
		words[0], words[1] = big.Word(v[1]), big.Word(v[0])
		r.c[k].SetBits(slices.Clone(words))
	}
	return true
}

// pairwise is the distribution of a op b for * and / between two random
// values.
func (oc *oddsCtx) pairwise(a, b *dist, op Op, mode Func) (*dist, error) {
	if err := oc.spend(2 * len(a.c) * len(b.c) * weight(a.den.BitLen()+b.den.BitLen())); err != nil {
		return nil, err
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for pass := range 2 {
		var r *dist
		if pass == 1 {
			var err error
			if r, err = newDist(lo, hi); err != nil {
				return nil, err
			}
			r.den.Mul(&a.den, &b.den)
		}
		var tmp big.Int
		for i := range a.c {
			if a.c[i].Sign() == 0 {
				continue
			}
			for j := range b.c {
				if b.c[j].Sign() == 0 {
					continue
				}
				v, err := arith(op, a.lo+int64(i), b.lo+int64(j), mode)
				if err != nil {
					switch {
					case errors.Is(err, errDivZero):
						return nil, ErrOddsDivZero
					case errors.Is(err, errPowNegative):
						return nil, err
					}
					return nil, errSampled
				}
				if pass == 0 {
					lo, hi = min(lo, v), max(hi, v)
					continue
				}
				tmp.Mul(&a.c[i], &b.c[j])
				r.c[v-lo].Add(&r.c[v-lo], &tmp)
			}
		}
		if pass == 1 {
			return r, nil
		}
	}
	panic("unreachable")
}

func (oc *oddsCtx) node(n Node) (*dist, error) {
	switch n := n.(type) {
	case *Num:
		return constDist(n.V), nil
	case *Name:
		return constDist(oc.names[n.idx]), nil
	case *Dice:
		return oc.term(n)
	case *Group:
		return oc.group(n)
	case *Unary:
		x, err := oc.node(n.X)
		if err != nil {
			return nil, err
		}
		return oc.mapDist(x, func(v int64) int64 { return -v })
	case *Binary:
		return oc.binary(n, Floor)
	case *Call:
		if b, ok := n.X.(*Binary); ok && b.Op == Div && n.Fn <= Round {
			return oc.binary(b, n.Fn)
		}
		x, err := oc.node(n.X)
		if err != nil {
			return nil, err
		}
		switch n.Fn {
		case Abs:
			return oc.mapDist(x, abs64)
		case Max, Min:
			op := opMax
			if n.Fn == Min {
				op = opMin
			}
			for _, m := range n.More { // the arguments are independent
				y, err := oc.node(m)
				if err != nil {
					return nil, err
				}
				if x, err = oc.pairwise(x, y, op, Floor); err != nil {
					return nil, err
				}
			}
		}
		return x, nil
	}
	panic("dice: unknown node")
}

func (oc *oddsCtx) binary(n *Binary, mode Func) (*dist, error) {
	l, err := oc.node(n.L)
	if err != nil {
		return nil, err
	}
	r, err := oc.node(n.R)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case Add:
		return oc.conv(l, r, 1)
	case Sub:
		return oc.conv(l, r, -1)
	}
	return oc.pairwise(l, r, n.Op, mode)
}

// faceDist is the distribution of one die's face after rerolls.
func (oc *oddsCtx) faceDist(d *Dice) *dist {
	f := &dist{lo: int64(d.Min()), c: make([]big.Int, d.Sides)}
	s := int64(d.Sides)
	switch {
	case !d.Reroll.On:
		for i := range f.c {
			f.c[i].SetInt64(1)
		}
		f.den.SetInt64(s)
	case d.Reroll.Once:
		// P(v) = [v kept]/s + (matching faces)/s · 1/s
		var m int64
		for v := d.Min(); v <= d.Max(); v++ {
			if d.Rerolls(v) {
				m++
			}
		}
		for i := range f.c {
			c := m
			if !d.Rerolls(d.Min() + i) {
				c += s
			}
			f.c[i].SetInt64(c)
		}
		f.den.SetInt64(s * s)
	default:
		var left int64
		for i := range f.c {
			if !d.Rerolls(d.Min() + i) {
				f.c[i].SetInt64(1)
				left++
			}
		}
		f.den.SetInt64(left)
	}
	oc.work += d.Sides
	return f.trim()
}

// score is what one die adds to a pool: +1, −1 or 0.
func score(d *Dice) func(int64) int64 {
	return func(v int64) int64 {
		switch {
		case d.Success.Match(int(v)):
			return 1
		case d.Failure != nil && d.Failure.Match(int(v)):
			return -1
		}
		return 0
	}
}

func ident(v int64) int64 { return v }

func (oc *oddsCtx) term(d *Dice) (*dist, error) {
	if d.CountX != nil || d.SidesX != nil {
		return oc.rolled(d)
	}
	f := oc.faceDist(d)
	n := d.Count
	var unit *dist
	var err error
	g := ident
	if d.Pool() {
		g = score(d)
	}
	cl := func(v int64) int64 { return int64(d.Clamp(int(v))) }
	switch d.Explode.Mode {
	case NoExplode:
		unit = f
		if d.clamps() {
			if unit, err = oc.mapDist(f, cl); err != nil {
				return nil, err
			}
		}
		if d.Pool() && d.Keep.Mode == NoKeep {
			unit, err = oc.mapDist(unit, g)
		}
	case Explode, Penetrate:
		if d.Keep.Mode != NoKeep {
			// every die, an explosion's too, is kept or dropped on its own
			return oc.explodeKeep(f, d, g)
		}
		h0 := func(v int64) int64 { return g(cl(v)) }
		h1 := h0
		if d.Explode.Mode == Penetrate {
			h1 = func(v int64) int64 { return g(cl(v - 1)) }
		}
		unit, err = oc.chain(f, explodes(d), d.Count, h0, h1)
	case Compound:
		if unit, err = oc.chain(f, explodes(d), d.Count, ident, ident); err == nil && d.clamps() {
			unit, err = oc.mapDist(unit, cl)
		}
		if err == nil && d.Pool() && d.Keep.Mode == NoKeep {
			unit, err = oc.mapDist(unit, g)
		}
	}
	if err != nil {
		return nil, err
	}
	if d.Keep.Mode == NoKeep {
		return oc.sumN(unit, n)
	}
	return oc.keep(unit, d, g) // pools with ! or !p were sampled above
}

// explodes is d's explosion condition on a face.
func explodes(d *Dice) func(int64) bool {
	return func(v int64) bool { return d.Explode.If.Match(int(v)) }
}

// chain is the distribution of one exploding die of a term of n dice: the
// first face counts h0(face), each further one h1(face); a face for which
// explode holds draws another. The chain is cut where the chance of going
// on is below explodeTail (marking the result approximate), or where the n
// dice would draw more than MaxDraws.
func (oc *oddsCtx) chain(f *dist, explode func(int64) bool, n int, h0, h1 func(int64) int64) (*dist, error) {
	oc.approx, oc.open = true, true
	var q big.Rat
	var hit big.Int
	for i := range f.c {
		if explode(f.lo + int64(i)) {
			hit.Add(&hit, &f.c[i])
		}
	}
	q.SetFrac(&hit, &f.den)
	qf, _ := q.Float64()
	depth := MaxDraws / max(n, 1)
	if qf < 1 {
		depth = min(depth, int(math.Ceil(math.Log(explodeTail)/math.Log(qf))))
	}
	return oc.chainTo(f, explode, max(depth, 1), h0, h1)
}

// chainTo is a die f that explodes at most depth times: the chain of
// its faces, h0 applied to the first and h1 to each added one.
func (oc *oddsCtx) chainTo(f *dist, explode func(int64) bool, depth int, h0, h1 func(int64) int64) (*dist, error) {
	// split f into the faces that stop (a) and those that explode (b).
	parts := func(h func(int64) int64) (*dist, *dist, error) {
		a := &dist{lo: f.lo, c: make([]big.Int, len(f.c))}
		b := &dist{lo: f.lo, c: make([]big.Int, len(f.c))}
		for i := range f.c {
			if explode(f.lo + int64(i)) {
				b.c[i].Set(&f.c[i])
			} else {
				a.c[i].Set(&f.c[i])
			}
		}
		a.den.Set(&f.den)
		b.den.Set(&f.den)
		ma, err := oc.mapDist(a.trim(), h)
		if err != nil {
			return nil, nil, err
		}
		mb, err := oc.mapDist(b.trim(), h)
		return ma, mb, err
	}
	// tail: the chain from the second die on.
	stop1, go1, err := parts(h1)
	if err != nil {
		return nil, err
	}
	tail, err := oc.mapDist(f, h1) // at the cut: no further explosion
	if err != nil {
		return nil, err
	}
	for k := 1; k < depth; k++ {
		if tail, err = oc.step(stop1, go1, tail); err != nil {
			return nil, err
		}
	}
	stop0, go0, err := parts(h0)
	if err != nil {
		return nil, err
	}
	return oc.step(stop0, go0, tail)
}

// step is stop + go⊛tail, over a common denominator.
func (oc *oddsCtx) step(stop, goOn, tail *dist) (*dist, error) {
	if len(goOn.c) == 0 || goOn.c[0].Sign() == 0 && len(goOn.c) == 1 {
		return stop, nil
	}
	g, err := oc.conv(goOn, tail, 1)
	if err != nil {
		return nil, err
	}
	// stop has den f.den; g has f.den·tail.den: scale stop by tail.den.
	lo, hi := min(stop.lo, g.lo), max(stop.hi(), g.hi())
	if len(stop.c) == 0 {
		lo, hi = g.lo, g.hi()
	}
	r, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	if err := oc.spend(len(r.c)); err != nil {
		return nil, err
	}
	var tmp big.Int
	for i := range stop.c {
		tmp.Mul(&stop.c[i], &tail.den)
		r.c[stop.lo+int64(i)-lo].Add(&r.c[stop.lo+int64(i)-lo], &tmp)
	}
	for i := range g.c {
		r.c[g.lo+int64(i)-lo].Add(&r.c[g.lo+int64(i)-lo], &g.c[i])
	}
	r.den.Set(&g.den)
	return r.trim(), nil
}

// sumN is the distribution of the sum of n independent copies of u.
func (oc *oddsCtx) sumN(u *dist, n int) (*dist, error) {
	// Estimate the whole cost first, so that a hopeless case gives up at once.
	cost, l, bits := 0, len(u.c), u.den.BitLen()
	if (l-1)*n+1 > MaxCells {
		return nil, errBudget // the sum's totals alone are too many
	}
	if !oc.noFast && n > 2 && kronecker(l, l, n*bits/2, n*bits/2) {
		return oc.sumPow(u, n)
	}
	for i := 1; i < n && cost <= oc.max(); i++ {
		cost += convCost(i*(l-1)+1, l, i*bits, bits)
	}
	if oc.work+cost > oc.max() {
		return nil, errBudget
	}
	acc := u
	for range n - 1 {
		var err error
		if acc, err = oc.conv(acc, u, 1); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// sumPow is sumN by squaring (u⁸·u⁴ for 12 dice): for big counts, whose
// Kronecker products cost less balanced, about half the work of adding
// one die at a time; the counts are the same.
func (oc *oddsCtx) sumPow(u *dist, n int) (*dist, error) {
	// the cost first: the squares, and the products into the result
	cost, l, bits := 0, len(u.c), u.den.BitLen()
	sq, sqBits, accLen, accBits := l, bits, 0, 0
	for m := n; m > 0 && cost <= oc.max(); m >>= 1 {
		if m&1 == 1 {
			if accLen > 0 {
				cost += convCost(accLen, sq, accBits, sqBits)
				accLen, accBits = accLen+sq-1, accBits+sqBits
			} else {
				accLen, accBits = sq, sqBits
			}
		}
		if m > 1 {
			cost += convCost(sq, sq, sqBits, sqBits)
			sq, sqBits = 2*sq-1, 2*sqBits
		}
	}
	if oc.work+cost > oc.max() {
		return nil, errBudget
	}
	var acc *dist
	p := u
	for m := n; m > 0; m >>= 1 {
		var err error
		if m&1 == 1 {
			if acc == nil {
				acc = p
			} else if acc, err = oc.conv(acc, p, 1); err != nil {
				return nil, err
			}
		}
		if m > 1 {
			if p, err = oc.conv(p, p, 1); err != nil {
				return nil, err
			}
		}
	}
	return acc, nil
}

func (oc *oddsCtx) binomial(n, k int) *big.Int {
	for len(oc.binom) <= n {
		m := len(oc.binom)
		row := make([]big.Int, m+1)
		row[0].SetInt64(1)
		row[m].SetInt64(1)
		for j := 1; j < m; j++ {
			row[j].Add(&oc.binom[m-1][j-1], &oc.binom[m-1][j])
		}
		oc.binom = append(oc.binom, row)
	}
	return &oc.binom[n][k]
}

// keep is the distribution of the kept units' contributions c(rank) when
// n units with rank distribution u are rolled and kept or dropped as d
// says. The faces are visited in rank order (highest first to keep the
// highest); a state is (dice placed so far, all of them kept) → the sum of
// their contributions. Once K dice are kept the rest must all rank lower:
// that state is finished at once with (weight of lower faces)^(dice left).
func (oc *oddsCtx) keep(u *dist, d *Dice, c func(int64) int64) (*dist, error) {
	return oc.keepN(u, d.Count, d.Keep.Mode, d.Keep.N, c)
}

// keepOrder turns a keep or drop of k of n units into what the keep-N
// engines do: keep the k units ranked first, highest first when desc
// (kh k, dl n−k) and lowest first otherwise (kl k, dh n−k). A keep of
// more than n keeps n.
func keepOrder(mode KeepMode, n, k int) (desc bool, kept int) {
	k = min(k, n)
	switch mode {
	case KeepLow:
		return false, k
	case DropHigh:
		return false, n - k
	case DropLow:
		return true, n - k
	}
	return true, k
}

// keepN is keep for n units kept or dropped by mode and its count k.
func (oc *oddsCtx) keepN(u *dist, n int, mode KeepMode, k int, c func(int64) int64) (*dist, error) {
	desc, k := keepOrder(mode, n, k)
	if k <= 0 { // a rolled number of dice that a drop leaves without any
		return constDist(0), nil
	}
	// faces in visiting order
	type face struct {
		contrib int64
		count   *big.Int
	}
	var faces []face
	cmin, cmax := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range u.c {
		idx := i
		if desc {
			idx = len(u.c) - 1 - i
		}
		if u.c[idx].Sign() == 0 {
			continue
		}
		cv := c(u.lo + int64(idx))
		cmin, cmax = min(cmin, cv), max(cmax, cv)
		faces = append(faces, face{cv, &u.c[idx]})
	}
	lo, hi := min(0, int64(k)*cmin), max(0, int64(k)*cmax)
	width := int(hi - lo + 1)
	fast := !oc.noFast && n <= 60 && u.den.BitLen() <= 64 && n*u.den.BitLen() <= 127
	switch {
	case oc.noFast: // the tests' reference: cell by cell in math/big
		if err := oc.spend(len(faces) * k * n * width * weight(n*u.den.BitLen())); err != nil {
			return nil, err
		}
	case fast: // u128 steps, about 20 a unit
		if err := oc.spend(1 + len(faces)*width*(k*(k+3)/2)/20); err != nil {
			return nil, err
		}
	default:
		if err := oc.spend(packedKeepCost(len(faces), n, k, width, u.den.BitLen())); err != nil {
			return nil, err
		}
	}
	res, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	res.den.Exp(&u.den, big.NewInt(int64(n)), nil)
	if fast {
		f128 := make([]face128, len(faces))
		for i, fc := range faces {
			f128[i] = face128{fc.contrib, fc.count.Uint64()}
		}
		keep128(f128, n, k, lo, width, res)
		return res.trim(), nil
	}
	if !oc.noFast {
		pf := make([]facePacked, len(faces))
		for i, fc := range faces {
			pf[i] = facePacked{fc.contrib, fc.count}
		}
		oc.keepPacked(pf, n, k, lo, width, res)
		return res.trim(), nil
	}
	// rest[i] = weight of the faces after i
	rest := make([]big.Int, len(faces)+1)
	for i := len(faces) - 1; i >= 0; i-- {
		rest[i].Add(&rest[i+1], faces[i].count)
	}
	// state[m][s-lo], m < k
	state := make([][]big.Int, k)
	next := make([][]big.Int, k)
	for m := range state {
		state[m] = make([]big.Int, width)
		next[m] = make([]big.Int, width)
	}
	state[0][-lo].SetInt64(1) // s = 0
	pow := make([]big.Int, n+1)
	restPow := make([]big.Int, n+1)
	var w, tmp big.Int
	for i, fc := range faces {
		pow[0].SetInt64(1)
		restPow[0].SetInt64(1)
		for j := 1; j <= n; j++ {
			pow[j].Mul(&pow[j-1], fc.count)
			restPow[j].Mul(&restPow[j-1], &rest[i+1])
		}
		for m := range next {
			for s := range next[m] {
				next[m][s].SetInt64(0)
			}
		}
		for m := range k {
			for s := range width {
				if state[m][s].Sign() == 0 {
					continue
				}
				for j := 0; j <= n-m; j++ {
					mm := m + j
					t := min(j, k-m)
					ss := s + t*int(fc.contrib)
					w.Mul(oc.binomial(n-m, j), &pow[j])
					w.Mul(&w, &state[m][s])
					if mm >= k {
						tmp.Mul(&w, &restPow[n-mm])
						res.c[ss].Add(&res.c[ss], &tmp)
					} else {
						next[mm][ss].Add(&next[mm][ss], &w)
					}
				}
			}
		}
		state, next = next, state
	}
	return res.trim(), nil
}

type face128 struct {
	contrib int64
	count   uint64
}

// u128 is an unsigned 128-bit integer: hi, lo.
type u128 struct{ hi, lo uint64 }

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return u128{a.hi + b.hi + c, lo}
}

// mul is a·b modulo 2^128; callers only multiply where the true product
// is a number of outcomes, below the denominator and so below 2^127.
func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) big() *big.Int {
	r := new(big.Int).SetUint64(a.hi)
	r.Lsh(r, 64)
	return r.Or(r, new(big.Int).SetUint64(a.lo))
}

// keep128 is the keep/drop program of keep in machine words, for when the
// denominator (faces' weight)^n fits in 127 bits and n ≤ 60 (so that every
// binomial fits in 64). The arithmetic is modulo 2^128; the counts that
// reach the result are exact because they are below the denominator.
func keep128(faces []face128, n, k int, lo int64, width int, res *dist) {
	binom := make([][]uint64, n+1)
	for m := range binom {
		binom[m] = make([]uint64, m+1)
		binom[m][0], binom[m][m] = 1, 1
		for j := 1; j < m; j++ {
			binom[m][j] = binom[m-1][j-1] + binom[m-1][j]
		}
	}
	rest := make([]uint64, len(faces)+1)
	for i := len(faces) - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + faces[i].count
	}
	out := make([]u128, width)
	done := make([]u128, k) // done[m]: the weight of every way the dice left end a state of m kept
	state := make([][]u128, k)
	next := make([][]u128, k)
	for m := range state {
		state[m] = make([]u128, width)
		next[m] = make([]u128, width)
	}
	state[0][-lo] = u128{0, 1}
	pow := make([]u128, n+1)
	restPow := make([]u128, n+1)
	for i, fc := range faces {
		pow[0], restPow[0] = u128{0, 1}, u128{0, 1}
		for j := 1; j <= n; j++ {
			pow[j] = pow[j-1].mul(u128{0, fc.count})
			restPow[j] = restPow[j-1].mul(u128{0, rest[i+1]})
		}
		// Once k dice are kept, the rest must all rank lower: every j ≥
		// k−m ends the state, with the same sum, so their weights add up
		// first: done[m] = Σ_{j ≥ k−m} C(n−m, j)·count^j·rest^(n−m−j).
		for m := range k {
			var t u128
			for j := k - m; j <= n-m; j++ {
				t = t.add(u128{0, binom[n-m][j]}.mul(pow[j]).mul(restPow[n-m-j]))
			}
			done[m] = t
		}
		for m := range next {
			clear(next[m])
		}
		for m := range k {
			end := (k - m) * int(fc.contrib)
			for s, v := range state[m] {
				if v == (u128{}) {
					continue
				}
				out[s+end] = out[s+end].add(v.mul(done[m]))
				next[m][s] = next[m][s].add(v) // j = 0
				if fc.count == 0 {
					continue
				}
				for j := 1; j < k-m; j++ {
					ss := s + j*int(fc.contrib)
					next[m+j][ss] = next[m+j][ss].add(u128{0, binom[n-m][j]}.mul(pow[j]).mul(v))
				}
			}
		}
		state, next = next, state
	}
	for i, v := range out {
		if v.hi == 0 {
			res.c[i].SetUint64(v.lo)
		} else {
			res.c[i].Set(v.big())
		}
	}
}
