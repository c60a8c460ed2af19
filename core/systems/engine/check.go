package engine

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"sync"

	"zaria/core/dice"
)

// Params are a check's inputs: each input's value by key (a terms input's
// sum; an input left out is not given: its default, else impossible), the
// chat's house rules by key (left out: the default), and an opposed
// check's passive side.
type Params struct {
	Inputs  map[string]int
	Rules   map[string]string
	Passive map[string]int
	// Fresh computes the odds anew, without the odds cache (what a check
	// never asked before costs: bench/compare's cold rows).
	Fresh bool
}

// Result is one check rolled.
type Result struct {
	Check   string
	Outcome string // "" when no band applies (no target given)
	Success bool
	Level   *int
	Total   *big.Rat
	Values  map[string]*big.Rat // the lets, of the active side
	Passive map[string]*big.Rat // an opposed check's passive side's lets
	Winner  string              // "active" or "passive" (opposed checks)
	Dice    []int               // every face drawn, in order
	Sides   []int               // each die's faces
	Pools   []string            // each die's pool (its roll step's key)
	Also    map[string]string   // each further result's outcome
	// PassiveFrom is the first of the passive side's dice (opposed checks).
	PassiveFrom int
}

func (s *System) newEnv(c *check, in map[string]int, rules map[string]string) *env {
	vals := make([]num, c.nvars+c.nreads)
	e := &env{v: vals[:c.nvars:c.nvars], r: vals[c.nvars:]}
	for i, k := range s.inputSlots {
		if v, ok := in[k]; ok {
			e.v[i] = integer(int64(v))
		} else if d := s.inputs[k].Default; d != nil {
			e.v[i] = integer(int64(*d))
		} else if s.inputs[k].Type == "flag" {
			e.v[i] = integer(0)
		} else {
			e.v[i] = impossible
		}
	}
	for j, k := range s.ruleSlots {
		h := s.rules[k]
		idx := h.index(rules[k])
		if idx < 0 {
			idx = h.index(h.Default)
		}
		e.v[len(s.inputSlots)+j] = integer(int64(idx))
	}
	return e
}

func (st cstep) let(e *env) {
	for _, cs := range st.cases {
		if cs.when == nil || cs.when(e).truth() {
			e.v[st.slot] = cs.is(e)
			return
		}
	}
	e.v[st.slot] = impossible
}

// n is how many dice a roll step rolls in e: a count below 0 rolls no
// dice (as Roll20's 0d6: "pool - 1" with a pool of 0); a count that is
// no whole number is refused.
func (rs *rollStep) n(e *env) (int, error) {
	v := rs.count(e)
	if !v.isInt() {
		return 0, &Error{Key: "engine.error.dice_count", Args: map[string]any{"pool": rs.name}}
	}
	if v.n < 0 {
		return 0, nil
	}
	if v.n > MaxPoolDice {
		return 0, limitErr("pool_dice", MaxPoolDice, int(v.n))
	}
	return int(v.n), nil
}

// run rolls the steps of c in e with src.
func (c *check) run(e *env, src dice.Source, res *Result) error {
	faces := &res.Dice
	for _, st := range c.steps {
		if st.roll == nil {
			st.let(e)
			continue
		}
		n, err := st.roll.n(e)
		if err != nil {
			return err
		}
		rs, err := st.roll.sized(e)
		if err != nil {
			return err
		}
		before := len(*faces)
		d, _ := rs.roll(src, n, faces)
		for range len(*faces) - before {
			res.Sides = append(res.Sides, rs.faces)
			res.Pools = append(res.Pools, st.roll.name)
		}
		if len(*faces) > MaxCheckDice {
			return limitErr("check_dice", MaxCheckDice, len(*faces))
		}
		for j, rd := range rs.reads {
			e.r[st.roll.first+j] = rd.read(d)
		}
	}
	return nil
}

// outcome applies the overrides and bands to e: the outcome and its level.
func (c *check) outcome(e *env) (string, num) {
	b := c.band(e)
	if b == nil {
		return "", impossible
	}
	return b.outcome, levelOf(b.level, e)
}

// outcomeIdx is the outcome's index among the file's (−1: none).
func (c *check) outcomeIdx(e *env) (int, *cband) {
	b := c.band(e)
	if b == nil {
		return -1, nil
	}
	return b.idx, b
}

