package engine

import "sort"

// Runs of a pool's rolls (the odds' fast path). A pool's rolls are
// walked in the order of one of its readings t (a d100, a sum); the
// steps after the pool are evaluated once over a run of rolls lo ≤ t ≤
// hi, each value as a·t + b in whole numbers (a = 0: the same on every
// roll of the run), a constant, the same on every roll but not known yet
// (it reads a later pool), or unknown. A comparison that would change
// within the run cuts it (hi) to where it does not, so one pass gives
// both the values and how far they hold; when what the odds read (the
// outcome, the success, the total, an opposed side's keys) is the same
// over the run, the rest of the walk runs once for it, weighing all its
// rolls. Unknown (a product of two values of t, a fraction of t, a
// reading other than t) leaves the rolls of that t to the walk one by
// one. Every rule below holds for every t in [lo, hi], so the odds are
// those of the walk roll by roll (TestRunsEqualTheWalk).

// symFn is an expression's value over a run.
type symFn func(*senv) sym

// sym is a value over a run: a·t + b (symLin; a = 0 the constant b), the
// constant a/b (symRat, not whole), impossible, the same on every roll
// of the run but not known yet (symFree: it reads a later pool), or
// unknown.
type sym struct {
	a, b int64
	k    symKind
}

type symKind uint8

const (
	symLin symKind = iota
	symRat
	symImp
	symFree
	symUnk
	symOuter // senv.sv: a slot computed before the pool (env.v has it)
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

// fixed: the same on every roll of the run.
func (s sym) fixed() bool { return s.isConst() || s.k == symFree }

var freeSym = sym{k: symFree}

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
	sv     []sym // the values computed after the pool; symOuter the others
	other  bool  // a reading of the pool other than t was read
}

type tri int8

const (
	no tri = iota
	yes
	free   // the same over the run, not known yet
	unsure // changes within the run, or unknown
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
	case s.k == symFree:
		return free
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
	case x.k == symFree || y.k == symFree:
		if x.fixed() && y.fixed() {
			return free
		}
		return unsure
	case x.isConst() && y.isConst():
		return triOf(signHolds(op, x.num().cmp(y.num())))
	case x.k == symLin && y.k == symLin && small(x) && small(y):
		a, b := x.a-y.a, x.b-y.b
		if a == 0 { // the same slope: a constant difference
			return triOf(signHolds(op, sign64(b)))
		}
		return se.holds(op, a, b)
	}
	return unsure // a fraction, or a huge number, against a value of t
}

