package engine

import "sort"

// Runs of a pool's rolls (the odds' fast path). A check's last pool
// (a d100, Kingdom Hearts' granted dice) is walked in the order of one
// of its readings t; the steps after it are evaluated once over a run of
// rolls lo ≤ t ≤ hi, each value as a·t + b in whole numbers (a = 0: the
// same on every roll of the run), a constant, or unknown. A comparison
// that would change within the run cuts it (hi) to where it does not,
// so one pass gives both the values and how far they hold; when what the
// odds read (the outcome, the success, the total, an opposed side's
// keys) is known over the run, the run is one leaf weighing all its
// rolls. Unknown (a product of two values of t, a reading other than t)
// leaves the rolls of that t to the walk one by one. Every rule below
// holds for every t in [lo, hi], so the odds are those of the walk roll
// by roll (TestRunsEqualTheWalk).

// symFn is an expression's value over a run.
type symFn func(*senv) sym

// sym is a value over a run: a·t + b (symLin; a = 0 the constant b), the
// constant a/b (symRat, not whole), impossible, or unknown.
type sym struct {
	a, b int64
	k    symKind
}

type symKind uint8

const (
	symLin symKind = iota
	symRat
	symImp
	symUnk
)

var unkSym = sym{k: symUnk}

// symMax bounds a and b, far inside int64 for any t of a pool (64 dice
// of 1,000 faces): past it a value is unknown.
const symMax = 1 << 40

func konst(v num) sym {
	switch {
	case v.imp:
		return sym{k: symImp}
	case v.d == 1:
		return sym{b: v.n}
	}
	return sym{a: v.n, b: v.d, k: symRat}
}

func lin(a, b int64) sym {
	if a > symMax || a < -symMax || b > symMax || b < -symMax {
		return unkSym
	}
	return sym{a: a, b: b}
}

// small: a·t + b whose a and b are within symMax.
func small(s sym) bool { return s.a <= symMax && s.a >= -symMax && s.b <= symMax && s.b >= -symMax }

func (s sym) isConst() bool { return s.k == symRat || s.k == symImp || (s.k == symLin && s.a == 0) }

// num is a constant's value.
func (s sym) num() num {
	switch s.k {
	case symImp:
		return impossible
	case symRat:
		return num{n: s.a, d: s.b}
	}
	return integer(s.b)
}

// varies: a·t + b with a ≠ 0.
func (s sym) varies() bool { return s.k == symLin && s.a != 0 }