func (c *verdict) band(e *env) *cband {
	for i := range c.overr {
		if c.overr[i].when(e).truth() {
			return &c.overr[i]
		}
	}
	if len(c.bands) == 0 {
		return nil
	}
	var v num
	if c.on != nil {
		if v = c.on(e); v.imp {
			return nil
		}
	}
	for i := range c.bands {
		b := &c.bands[i]
		if b.last {
			return b
		}
		k := v.cmp(b.bound)
		if k > 0 || (k == 0 && !b.strict) {
			return b
		}
	}
	return nil
}

func levelOf(fn evalFn, e *env) num {
	if fn == nil {
		return impossible
	}
	return fn(e)
}

// decide reports whether the active side a wins against p.
func (c *check) decide(a, p *env) bool {
	for _, f := range c.compare {
		x, y := f(a), f(p)
		if x.imp || y.imp {
			continue
		}
		if k := x.cmp(y); k != 0 {
			return k > 0
		}
	}
	return c.tieAct
}

func (s *System) sides(c *check, pr Params) (a, p *env) {
	a = s.newEnv(c, pr.Inputs, pr.Rules)
	if c.opposed {
		p = s.newEnv(c, pr.Passive, pr.Rules)
		a.opp, p.opp = p, a
	}
	return a, p
}

// Roll rolls check key ("" = the first) with the dice of src.
func (s *System) Roll(key string, pr Params, src dice.Source) (*Result, error) {
	c, err := s.check(key)
	if err != nil {
		return nil, err
	}
	a, p := s.sides(c, pr)
	if err := s.require(c, a, p); err != nil {
		return nil, err
	}
	res := &Result{Check: c.def.Key}
	if err := c.run(a, src, res); err != nil {
		return nil, err
	}
	re := a
	if c.opposed {
		res.PassiveFrom = len(res.Dice)
		if err := c.run(p, src, res); err != nil {
			return nil, err
		}
		re = &env{sides: [2]*env{a, p}, won: boolean(c.decide(a, p))}
		res.Winner = "passive"
		if re.won.truth() {
			res.Winner = "active"
		}
		res.Passive = c.values(p)
	}
	o, lvl := c.outcome(re)
	res.Outcome = o
	for _, a := range c.also {
		if res.Also == nil {
			res.Also = map[string]string{}
		}
		if b := a.v.band(re); b != nil {
			res.Also[a.key] = b.outcome
		}
	}
	res.Success = s.succeeded(c, re, o)
	if lvl.isInt() {
		l := int(lvl.n)
		res.Level = &l
	}
	if c.total != nil {
		res.Total = c.total(a).Rat()
	}
	res.Values = c.values(a)
	return res, nil
}

func (c *check) values(e *env) map[string]*big.Rat {
	m := map[string]*big.Rat{}
	for k, slot := range c.slots {
		if r := e.v[slot].Rat(); r != nil {
			m[k] = r
		}
	}
	return m
}

// Odds are a check's exact chances (or sampled ones, Exact false).
type Odds struct {
	Outcomes map[string]*big.Rat            // "" collects rolls with no outcome
	Success  *big.Rat                       // an opposed check: the active side wins
	Totals   []TotalP                       // the distribution of the check's total
	Also     map[string]map[string]*big.Rat // each further result's outcomes
	Exact    bool
}

// TotalP is one value of a check's total and its chance.
type TotalP struct {
	Total *big.Rat
	P     *big.Rat
}

// weight is a sum of chances n/d: int64 numerators summed per
// denominator (a check's leaves have a few: 6^k for k granted dice), in
// big arithmetic only at the end or past 16 denominators.
type weight struct {
	n, d   int64 // the first denominator's sum (most checks have one)
	more   []frac
	big    *big.Rat
	bn, bd *big.Int // a sum over one denominator past int64 (wide.go)
	empty  bool
}

type frac struct{ n, d int64 }

func (w *weight) add(n, d int64) {
	switch {
	case w.d == 0 && w.big == nil:
		w.n, w.d = n, d
		return
	case w.d == d && w.n <= (1<<62)-n:
		w.n += n
		return
	}
	for i := range w.more {
		if w.more[i].d == d && w.more[i].n <= (1<<62)-n {
			w.more[i].n += n
			return
		}
	}
	if len(w.more) < 16 {
		w.more = append(w.more, frac{n, d})
		return
	}
	if w.big == nil {
		w.big = new(big.Rat)
	}
	w.big.Add(w.big, big.NewRat(n, d))
}

