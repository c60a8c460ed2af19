package engine

import (
	"math/big"
	"sort"
	"strings"

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
}

func (s *System) newEnv(c *check, in map[string]int, rules map[string]string) *env {
	e := &env{v: make([]num, c.nvars), r: make([]num, c.nreads)}
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

// count is how many dice a roll step rolls in e.
func (rs *rollStep) n(e *env) (int, error) {
	v := rs.count(e)
	if !v.isInt() || v.n < 0 {
		return 0, &Error{Key: "engine.error.dice_count", Args: map[string]any{"pool": rs.name}}
	}
	if v.n > MaxPoolDice {
		return 0, limitErr("pool_dice", MaxPoolDice, int(v.n))
	}
	return int(v.n), nil
}

// run rolls the steps of c in e with src.
func (c *check) run(e *env, src dice.Source, faces, sides *[]int) error {
	for _, st := range c.steps {
		if st.roll == nil {
			st.let(e)
			continue
		}
		n, err := st.roll.n(e)
		if err != nil {
			return err
		}
		before := len(*faces)
		d, _ := st.roll.roll(src, n, faces)
		for range len(*faces) - before {
			*sides = append(*sides, st.roll.faces)
		}
		if len(*faces) > MaxCheckDice {
			return limitErr("check_dice", MaxCheckDice, len(*faces))
		}
		for j, rd := range st.roll.reads {
			e.r[st.roll.first+j] = rd.read(d)
		}
	}
	return nil
}

// outcome applies the overrides and bands to e.
func (c *check) outcome(e *env) (string, num) {
	for _, o := range c.overr {
		if o.when(e).truth() {
			return o.outcome, levelOf(o.level, e)
		}
	}
	if len(c.bands) == 0 {
		return "", impossible
	}
	var v num
	if c.on != nil {
		if v = c.on(e); v.imp {
			return "", impossible
		}
	}
	for _, b := range c.bands {
		if b.last {
			return b.outcome, levelOf(b.level, e)
		}
		k := v.cmp(b.bound)
		if k > 0 || (k == 0 && !b.strict) {
			return b.outcome, levelOf(b.level, e)
		}
	}
	return "", impossible
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
	res := &Result{Check: c.def.Key}
	if err := c.run(a, src, &res.Dice, &res.Sides); err != nil {
		return nil, err
	}
	re := a
	if c.opposed {
		if err := c.run(p, src, &res.Dice, &res.Sides); err != nil {
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
	res.Success = o != "" && s.outcomes[o].Success
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
	Outcomes map[string]*big.Rat // "" collects rolls with no outcome
	Success  *big.Rat            // an opposed check: the active side wins
	Totals   []TotalP            // the distribution of the check's total
	Exact    bool
}

// TotalP is one value of a check's total and its chance.
type TotalP struct {
	Total *big.Rat
	P     *big.Rat
}

// acc adds weights n/d by key without big arithmetic on every leaf.
type acc map[accKey]int64

type accKey struct {
	key string
	d   int64
}

func (a acc) rats() map[string]*big.Rat {
	out := map[string]*big.Rat{}
	for k, n := range a {
		r := big.NewRat(n, k.d)
		if o, ok := out[k.key]; ok {
			r.Add(r, o)
		}
		out[k.key] = r
	}
	return out
}

// walker enumerates a check's reduced distributions.
type walker struct {
	c      *check
	leaves int
	over   bool
}

// walk calls leaf for every combination of the pools' reduced
// distributions, with its weight wn/wd.
func (w *walker) walk(e *env, i int, wn, wd int64, leaf func(e *env, wn, wd int64)) {
	if w.over {
		return
	}
	if i == len(w.c.steps) {
		if w.leaves++; w.leaves > OddsBudget {
			w.over = true
			return
		}
		leaf(e, wn, wd)
		return
	}
	st := w.c.steps[i]
	if st.roll == nil {
		st.let(e)
		w.walk(e, i+1, wn, wd, leaf)
		return
	}
	n, err := st.roll.n(e)
	if err != nil {
		w.over = true
		return
	}
	pd, ok := st.roll.dist(n)
	if !ok || wd > (1<<62)/pd.den {
		w.over = true
		return
	}
	first := st.roll.first
	for j, reads := range pd.reads {
		copy(e.r[first:], reads)
		w.walk(e, i+1, wn*pd.counts[j], wd*pd.den, leaf)
	}
}

// Odds computes the chance of each outcome of check key ("" = the
// first), exactly when the work fits OddsBudget, else by sampling.
func (s *System) Odds(key string, pr Params) (*Odds, error) {
	c, err := s.check(key)
	if err != nil {
		return nil, err
	}
	if c.opposed {
		return s.opposedOdds(c, pr)
	}
	e, _ := s.sides(c, pr)
	outs, tots := acc{}, acc{}
	w := &walker{c: c}
	w.walk(e, 0, 1, 1, func(e *env, wn, wd int64) {
		o, _ := c.outcome(e)
		g := gcd(wn, wd)
		k := accKey{o, wd / g}
		outs[k] += wn / g
		if c.total != nil {
			tots[accKey{c.total(e).String(), wd / g}] += wn / g
		}
	})
	if w.over {
		return s.sample(c, pr)
	}
	return s.finish(outs.rats(), tots.rats(), true), nil
}

func (s *System) finish(outs, tots map[string]*big.Rat, exact bool) *Odds {
	od := &Odds{Outcomes: outs, Success: new(big.Rat), Exact: exact}
	for k, p := range outs {
		if o := s.outcomes[k]; o != nil && o.Success {
			od.Success.Add(od.Success, p)
		}
	}
	for k, p := range tots {
		if k == "-" {
			continue
		}
		v, _ := new(big.Rat).SetString(k)
		od.Totals = append(od.Totals, TotalP{Total: v, P: p})
	}
	sort.Slice(od.Totals, func(i, j int) bool { return od.Totals[i].Total.Cmp(od.Totals[j].Total) < 0 })
	return od
}

// sideLeaf is one distinct outcome of a side: its values and weight.
type sideLeaf struct {
	e      *env
	wn, wd int64
}

func (s *System) sideLeaves(c *check, e *env) ([]sideLeaf, bool) {
	index := map[string]int{}
	var out []sideLeaf
	var b strings.Builder
	w := &walker{c: c}
	w.walk(e, 0, 1, 1, func(e *env, wn, wd int64) {
		b.Reset()
		for _, v := range e.v {
			b.WriteString(v.String())
			b.WriteByte(' ')
		}
		k := b.String()
		g := gcd(wn, wd)
		wn, wd = wn/g, wd/g
		if i, ok := index[k]; ok {
			l := &out[i]
			if l.wd == wd {
				l.wn += wn
				return
			}
			n := ratio(l.wn*wd+wn*l.wd, l.wd*wd)
			l.wn, l.wd = n.n, n.d
			return
		}
		cp := &env{v: append([]num(nil), e.v...), opp: e.opp}
		index[k] = len(out)
		out = append(out, sideLeaf{e: cp, wn: wn, wd: wd})
	})
	return out, !w.over && len(out)*len(out) <= OddsBudget*4
}

func (s *System) opposedOdds(c *check, pr Params) (*Odds, error) {
	a, p := s.sides(c, pr)
	la, ok1 := s.sideLeaves(c, a)
	lp, ok2 := s.sideLeaves(c, p)
	if !ok1 || !ok2 || len(la)*len(lp) > OddsBudget {
		return s.sample(c, pr)
	}
	outs := acc{}
	re := &env{}
	for _, x := range la {
		for _, y := range lp {
			re.sides = [2]*env{x.e, y.e}
			re.won = boolean(c.decide(x.e, y.e))
			o, _ := c.outcome(re)
			k := "passive"
			if re.won.truth() {
				k = "active"
			}
			n := ratio(x.wn*y.wn, x.wd*y.wd)
			outs[accKey{o, n.d}] += n.n
			outs[accKey{"\x00" + k, n.d}] += n.n
		}
	}
	all := outs.rats()
	od := s.finish(map[string]*big.Rat{}, nil, true)
	for k, v := range all {
		if k == "\x00active" {
			od.Success = v
		} else if !strings.HasPrefix(k, "\x00") {
			od.Outcomes[k] = v
		}
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
		if r.Winner == "active" {
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
	if c.opposed {
		od.Success = big.NewRat(wins, OddsSamples)
	}
	return od, nil
}
