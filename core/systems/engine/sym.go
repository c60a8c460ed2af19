package engine

import "sort"

// Runs of a pool's rolls (the odds' fast path). A check's last pool
// (a d100, Kingdom Hearts' granted dice) is walked in the order of one
// of its readings t; the steps after it are evaluated once over a whole
// run of rolls lo ≤ t ≤ hi, each value as a·t + b (a = 0: the same on
// every roll of the run) or unknown. When what the odds read (the
// outcome, the success, the total, an opposed side's keys) is the same
// over the run, the run is one leaf weighing all its rolls; else it is
// split where a comparison changes, down to rolls of one value of t,
// which the walk enumerates as ever. Every rule below holds for every t
// in [lo, hi], so a run decided is decided for each of its rolls: the
// odds are those of the walk roll by roll (TestRunsEqualTheWalk).

// symFn is an expression's value over a run.
type symFn func(*senv) sym

// sym is a·t + b, or unknown (unk). a is never impossible; a = 0 is the
// constant b, which may be.
type sym struct {
	a, b num
	unk  bool
}

var (
	unkSym  = sym{unk: true}
	zeroNum = integer(0)
)

func konst(v num) sym { return sym{a: zeroNum, b: v} }

func (s sym) isConst() bool { return !s.unk && s.a.n == 0 }

// at is the value at t.
func (s sym) at(t int64) num { return s.a.mul(integer(t)).add(s.b) }

// senv is an env over a run of the pool's rolls lo ≤ t ≤ hi, t its
// reading key. A comparison that would change within the run lowers hi
// to the last t where it does not (its value at lo then holds over the
// whole run): a pass over the steps finds both the values and how far
// they hold.
type senv struct {
	e      *env
	pool   *rollStep
	key    int
	lo, hi int64
	tail   []bool // the slots computed after the pool: their values in sv
	sv     []sym
	other  bool // a reading of the pool other than t was read
}

func sign(v num) int {
	switch {
	case v.n < 0:
		return -1
	case v.n > 0:
		return 1
	}
	return 0
}

type tri int8