func (w *weight) rat() *big.Rat { return w.ratIn(new(big.Rat)) }

// ratIn sets r (zero) to the sum: computeOdds's rationals made in one block.
func (w *weight) ratIn(r *big.Rat) *big.Rat {
	if w.d != 0 && w.big == nil && w.bn == nil {
		// The denominators brought to their least common multiple while
		// it and the numerators fit in int64.
		n, d := w.n, w.d
		for _, f := range w.more {
			g := gcd(d, f.d)
			a, b := f.d/g, d/g // l = d·a = f.d·b
			if d > (1<<62)/a || (n > (1<<62)/a || n < -(1<<62)/a) || (f.n > (1<<62)/b || f.n < -(1<<62)/b) {
				d = 0
				break
			}
			n, d = n*a+f.n*b, d*a
			if n > 1<<62 || n < -(1<<62) {
				d = 0
				break
			}
		}
		if d != 0 {
			return setRat(r, n, d)
		}
	}
	if w.d != 0 {
		r.SetFrac64(w.n, w.d)
	}
	for _, f := range w.more {
		r.Add(r, big.NewRat(f.n, f.d))
	}
	if w.big != nil {
		r.Add(r, w.big)
	}
	if w.bn != nil {
		r.Add(r, new(big.Rat).SetFrac(w.bn, w.bd))
	}
	return r
}

// setRat sets r to n/d (d > 0), reduced in int64 arithmetic: big.Rat's
// own reduction allocates a greatest common divisor in big integers.
func setRat(r *big.Rat, n, d int64) *big.Rat {
	g := gcd(n, d)
	r.SetInt64(n / g)
	r.Denom().SetInt64(d / g) // a reference to r's denominator, set to 1 above
	return r
}

func (w *weight) zero() bool { return w.d == 0 && len(w.more) == 0 && w.big == nil && w.bn == nil }

// walker enumerates a check's reduced distributions.
type walker struct {
	c      *check
	steps  []pstep
	leaves int
	over   bool
	// wide, when set, takes the leaves whose weight outgrows int64
	// (wide.go); without it such a walk is over.
	wide    func(e *env, wn, wd *big.Int)
	scratch []*big.Int // walkWide's weight of each step
	// same, when set, walks the pools by runs of their rolls on which
	// what the odds read is the same (sym.go).
	same sameKind
	ses  []*senv // the runs' envs by step, kept for the check's next walk
}

// done gives w back for its check's next walk.
func (w *walker) done() {
	w.wide = nil
	w.c.walkers.Put(w)
}

// pstep is a step as one check's walk runs it: a pool (its distribution
// already found when its count reads no dice) or a let whose cases that
// read no dice are already decided.
type pstep struct {
	roll  *rollStep
	pd    *poolDist
	slot  int
	cases []ccase // the last one holds when every other fails
	// The distribution found last for a count that reads the dice, and
	// its count (granted dice repeat the same few counts).
	lastN  int
	lastPD *poolDist
	// The runs of its rolls (sym.go): the reading that orders them (0:
	// not chosen yet; −1: none; else the reading + 1) and their env.
	runKey int
	se     *senv
	ko     *keyOrder // koPD's tuples by that reading
	koPD   *poolDist
}

// dist is the step's pool distribution: found once when its count reads
// no dice, else for e's values; nil when it cannot be (then the walk is
// over its budget).
func (ps *pstep) dist(e *env) *poolDist {
	if ps.pd != nil {
		return ps.pd
	}
	n, err := ps.roll.n(e)
	if err != nil {
		return nil
	}
	if ps.lastPD != nil && ps.lastN == n {
		return ps.lastPD // faces_of reads no dice: the same pool
	}
	rs, err := ps.roll.sized(e)
	if err != nil {
		return nil
	}
	pd, ok := rs.dist(n)
	if !ok {
		return nil
	}
	ps.lastN, ps.lastPD = n, pd
	return pd
}

func (ps *pstep) let(e *env) {
	last := len(ps.cases) - 1
	for i := range ps.cases {
		cs := &ps.cases[i]
		if i == last || cs.when(e).truth() {
			e.v[ps.slot] = cs.is(e)
			return
		}
	}
}