func symBool(t tri) sym {
	switch t {
	case yes:
		return sym{b: 1}
	case no:
		return sym{}
	case free:
		return freeSym
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
			switch t := se.truth(a(se)); t {
			case yes:
				return symBool(no)
			case no:
				return symBool(yes)
			default:
				return symBool(t)
			}
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
		case x == free || y == free:
			return freeSym
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
		case x.k == symFree || y.k == symFree:
			if x.fixed() && y.fixed() {
				return freeSym
			}
			return unkSym
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
		if x.k == symUnk || x.k == symFree {
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
		case free:
			if a(se).fixed() && b(se).fixed() {
				return freeSym
			}
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
			case x.k == symFree || best.k == symFree:
				// Free once fixed throughout (impossible if any is).
				if !x.fixed() || !best.fixed() {
					return unkSym
				}
				best = freeSym
				continue
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
		n, isFree := int64(0), false
		for k := a.b; k <= b.b && k-a.b < MaxCountWhile; k++ {
			se.e.loop = integer(k)
			switch se.truth(cond(se)) {
			case unsure:
				return unkSym
			case free:
				isFree = true // the rest must be the same over the run too
			case no:
				if isFree {
					return freeSym
				}
				return sym{b: n}
			case yes:
				n++
			}
		}
		if isFree {
			return freeSym
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
		isFree := false
		for _, fn := range fns {
			x := fn(se)
			if !x.fixed() {
				return unkSym
			}
			isFree = isFree || x.k == symFree
			args = append(args, x.num())
		}
		if isFree {
			return freeSym
		}
		return konst(f(args))
	}
}

// symSlot is a value of the check: over the run when computed after the
// pool, else the same on every roll.
func symSlot(slot int) symFn {
	return func(se *senv) sym {
		if v := se.sv[slot]; v.k != symOuter {
			return v
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
			if rs.lvl > se.pool.lvl {
				return freeSym // a later pool, rolled the same after every roll of the run
			}
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
// not a whole number; each sorted once, when first asked.
func (pd *poolDist) byReading(j int) *keyOrder {
	pd.mu.Lock()
	defer pd.mu.Unlock()
	if pd.orders == nil {
		pd.orders = make([]*keyOrder, len(pd.reads[0]))
	}
	if pd.orders[j] == nil {
		pd.orders[j] = pd.sortBy(j)
	}
	return pd.orders[j]
}

// whole reports whether every value of reading j is a whole number.
func (pd *poolDist) whole(j int) bool {
	for _, r := range pd.reads {
		if !r[j].isInt() {
			return false
		}
	}
	return true
}

func (pd *poolDist) sortBy(j int) *keyOrder {
	if !pd.whole(j) {
		return &keyOrder{}
	}
	ko := &keyOrder{order: make([]int32, len(pd.reads)), vals: make([]int64, len(pd.reads)), pre: make([]int64, len(pd.reads)+1)}
	for i := range pd.reads {
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

// runs walks pool step i, of distribution pd, by runs of its rolls on
// which everything after it is the same; false when none of its readings
// orders them, or (once) no run held two rolls: the walk then enumerates
// it.
func (w *walker) runs(e *env, i int, pd *poolDist, wn, wd int64, leaf func(e *env, wn, wd int64)) bool {
	st := &w.steps[i]
	if st.runKey == 0 && st.roll.noRuns.Load() {
		st.runKey = -1 // no reading orders this pool's rolls
		return false
	}
	se := st.se
	if se == nil {
		for len(w.ses) <= i {
			w.ses = append(w.ses, nil)
		}
		if se = w.ses[i]; se == nil {
			se = &senv{sv: make([]sym, len(e.v))}
			w.ses[i] = se
		}
		se.pool, st.se = st.roll, se
		for k := range se.sv {
			se.sv[k] = sym{k: symOuter}
		}
		for _, ps := range w.steps[i+1:] {
			if ps.roll == nil {
				se.sv[ps.slot] = unkSym
			}
		}
	}
	se.e = e
	if st.runKey == 0 {
		// The first reading the steps after the pool read alone, tried
		// on the first roll; a pool none orders is not tried again.
		st.runKey = -1
		for j := range pd.reads[0] {
			if !pd.reads[0][j].isInt() {
				continue
			}
			se.key = j
			v := pd.reads[0][j].n
			w.decidedOver(e, i, pd.reads[0], v, v)
			if !se.other {
				st.runKey = j + 1
				break
			}
		}
		if st.runKey < 0 {
			st.roll.noRuns.Store(true)
			return false
		}
	}
	ko := st.ko
	if st.koPD != pd {
		ko = pd.byReading(st.runKey - 1)
		st.ko, st.koPD = ko, pd
	}
	if ko.order == nil {
		return false
	}
	se.key = st.runKey - 1
	first, last := st.roll.first, len(ko.order)-1
	merged, failed := false, 0
	for p := 0; p <= last && !w.over; {
		if !merged && failed == 2 {
			// Two runs in a row of one value of t: the rest roll by roll.
			for ; p <= last; p++ {
				j := ko.order[p]
				copy(e.r[first:], pd.reads[j])
				w.walk(e, i+1, wn*pd.counts[j], wd*pd.den, leaf)
			}
			break
		}
		if w.decidedOver(e, i, pd.reads[ko.order[p]], ko.vals[p], ko.vals[last]) {
			// The rest walked once for the run's first roll, weighing all
			// of them; its leaves counted once per roll, as the walk would.
			q := p + sort.Search(last-p+1, func(k int) bool { return ko.vals[p+k] > se.hi }) - 1
			before := w.leaves
			w.walk(e, i+1, wn*(ko.pre[q+1]-ko.pre[p]), wd*pd.den, leaf)
			if q > p {
				merged = true
				if w.leaves += (q - p) * (w.leaves - before); w.leaves > OddsBudget {
					w.over = true
				}
			} else {
				failed++
			}
			p = q + 1
			continue
		}
		failed++
		// The rolls of this value of t, one by one.
		for t := ko.vals[p]; p <= last && ko.vals[p] == t; p++ {
			j := ko.order[p]
			copy(e.r[first:], pd.reads[j])
			w.walk(e, i+1, wn*pd.counts[j], wd*pd.den, leaf)
		}
	}
	if !merged {
		st.runKey = -1 // no run to be had here: no more tries
	}
	return true
}

// decidedOver puts the roll reads (t = lo) in e, and reports whether
// everything after pool step i (its lets, the later pools' sizes and
// lets, what the odds read) is the same over the run from lo to se.hi
// (at most hi); false when it cannot tell. What reads no dice, computed
// as ever in e, never reads a value computed after a pool (those read
// the dice): e needs no more.
func (w *walker) decidedOver(e *env, i int, reads []num, lo, hi int64) bool {
	copy(e.r[w.steps[i].roll.first:], reads)
	se := w.steps[i].se
	se.lo, se.hi, se.other = lo, hi, false
	for k := i + 1; k < len(w.steps); k++ {
		ps := &w.steps[k]
		if ps.roll != nil {
			if ps.roll.countDyn && (ps.roll.countS == nil || !ps.roll.countS(se).fixed()) {
				return false
			}
			continue
		}
		if !ps.symLet(se) {
			return false
		}
	}
	if w.same == sameSide {
		return w.c.sideSame(se)
	}
	return w.c.oddsSame(se, w.same == sameTotals)
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
			case free:
				return ps.symFreeLet(se, i)
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

// symFreeLet: case i's condition is the same over the run but not known:
// the let is too when every case from i on is.
func (ps *pstep) symFreeLet(se *senv, i int) bool {
	last := len(ps.cases) - 1
	for ; i <= last; i++ {
		cs := &ps.cases[i]
		if i != last && (cs.whenS == nil || se.truth(cs.whenS(se)) == unsure) {
			return false
		}
		if cs.isS == nil || !cs.isS(se).fixed() {
			return false
		}
	}
	se.sv[ps.slot] = freeSym
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
		} // free: this one or a later one, the same over the run
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
	case v.fixed():
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

// What the odds read of a leaf, for the runs (walker.same).
type sameKind int8

const (
	sameNone   sameKind = iota // no runs: every roll a leaf
	sameOdds                   // the outcome, the success, the further results
	sameTotals                 // and the total
	sameSide                   // an opposed side's keys and the values its result reads
)

// oddsSame: the outcome, the success, the further results and the total
// (when wanted) are the same over the run.
func (c *check) oddsSame(se *senv, totals bool) bool {
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
	if totals && c.total != nil && (c.totalS == nil || !c.totalS(se).fixed()) {
		return false
	}
	return true
}

// sideSame: an opposed side's comparison keys and the values its result
// reads are the same over the run.
func (c *check) sideSame(se *senv) bool {
	for _, f := range c.compareS {
		if f == nil || !f(se).fixed() {
			return false
		}
	}
	for _, slot := range c.refSlots {
		if !symSlot(slot)(se).fixed() {
			return false
		}
	}
	return true
}