const (
	no tri = iota
	yes
	unsure
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// A comparison's operator.
type cmpOp int8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

func opOf(op string) cmpOp {
	return map[string]cmpOp{"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}[op]
}

// signHolds is whether a difference of sign s meets op.
func signHolds(op cmpOp, s int) bool {
	switch op {
	case opEq:
		return s == 0
	case opNe:
		return s != 0
	case opLt:
		return s < 0
	case opLe:
		return s <= 0
	case opGt:
		return s > 0
	}
	return s >= 0
}

// holds is whether d = a·t + b (not constant) meets op over the run: its
// value at lo, the run cut to where it stays. d is 0 at r = −b/a alone:
// d op 0 is t < r, t ≤ r, t > r or t ≥ r (by op and the sign of a),
// which changes after the last whole t below r or up to r; == and != at
// both.
func (se *senv) holds(op cmpOp, d sym) tri {
	r := d.b.neg().div(d.a)
	below := -floorDiv(-r.n, r.d) - 1 // the last whole t under r
	upto := floorDiv(r.n, r.d)        // the last one up to r
	var at int64
	switch op {
	case opEq, opNe:
		at = below
		if se.lo > below {
			at = upto
		}
	case opLe, opGt:
		at = upto
		if d.a.n < 0 {
			at = below
		}
	default:
		at = below
		if d.a.n < 0 {
			at = upto
		}
	}
	if se.lo <= at {
		se.hi = min(se.hi, at)
	}
	return triOf(signHolds(op, sign(d.at(se.lo))))
}

// truth is whether s is true over the run (num.truth: possible and
// not 0).
func (se *senv) truth(s sym) tri {
	switch {
	case s.unk:
		return unsure
	case s.a.n == 0:
		return triOf(s.b.truth())
	}
	return se.holds(opNe, s)
}

func (s sym) sub(t sym) sym { return sym{a: s.a.add(t.a.neg()), b: s.b.add(t.b.neg())} }

// symCompare is compare's value over the run.
func symCompare(name string, a, b symFn) symFn {
	op := opOf(name)
	return func(se *senv) sym {
		x, y := a(se), b(se)
		if x.unk || y.unk {
			return unkSym
		}
		if (x.isConst() && x.b.imp) || (y.isConst() && y.b.imp) {
			return konst(boolean(false))
		}
		d := x.sub(y)
		if d.a.n == 0 {
			return konst(boolean(signHolds(op, sign(d.b))))
		}
		return konst(boolean(se.holds(op, d) == yes))
	}
}

// symLogic is and (and true), or (and false) and not (b nil) over the run.
func symLogic(and bool, a, b symFn) symFn {
	if b == nil {
		return func(se *senv) sym {
			switch se.truth(a(se)) {
			case yes:
				return konst(boolean(false))
			case no:
				return konst(boolean(true))
			}
			return unkSym
		}
	}
	// and: false when either is false; or: true when either is true.
	stop := triOf(!and)
	return func(se *senv) sym {
		x := se.truth(a(se))
		if x == stop {
			return konst(boolean(!and))
		}
		y := se.truth(b(se))
		switch {
		case y == stop:
			return konst(boolean(!and))
		case x == unsure || y == unsure:
			return unkSym
		}
		return konst(boolean(and))
	}
}

// symArith is +, − (neg of b), · and / over the run: affine while one
// side of a product or the divisor is constant.
func symArith(op byte, a, b symFn) symFn {
	return func(se *senv) sym {
		x, y := a(se), b(se)
		if x.unk || y.unk {
			return unkSym
		}
		if x.isConst() && y.isConst() {
			switch op {
			case '+':
				return konst(x.b.add(y.b))
			case '-':
				return konst(x.b.add(y.b.neg()))
			case '*':
				return konst(x.b.mul(y.b))
			}
			return konst(x.b.div(y.b))
		}
		if (x.isConst() && x.b.imp) || (y.isConst() && y.b.imp) {
			return konst(impossible)
		}
		switch op {
		case '+':
			return sym{a: x.a.add(y.a), b: x.b.add(y.b)}
		case '-':
			return x.sub(y)
		case '*':
			if x.isConst() {
				x, y = y, x
			}
			if !y.isConst() {
				return unkSym
			}
			return sym{a: x.a.mul(y.b), b: x.b.mul(y.b)}
		}
		if !y.isConst() {
			return unkSym
		}
		if y.b.n == 0 {
			return konst(impossible)
		}
		return sym{a: x.a.div(y.b), b: x.b.div(y.b)}
	}
}

func symNeg(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.unk {
			return x
		}
		return sym{a: x.a.neg(), b: x.b.neg()}
	}
}

// symRound: every rounding is nondecreasing, and a·t + b monotone:
// the run is cut to the last t whose rounding is the one at lo.
func symRound(mode string, a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.unk {
			return x
		}
		if x.isConst() {
			return konst(x.b.round(mode))
		}
		at := x.at(se.lo).round(mode)
		lo, hi := se.lo, se.hi // at holds at lo; find the last t that keeps it
		for lo < hi {
			m := lo + (hi-lo+1)/2
			if x.at(m).round(mode).cmp(at) == 0 {
				lo = m
			} else {
				hi = m - 1
			}
		}
		se.hi = lo
		return konst(at)
	}
}

func symAbs(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.unk {
			return x
		}
		if x.isConst() {
			if !x.b.imp && x.b.n < 0 {
				return konst(x.b.neg())
			}
			return x
		}
		if se.holds(opLt, x) == yes {
			return sym{a: x.a.neg(), b: x.b.neg()}
		}
		return x
	}
}

func symPossible(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.unk {
			return x
		}
		return konst(boolean(!x.isConst() || !x.b.imp))
	}
}

func symIf(c, a, b symFn) symFn {
	return func(se *senv) sym {
		switch se.truth(c(se)) {
		case yes:
			return a(se)
		case no:
			return b(se)
		}
		return unkSym
	}
}

// symMinMax is min (sign −1) or max (+1) over the run.
func symMinMax(sgn int, fns []symFn) symFn {
	op := opGt
	if sgn < 0 {
		op = opLt
	}
	return func(se *senv) sym {
		best := fns[0](se)
		for _, f := range fns[1:] {
			x := f(se)
			if x.unk || best.unk {
				return unkSym
			}
			if (x.isConst() && x.b.imp) || (best.isConst() && best.b.imp) {
				return konst(impossible)
			}
			d := x.sub(best)
			if (d.a.n == 0 && signHolds(op, sign(d.b))) || (d.a.n != 0 && se.holds(op, d) == yes) {
				best = x
			}
		}
		return best
	}
}