// newWalker evaluates once, in e, what does not depend on the dice: the
// lets that read only inputs and house rules, the cases whose condition
// does (a house rule's choice, "npc"), and the pools' sizes that do.
func newWalker(c *check, e *env) *walker {
	w, _ := c.walkers.Get().(*walker)
	if w == nil {
		w = &walker{steps: make([]pstep, 0, len(c.steps))}
	}
	*w = walker{c: c, steps: w.steps[:0], ses: w.ses, scratch: w.scratch}
	for _, st := range c.steps {
		if st.roll != nil {
			ps := pstep{roll: st.roll}
			if !st.roll.countDyn {
				n, err := st.roll.n(e)
				if err != nil {
					w.over = true
					return w
				}
				rs, err := st.roll.sized(e)
				if err != nil {
					w.over = true
					return w
				}
				pd, ok := rs.dist(n)
				if !ok {
					w.over = true
					return w
				}
				ps.pd = pd
			}
			w.steps = append(w.steps, ps)
			continue
		}
		k := 0
		for k < len(st.cases) && st.cases[k].when != nil && !st.cases[k].whenDyn && !st.cases[k].when(e).truth() {
			k++
		}
		j := k
		for j < len(st.cases) && st.cases[j].when != nil && (st.cases[j].whenDyn || !st.cases[j].when(e).truth()) {
			j++
		}
		if k == len(st.cases) || j == len(st.cases) {
			// No case holds for sure: as cstep.let, impossible when none does.
			cases := append(append([]ccase(nil), st.cases[k:]...), ccase{is: func(*env) num { return impossible }, isS: func(*senv) sym { return konst(impossible) }})
			w.steps = append(w.steps, pstep{slot: st.slot, cases: cases})
			continue
		}
		ps := pstep{slot: st.slot, cases: st.cases[k : j+1]}
		if j == k && !st.cases[k].isDyn {
			ps.let(e) // the same on every leaf
			continue
		}
		w.steps = append(w.steps, ps)
	}
	return w
}

// granted reports whether a pool's size reads the dice.
func (w *walker) granted() bool {
	for _, ps := range w.steps {
		if ps.roll != nil && ps.roll.countDyn {
			return true
		}
	}
	return false
}

// walk calls leaf for every combination of the pools' reduced
// distributions, with its weight wn/wd.
func (w *walker) walk(e *env, i int, wn, wd int64, leaf func(e *env, wn, wd int64)) {
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
		leaf(e, wn, wd)
		return
	}
	st := &w.steps[i]
	pd := st.dist(e)
	if pd == nil {
		w.over = true
		return
	}
	if pd.wden != nil || wd > (1<<62)/pd.den {
		if w.wide != nil {
			w.walkWide(e, i, big.NewInt(wn), big.NewInt(wd))
			return
		}
		w.over = true
		return
	}
	if w.same != sameNone && len(pd.reads) >= minRun && st.runKey >= 0 && w.runs(e, i, pd, wn, wd, leaf) {
		return
	}
	first := st.roll.first
	for j, reads := range pd.reads {
		copy(e.r[first:], reads)
		w.walk(e, i+1, wn*pd.counts[j], wd*pd.den, leaf)
	}
}

// Odds computes the chance of each outcome of check key ("" = the
// first) and the distribution of its total, exactly when the work fits
// OddsBudget, else by sampling.
func (s *System) Odds(key string, pr Params) (*Odds, error) {
	od, err := s.odds(key, pr, true)
	if err != nil {
		return nil, err
	}
	return od.copy(), nil
}

// Outcomes is Odds without the total's distribution, shared with the
// odds cache: read it, never change its rationals (copy them to keep).
func (s *System) Outcomes(key string, pr Params) (*Odds, error) {
	return s.odds(key, pr, false)
}

// Chance is the chance of success of check key (of an opposed check: that
// the active side wins), and whether it is exact.
func (s *System) Chance(key string, pr Params) (*big.Rat, bool, error) {
	od, err := s.odds(key, pr, false)
	if err != nil {
		return nil, false, err
	}
	return new(big.Rat).Set(od.Success), od.Exact, nil
}

// odds are the check's odds as kept in the cache: shared, never changed.
func (s *System) odds(key string, pr Params, totals bool) (*Odds, error) {
	c, err := s.check(key)
	if err != nil {
		return nil, err
	}
	if len(c.reqs) > 0 {
		a, p := s.sides(c, pr)
		if err := s.require(c, a, p); err != nil {
			return nil, err
		}
	}
	if pr.Fresh {
		return s.computeOdds(c, pr, totals)
	}
	ck := s.cacheKey(c, pr, totals)
	if od := s.cache.get(ck); od != nil {
		return od, nil
	}
	od, err := s.computeOdds(c, pr, totals)
	if err == nil {
		s.cache.put(ck, od)
	}
	return od, err
}