// senv is an env over a run of the pool's rolls lo ≤ t ≤ hi, t its
// reading key.
type senv struct {
	e      *env
	pool   *rollStep
	key    int
	lo, hi int64
	tail   []bool // the slots computed after the pool: their values in sv
	sv     []sym
	other  bool // a reading of the pool other than t was read
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

func sign64(v int64) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// holds is whether a·t + b (a ≠ 0) meets op over the run: its value at
// lo, the run cut to where it stays. It is 0 at r = −b/a alone: "op 0"
// is t < r, t ≤ r, t > r or t ≥ r (by op and the sign of a), which
// changes after the last whole t below r or the last up to r; == and !=
// at both.
func (se *senv) holds(op cmpOp, a, b int64) tri {
	below, upto := -floorDiv(b, a)-1, floorDiv(-b, a)
	var at int64
	switch op {
	case opEq, opNe:
		at = below
		if se.lo > below {
			at = upto
		}
	case opLe, opGt:
		at = upto
		if a < 0 {
			at = below
		}
	default:
		at = below
		if a < 0 {
			at = upto
		}
	}
	if se.lo <= at {
		se.hi = min(se.hi, at)
	}
	return triOf(signHolds(op, sign64(a*se.lo+b)))
}

// truth is whether s is true over the run (num.truth: possible and
// not 0).
func (se *senv) truth(s sym) tri {
	switch {
	case s.k == symUnk:
		return unsure
	case s.varies():
		return se.holds(opNe, s.a, s.b)
	}
	return triOf(s.num().truth())
}

// cmpSym is x op y over the run (compare: false when either is
// impossible).
func (se *senv) cmpSym(op cmpOp, x, y sym) tri {
	switch {
	case x.k == symUnk || y.k == symUnk:
		return unsure
	case x.k == symImp || y.k == symImp:
		return no
	case x.isConst() && y.isConst():
		return triOf(signHolds(op, x.num().cmp(y.num())))
	case x.k == symLin && y.k == symLin && small(x) && small(y):
		return se.holds(op, x.a-y.a, x.b-y.b) // a ≠ 0: one of them varies
	}
	return unsure // a fraction, or a huge number, against a value of t
}

func symBool(t tri) sym {
	switch t {
	case yes:
		return sym{b: 1}
	case no:
		return sym{}
	}
	return unkSym
}

// symCompare is compare's value over the run.
func symCompare(name string, a, b symFn) symFn {
	op := opOf(name)
	return func(se *senv) sym { return symBool(se.cmpSym(op, a(se), b(se))) }
}

// symLogic is and (and true), or (and false) and not (b nil) over the run.
func symLogic(and bool, a, b symFn) symFn {
	if b == nil {
		return func(se *senv) sym {
			switch se.truth(a(se)) {
			case yes:
				return symBool(no)
			case no:
				return symBool(yes)
			}
			return unkSym
		}
	}
	// and: false when either is false; or: true when either is true.
	stop := triOf(!and)
	return func(se *senv) sym {
		x := se.truth(a(se))
		if x == stop {
			return symBool(stop)
		}
		y := se.truth(b(se))
		switch {
		case y == stop:
			return symBool(stop)
		case x == unsure || y == unsure:
			return unkSym
		}
		return symBool(triOf(and))
	}
}

// symArith is +, −, · and / over the run: a·t + b while one side of a
// product is constant and a divisor divides both.
func symArith(op byte, a, b symFn) symFn {
	return func(se *senv) sym {
		x, y := a(se), b(se)
		switch {
		case x.k == symUnk || y.k == symUnk:
			return unkSym
		case x.isConst() && y.isConst():
			switch op {
			case '+':
				return konst(x.num().add(y.num()))
			case '-':
				return konst(x.num().add(y.num().neg()))
			case '*':
				return konst(x.num().mul(y.num()))
			}
			return konst(x.num().div(y.num()))
		case x.k == symImp || y.k == symImp:
			return sym{k: symImp}
		case x.k != symLin || y.k != symLin || !small(x) || !small(y):
			return unkSym // a fraction, or a huge number, and a value of t
		}
		switch op {
		case '+':
			return lin(x.a+y.a, x.b+y.b)
		case '-':
			return lin(x.a-y.a, x.b-y.b)
		case '*':
			if x.a == 0 {
				x, y = y, x
			}
			if y.a != 0 {
				return unkSym
			}
			if y.b > 1<<20 || y.b < -(1<<20) {
				return unkSym
			}
			return lin(x.a*y.b, x.b*y.b)
		}
		switch {
		case y.a != 0:
			return unkSym
		case y.b == 0:
			return sym{k: symImp}
		case x.a%y.b != 0 || x.b%y.b != 0:
			return unkSym
		}
		return lin(x.a/y.b, x.b/y.b)
	}
}

func symNeg(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		switch x.k {
		case symLin:
			return sym{a: -x.a, b: -x.b}
		case symRat:
			return sym{a: -x.a, b: x.b, k: symRat}
		}
		return x
	}
}

// symRound: a whole number rounds to itself.
func symRound(mode string, a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.k == symRat {
			return konst(x.num().round(mode))
		}
		return x
	}
}

func symAbs(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		switch {
		case x.varies():
			if se.holds(opLt, x.a, x.b) == no {
				return x
			}
		case x.k == symLin || x.k == symRat:
			if x.num().n >= 0 {
				return x
			}
		default:
			return x
		}
		if x.k == symRat {
			return sym{a: -x.a, b: x.b, k: symRat}
		}
		return sym{a: -x.a, b: -x.b}
	}
}

func symPossible(a symFn) symFn {
	return func(se *senv) sym {
		x := a(se)
		if x.k == symUnk {
			return x
		}
		return symBool(triOf(x.k != symImp))
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
			switch {
			case x.k == symUnk || best.k == symUnk:
				return unkSym
			case x.k == symImp || best.k == symImp:
				return sym{k: symImp}
			}
			switch se.cmpSym(op, x, best) {
			case yes:
				best = x
			case unsure:
				return unkSym
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
		if a.k != symLin || b.k != symLin {
			return sym{k: symImp}
		}
		n := int64(0)
		for k := a.b; k <= b.b && k-a.b < MaxCountWhile; k++ {
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
		return sym{b: n}
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
			args = append(args, x.num())
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
			return sym{a: 1}
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
	case v.k == symUnk:
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
		switch se.cmpSym(op, v, konst(b.bound)) {
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