// symCountWhile is count_while over the run: its bounds constant, each
// column's condition decided.
func symCountWhile(from, to, cond symFn) symFn {
	return func(se *senv) sym {
		a, b := from(se), to(se)
		if !a.isConst() || !b.isConst() {
			return unkSym
		}
		if !a.b.isInt() || !b.b.isInt() {
			return konst(impossible)
		}
		n := int64(0)
		for k := a.b.n; k <= b.b.n && k-a.b.n < MaxCountWhile; k++ {
			se.e.loop = integer(k)
			t := se.truth(cond(se))
			if t == unsure {
				return unkSym
			}
			if t == no {
				break
			}
			n++
		}
		return konst(integer(n))
	}
}

// symConstArgs is f of its arguments when they are constant (a table's
// cell).
func symConstArgs(f func(args []num) num, fns []symFn) symFn {
	return func(se *senv) sym {
		var buf [2]num
		args := buf[:0]
		for _, fn := range fns {
			x := fn(se)
			if !x.isConst() {
				return unkSym
			}
			args = append(args, x.b)
		}
		return konst(f(args))
	}
}

// symSlot is a value of the check: over the run when computed after the
// pool, else the same on every roll.
func symSlot(slot int) symFn {
	return func(se *senv) sym {
		if se.tail[slot] {
			return se.sv[slot]
		}
		return konst(se.e.v[slot])
	}
}

// symReading is reading idx of pool rs: t itself when it is the key,
// unknown when another reading of the run's pool, else (an earlier
// pool's) the same on every roll.
func symReading(rs *rollStep, idx int) symFn {
	return func(se *senv) sym {
		if se.pool != rs {
			return konst(se.e.r[rs.first+idx])
		}
		if idx == se.key {
			return sym{a: integer(1), b: zeroNum}
		}
		se.other = true
		return unkSym
	}
}

// symOf is n's value over a run: what reads no dice is the same on every
// roll (computed as ever, in the run's env); what has no rule is unknown.
func (n node) symOf() symFn {
	if !n.dyn {
		f := n.fn
		if f == nil {
			return nil
		}
		return func(se *senv) sym { return konst(f(se.e)) }
	}
	if n.sy != nil {
		return n.sy
	}
	return func(*senv) sym { return unkSym }
}

// keyOrder is a pool distribution's tuples by one reading's value.
type keyOrder struct {
	order []int32 // the tuples, by value
	vals  []int64 // each one's value
	pre   []int64 // pre[k]: the counts of order[:k] summed
}

// byReading is pd's tuples by reading j, nil when some value of it is
// not a whole number.
func (pd *poolDist) byReading(j int) *keyOrder {
	pd.once.Do(func() {
		if len(pd.reads) == 0 {
			return
		}
		pd.orders = make([]*keyOrder, len(pd.reads[0]))
		for k := range pd.orders {
			pd.orders[k] = pd.sortBy(k)
		}
	})
	if j >= len(pd.orders) {
		return nil
	}
	return pd.orders[j]
}

func (pd *poolDist) sortBy(j int) *keyOrder {
	ko := &keyOrder{order: make([]int32, len(pd.reads)), vals: make([]int64, len(pd.reads)), pre: make([]int64, len(pd.reads)+1)}
	for i, r := range pd.reads {
		if !r[j].isInt() {
			return nil
		}
		ko.order[i] = int32(i)
	}
	sort.SliceStable(ko.order, func(a, b int) bool { return pd.reads[ko.order[a]][j].n < pd.reads[ko.order[b]][j].n })
	for k, i := range ko.order {
		ko.vals[k] = pd.reads[i][j].n
		ko.pre[k+1] = ko.pre[k] + pd.counts[i]
	}
	return ko
}

// minRun: a pool of fewer tuples is walked tuple by tuple.
const minRun = 4