func (s *System) computeOdds(c *check, pr Params, totals bool) (*Odds, error) {
	if c.opposed {
		return s.opposedOdds(c, pr)
	}
	e, _ := s.sides(c, pr)
	outs := make([]weight, len(s.File.Outcomes)+1)
	also := make([][]weight, len(c.also))
	for i := range also {
		also[i] = make([]weight, len(s.File.Outcomes)+1)
	}
	var tots map[num]*weight
	if totals && c.total != nil {
		tots = map[num]*weight{}
	}
	succ := weight{} // counted here with a success: expression, else from the outcomes
	w := newWalker(c, e)
	if !s.stepwise {
		w.same = sameOdds
		if tots != nil {
			w.same = sameTotals
		}
	}
	w.wide = func(e *env, wn, wd *big.Int) {
		o, _ := c.outcomeIdx(e)
		outs[o+1].addWide(wn, wd)
		for i, a := range c.also {
			idx := -1
			if b := a.v.band(e); b != nil {
				idx = b.idx
			}
			also[i][idx+1].addWide(wn, wd)
		}
		if tots != nil {
			t := c.total(e)
			tw := tots[t]
			if tw == nil {
				tw = &weight{}
				tots[t] = tw
			}
			tw.addWide(wn, wd)
		}
	}
	w.walk(e, 0, 1, 1, func(e *env, wn, wd int64) {
		o, _ := c.outcomeIdx(e)
		outs[o+1].add(wn, wd)
		if c.success != nil && c.success(e).truth() {
			succ.add(wn, wd)
		}
		for i, a := range c.also {
			idx := -1
			if b := a.v.band(e); b != nil {
				idx = b.idx
			}
			also[i][idx+1].add(wn, wd)
		}
		if tots != nil {
			t := c.total(e)
			tw := tots[t]
			if tw == nil {
				tw = &weight{}
				tots[t] = tw
			}
			tw.add(wn, wd)
		}
	})
	over := w.over
	w.done()
	if over {
		return s.sample(c, pr)
	}
	n := 1 // the rationals: one block
	for i := range outs {
		if !outs[i].zero() {
			n++
		}
	}
	rats := make([]big.Rat, n)
	od := &Odds{Outcomes: make(map[string]*big.Rat, n-1), Exact: true}
	for i := range outs {
		if outs[i].zero() {
			continue
		}
		k := ""
		if i > 0 {
			k = s.File.Outcomes[i-1].Key
			if c.success == nil && s.File.Outcomes[i-1].Success {
				succ.add(outs[i].n, outs[i].d)
				succ.more = append(succ.more, outs[i].more...)
				if outs[i].big != nil {
					if succ.big == nil {
						succ.big = new(big.Rat)
					}
					succ.big.Add(succ.big, outs[i].big)
				}
				if outs[i].bn != nil {
					succ.addWide(outs[i].bn, outs[i].bd)
				}
			}
		}
		od.Outcomes[k] = outs[i].ratIn(&rats[n-1])
		n--
	}
	od.Success = succ.ratIn(&rats[0])
	for i, a := range c.also {
		if od.Also == nil {
			od.Also = map[string]map[string]*big.Rat{}
		}
		m := map[string]*big.Rat{}
		for j := range also[i] {
			if !also[i][j].zero() {
				k := ""
				if j > 0 {
					k = s.File.Outcomes[j-1].Key
				}
				m[k] = also[i][j].rat()
			}
		}
		od.Also[a.key] = m
	}
	for t, tw := range tots {
		if !t.imp {
			od.Totals = append(od.Totals, TotalP{Total: t.Rat(), P: tw.rat()})
		}
	}
	sort.Slice(od.Totals, func(i, j int) bool { return od.Totals[i].Total.Cmp(od.Totals[j].Total) < 0 })
	return od, nil
}

func (s *System) finish(outs, tots map[string]*big.Rat, exact bool) *Odds {
	od := &Odds{Outcomes: outs, Success: new(big.Rat), Exact: exact}
	for k, p := range outs {
		if o := s.outcomes[k]; o != nil && o.Success {
			od.Success.Add(od.Success, p)
		}
	}
	for k, p := range tots {
		v, _ := new(big.Rat).SetString(k)
		od.Totals = append(od.Totals, TotalP{Total: v, P: p})
	}
	sort.Slice(od.Totals, func(i, j int) bool { return od.Totals[i].Total.Cmp(od.Totals[j].Total) < 0 })
	return od
}

// sideLeaf is one outcome of a side's reduced distribution: its values,
// what the comparison reads of them, and its weight.
type sideLeaf struct {
	e      *env
	keys   []num
	wn, wd int64
	ik     [4]num // what the comparison and the result read (merging)
}

func (s *System) sideLeaves(c *check, e *env) ([]sideLeaf, bool) {
	var out []sideLeaf
	var vals []num
	var envs []env
	// Leaves that agree on what the comparison and the result read are
	// one (Daegon's 100 rolls are 8 levels), when that is at most 4 values.
	// The first 16 found by a scan, more by a map.
	nk := len(c.compare) + len(c.refSlots)
	merge := nk <= 4
	var index map[[4]num]int
	find := func(key [4]num) (int, bool) {
		if index == nil {
			for i := range out {
				if out[i].ik == key {
					return i, true
				}
			}
			if len(out) < 16 {
				return 0, false
			}
			index = make(map[[4]num]int, 2*len(out))
			for i := len(out) - 1; i >= 0; i-- {
				index[out[i].ik] = i
			}
		}
		at, ok := index[key]
		if !ok {
			index[key] = len(out)
		}
		return at, ok
	}
	w := newWalker(c, e)
	if merge && !s.stepwise && !w.granted() {
		// Every leaf weighs out of the same denominator and merges with
		// those of its key: a run of them is one leaf.
		w.same = sameSide
	}
	w.walk(e, 0, 1, 1, func(e *env, wn, wd int64) {
		var key [4]num
		if merge {
			for i, f := range c.compare {
				key[i] = f(e)
			}
			for i, slot := range c.refSlots {
				key[len(c.compare)+i] = e.v[slot]
			}
			if at, ok := find(key); ok {
				l := &out[at]
				switch {
				case l.wd == wd:
					l.wn += wn
					return
				case l.wd < 1<<30 && wd < 1<<30:
					n := ratio(l.wn*wd+wn*l.wd, l.wd*wd)
					l.wn, l.wd = n.n, n.d
					return
				}
				// Too large a denominator to merge: a leaf of its own.
			}
		}
		// Values and envs in blocks of 8 leaves (most sides merge to few).
		nv, nc := len(e.v), len(c.compare)
		if len(vals) < nv+nc {
			vals = make([]num, 8*(nv+nc))
		}
		if len(envs) == 0 {
			envs = make([]env, 8)
		}
		cp := &envs[0]
		envs = envs[1:]
		*cp = env{v: vals[:nv:nv], opp: e.opp}
		copy(cp.v, e.v)
		keys := vals[nv : nv+nc : nv+nc]
		vals = vals[nv+nc:]
		for i, f := range c.compare {
			keys[i] = f(e)
		}
		out = append(out, sideLeaf{e: cp, keys: keys, wn: wn, wd: wd, ik: key})
	})
	ok := !w.over
	w.done()
	return out, ok
}

// wins decides an opposed roll from the sides' comparison keys.
func (c *check) wins(a, p []num) bool {
	for i := range a {
		x, y := a[i], p[i]
		if x.imp || y.imp {
			continue
		}
		if k := x.cmp(y); k != 0 {
			return k > 0
		}
	}
	return c.tieAct
}