// runs walks the last pool, step i of distribution pd, by runs of its
// rolls; false when none of its readings orders them (the walk then
// enumerates it).
func (w *walker) runs(e *env, i int, pd *poolDist, wn, wd int64, leaf func(e *env, wn, wd int64)) bool {
	if w.key == -2 {
		return false
	}
	se := w.se
	if se == nil {
		se = &senv{e: e, pool: w.steps[i].roll, tail: make([]bool, len(e.v)), sv: make([]sym, len(e.v))}
		for _, ps := range w.steps[i+1:] {
			se.tail[ps.slot] = true
		}
		w.se = se
	}
	se.e = e
	if w.key == -1 {
		// The first reading the steps after the pool read alone.
		for j := range pd.reads[0] {
			ko := pd.byReading(j)
			if ko == nil {
				continue
			}
			se.key = j
			w.decided(e, i, pd, ko, 0)
			if !se.other {
				w.key = j
				break
			}
		}
		if w.key < 0 {
			w.key = -2
			return false
		}
	}
	ko := pd.byReading(w.key)
	if ko == nil {
		return false
	}
	se.key = w.key
	first, last := w.steps[i].roll.first, len(ko.order)-1
	for p := 0; p <= last && !w.over; {
		if w.decided(e, i, pd, ko, p) {
			// One leaf, e holding the run's first roll and its values.
			q := p + sort.Search(last-p+1, func(k int) bool { return ko.vals[p+k] > se.hi }) - 1
			if w.leaves += q - p + 1; w.leaves > OddsBudget {
				w.over = true
				return true
			}
			leaf(e, wn*(ko.pre[q+1]-ko.pre[p]), wd*pd.den)
			p = q + 1
			continue
		}
		// The rolls of this value of t, one by one.
		for t := ko.vals[p]; p <= last && ko.vals[p] == t; p++ {
			j := ko.order[p]
			copy(e.r[first:], pd.reads[j])
			w.walk(e, i+1, wn*pd.counts[j], wd*pd.den, leaf)
		}
	}
	return true
}

// decided computes the steps after the pool for the roll order[p], and
// over the run from it to as far as (se.hi) what the odds read stays
// the same; false when it cannot tell.
func (w *walker) decided(e *env, i int, pd *poolDist, ko *keyOrder, p int) bool {
	copy(e.r[w.steps[i].roll.first:], pd.reads[ko.order[p]])
	for k := i + 1; k < len(w.steps); k++ {
		w.steps[k].let(e)
	}
	se := w.se
	se.lo, se.hi, se.other = ko.vals[p], ko.vals[len(ko.vals)-1], false
	for k := i + 1; k < len(w.steps); k++ {
		if !w.steps[k].symLet(se) {
			return false
		}
	}
	return w.same(se)
}

// symLet is the let's value over the run; false when which case holds
// changes within it.
func (ps *pstep) symLet(se *senv) bool {
	last := len(ps.cases) - 1
	for i := range ps.cases {
		cs := &ps.cases[i]
		if i != last {
			if cs.whenS == nil {
				return false
			}
			switch se.truth(cs.whenS(se)) {
			case no:
				continue
			case unsure:
				return false
			}
		}
		if cs.isS == nil {
			return false
		}
		se.sv[ps.slot] = cs.isS(se)
		return true
	}
	return true
}

// decidedOver reports whether the verdict's band is the same over the
// run.
func (c *verdict) decidedOver(se *senv) bool {
	for i := range c.overr {
		f := c.overr[i].whenS
		if f == nil {
			return false
		}
		switch se.truth(f(se)) {
		case yes:
			return true
		case unsure:
			return false
		}
	}
	if len(c.bands) == 0 || c.on == nil {
		return true
	}
	if c.onS == nil {
		return false
	}
	v := c.onS(se)
	switch {
	case v.unk:
		return false
	case v.isConst():
		return true
	}
	for i := range c.bands {
		b := &c.bands[i]
		if b.last {
			return true
		}
		op := opGe
		if b.strict {
			op = opGt
		}
		switch se.holds(op, v.sub(konst(b.bound))) {
		case yes:
			return true
		case unsure:
			return false
		}
	}
	return true
}

// oddsSame: the outcome, the success, the further results and the total
// (when wanted) are the same over the run.
func (c *check) oddsSame(totals bool) func(se *senv) bool {
	return func(se *senv) bool {
		if !c.verdict.decidedOver(se) {
			return false
		}
		if c.success != nil && (c.successS == nil || se.truth(c.successS(se)) == unsure) {
			return false
		}
		for _, a := range c.also {
			if !a.v.decidedOver(se) {
				return false
			}
		}
		if totals && c.total != nil && (c.totalS == nil || !c.totalS(se).isConst()) {
			return false
		}
		return true
	}
}

// sideSame: an opposed side's comparison keys and the values its result
// reads are the same over the run.
func (c *check) sideSame(se *senv) bool {
	for _, f := range c.compareS {
		if f == nil || !f(se).isConst() {
			return false
		}
	}
	for _, slot := range c.refSlots {
		if !symSlot(slot)(se).isConst() {
			return false
		}
	}
	return true
}