func (s *System) opposedOdds(c *check, pr Params) (*Odds, error) {
	a, p := s.sides(c, pr)
	la, ok1 := s.sideLeaves(c, a)
	lp, ok2 := s.sideLeaves(c, p)
	if !ok1 || !ok2 || len(la)*len(lp) > OddsBudget {
		return s.sample(c, pr)
	}
	outs := make([]weight, len(s.File.Outcomes)+1)
	wins := weight{}
	re := &env{}
	for _, x := range la {
		// Unless the result reads the passive side, an active leaf has
		// two outcomes: when it wins and when it loses.
		var ifWon, ifLost int
		if !c.passiveRef {
			re.sides = [2]*env{x.e, lp[0].e}
			re.won = boolean(true)
			ifWon, _ = c.outcomeIdx(re)
			re.won = boolean(false)
			ifLost, _ = c.outcomeIdx(re)
		}
		for _, y := range lp {
			won := c.wins(x.keys, y.keys)
			o := ifLost
			if won {
				o = ifWon
			}
			if c.passiveRef {
				re.sides = [2]*env{x.e, y.e}
				re.won = boolean(won)
				o, _ = c.outcomeIdx(re)
			}
			var n, d int64
			if y.wd > 0 && x.wd <= (1<<62)/y.wd && (x.wn == 0 || y.wn <= (1<<62)/x.wn) {
				n, d = x.wn*y.wn, x.wd*y.wd
			} else {
				return s.sample(c, pr)
			}
			outs[o+1].add(n, d)
			if won {
				wins.add(n, d)
			}
		}
	}
	od := &Odds{Outcomes: map[string]*big.Rat{}, Success: wins.rat(), Exact: true}
	for i := range outs {
		if outs[i].zero() {
			continue
		}
		k := ""
		if i > 0 {
			k = s.File.Outcomes[i-1].Key
		}
		od.Outcomes[k] = outs[i].rat()
	}
	return od, nil
}

// sample estimates the odds from OddsSamples rolls (seeded: the same
// check gives the same figures).
func (s *System) sample(c *check, pr Params) (*Odds, error) {
	src := dice.Seeded(0x7a61726961)
	counts := map[string]int64{}
	tots := map[string]int64{}
	wins := int64(0)
	for range OddsSamples {
		r, err := s.Roll(c.def.Key, pr, src)
		if err != nil {
			return nil, err
		}
		counts[r.Outcome]++
		if r.Total != nil {
			tots[r.Total.RatString()]++
		}
		if r.Winner == "active" || (c.success != nil && r.Success) {
			wins++
		}
	}
	outs, tr := map[string]*big.Rat{}, map[string]*big.Rat{}
	for k, n := range counts {
		outs[k] = big.NewRat(n, OddsSamples)
	}
	for k, n := range tots {
		tr[k] = big.NewRat(n, OddsSamples)
	}
	od := s.finish(outs, tr, false)
	if c.opposed || c.success != nil {
		od.Success = big.NewRat(wins, OddsSamples)
	}
	return od, nil
}

// oddsCache keeps the odds of the checks asked lately: they depend only
// on the check, its inputs and the house rules, and a chat asks the same
// ones again (the reply's odds, its 📊, /odds). At most oddsCacheSize
// answers and oddsCacheBytes of them (Dungeon Hack's whole damage
// distributions run to tens of KiB each), emptied when full; an answer
// larger than the cap alone is not kept.
type oddsCache struct {
	mu    sync.Mutex
	m     map[string]*Odds
	bytes int // the answers' sizes and their keys' (Odds.size)
}

const (
	oddsCacheSize  = 4096
	oddsCacheBytes = 2 << 20
)

func (oc *oddsCache) get(k string) *Odds {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	return oc.m[k]
}

func (oc *oddsCache) put(k string, od *Odds) {
	n := len(k) + od.size()
	if n > oddsCacheBytes {
		return
	}
	oc.mu.Lock()
	defer oc.mu.Unlock()
	if old, ok := oc.m[k]; ok {
		oc.bytes -= len(k) + old.size()
		delete(oc.m, k)
	}
	if oc.m == nil || len(oc.m) >= oddsCacheSize || oc.bytes+n > oddsCacheBytes {
		oc.m, oc.bytes = map[string]*Odds{}, 0
	}
	oc.m[k] = od
	oc.bytes += n
}

// size is about how many bytes od holds: its rationals' words and the
// maps' and slices' entries.
func (od *Odds) size() int {
	const entry = 48 // a map entry: its key's header, a pointer, the bucket's share
	n := 64 + ratSize(od.Success)
	for k, r := range od.Outcomes {
		n += entry + len(k) + ratSize(r)
	}
	for k, m := range od.Also {
		n += entry + len(k)
		for o, r := range m {
			n += entry + len(o) + ratSize(r)
		}
	}
	for _, t := range od.Totals {
		n += 16 + ratSize(t.Total) + ratSize(t.P)
	}
	return n
}

// ratSize is a big.Rat's bytes: its two integers and their words.
func ratSize(r *big.Rat) int {
	if r == nil {
		return 0
	}
	return 80 + 8*(len(r.Num().Bits())+len(r.Denom().Bits()))
}

// cacheKey names a check's odds: the check, every input and house rule
// as the check sees them (defaults applied), each side's.
func (s *System) cacheKey(c *check, pr Params, totals bool) string {
	b := make([]byte, 0, 64)
	b = append(b, c.def.Key...)
	if totals {
		b = append(b, '+')
	}
	side := func(in map[string]int) {
		for _, k := range s.inputSlots {
			b = append(b, '|')
			if v, ok := in[k]; ok {
				b = strconv.AppendInt(b, int64(v), 10)
			}
		}
	}
	side(pr.Inputs)
	if c.opposed {
		b = append(b, '/')
		side(pr.Passive)
	}
	for _, k := range s.ruleSlots {
		h := s.rules[k]
		idx := h.index(pr.Rules[k])
		if idx < 0 {
			idx = h.index(h.Default)
		}
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(idx), 10)
	}
	return string(b)
}

// copy gives a caller its own rationals.
func (od *Odds) copy() *Odds {
	out := &Odds{Success: new(big.Rat).Set(od.Success), Exact: od.Exact}
	if od.Outcomes != nil {
		out.Outcomes = make(map[string]*big.Rat, len(od.Outcomes))
		for k, v := range od.Outcomes {
			out.Outcomes[k] = new(big.Rat).Set(v)
		}
	}
	for k, m := range od.Also {
		if out.Also == nil {
			out.Also = map[string]map[string]*big.Rat{}
		}
		cm := map[string]*big.Rat{}
		for o, v := range m {
			cm[o] = new(big.Rat).Set(v)
		}
		out.Also[k] = cm
	}
	for _, t := range od.Totals {
		out.Totals = append(out.Totals, TotalP{Total: new(big.Rat).Set(t.Total), P: new(big.Rat).Set(t.P)})
	}
	return out
}

// Cell is a table's cell: its value and false when it is "-" or out of
// the table (col is ignored by a 1-D table).
func (s *System) Cell(table string, row, col int) (*big.Rat, bool) {
	tb := s.tables[table]
	if tb == nil {
		return nil, false
	}
	r, c := row-tb.rows.From, 0
	if tb.twoD {
		c = col - tb.cols.From
	} else {
		r, c = 0, row-tb.rows.From
	}
	if r < 0 || r >= len(tb.cells) || c < 0 || c >= len(tb.cells[r]) || tb.cells[r][c].imp {
		return nil, false
	}
	return tb.cells[r][c].Rat(), true
}

// ValueDist is the exact distribution of a let of check key (Daegon's
// level of success), its values in increasing order.
func (s *System) ValueDist(key string, pr Params, let string) ([]TotalP, error) {
	c, err := s.check(key)
	if err != nil {
		return nil, err
	}
	slot, ok := c.slots[let]
	if !ok || c.opposed {
		return nil, fmt.Errorf("engine: check %s has no value %q of one side", key, let)
	}
	e, _ := s.sides(c, pr)
	if err := s.require(c, e, nil); err != nil {
		return nil, err
	}
	tots := map[num]*weight{}
	w := newWalker(c, e)
	w.walk(e, 0, 1, 1, func(e *env, wn, wd int64) {
		v := e.v[slot]
		tw := tots[v]
		if tw == nil {
			tw = &weight{}
			tots[v] = tw
		}
		tw.add(wn, wd)
	})
	if w.over {
		return nil, fmt.Errorf("engine: %s's %s has too many outcomes to enumerate", key, let)
	}
	var out []TotalP
	for v, tw := range tots {
		if !v.imp {
			out = append(out, TotalP{Total: v.Rat(), P: tw.rat()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Total.Cmp(out[j].Total) < 0 })
	return out, nil
}

// Value is a let of check key that reads no dice (RQ's critical range for
// a chance), computed from the inputs and house rules; ok is false when
// the let reads the dice or is impossible.
func (s *System) Value(key string, pr Params, let string) (*big.Rat, bool) {
	c, err := s.check(key)
	if err != nil {
		return nil, false
	}
	slot, ok := c.slots[let]
	if !ok || c.dynSlots[slot] {
		return nil, false
	}
	e, _ := s.sides(c, pr)
	newWalker(c, e)
	r := e.v[slot].Rat()
	return r, r != nil
}
