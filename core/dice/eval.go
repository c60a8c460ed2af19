package dice

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Lookup resolves a named value: who is "" for the roller's own character,
// or the name after '@' ("@Drake.fuerza" → who "Drake", name "fuerza").
// Errors it returns are passed through unchanged (they are usually already
// user errors with suggestions).
type Lookup func(who, name string) (int, error)

// Die flags.
const (
	DieDropped    uint8 = 1 << iota // not counted (keep/drop)
	DieExploded                     // this die triggered an explosion
	DieExtra                        // rolled because of an explosion
	DiePenetrated                   // counts one less than its face (!p)
	DieSuccess                      // counted as a success
	DieFailure                      // counted as a failure
	DieCompound                     // the sum of several faces (!!)
	DieClamped                      // raised to its min or lowered to its max
)

// Die is one die of a result (8 bytes: a roll of many dice stays small).
type Die struct {
	Value int32 // what it counts: the face, the face−1 when penetrated, the sum when compounded
	Flags uint8
	// 0, or 1 + the index in Result.more.extra of a header nr<<16|np that
	// follows the nr faces it rerolled away and the np compounded parts
	aux uint16
}

// Has reports whether the die has all of the flags.
func (d Die) Has(f uint8) bool { return d.Flags&f == f }

type termRes struct {
	first, n int32 // dice
	value    int64
}

// Result is a rolled expression: every die, every term, every total.
type Result struct {
	Expr   *Expr
	Dice   []Die   // every die of every repetition, in order
	Totals []int64 // one per repetition
	Target int64   // when Expr.HasTarget()
	Draws  int     // random draws used

	terms []termRes // repetition-major: terms[rep*len(dice)+idx]
	more  *resultMore
	// Totals of a single roll
	totals [1]int64
}

// Rounding is a division rounded down: Num/Den became Got.
type Rounding struct {
	Num, Den, Got int64
}

// resultMore is what only some rolls have, kept out of Result to keep the
// common one small.
type resultMore struct {
	names []int64   // the value of each named value
	extra []int32   // rerolled faces and compound parts: see Die.aux
	items []itemRes // the expressions of groups: items[rep*Expr.nitems()+Group.off+i]
	round Rounding
}

// Rounded is the first bare division that was not whole (7/2 → 3): the
// reply says it rounded down. Zero Den when none was.
func (r *Result) Rounded() Rounding {
	if r.more == nil {
		return Rounding{}
	}
	return r.more.round
}

// itemRes is one expression of a grouped roll: its total and whether it
// was dropped, or counted as a success or failure (Die flags).
type itemRes struct {
	value int64
	flags uint8
}

// newResult allocates a Result with room for nd dice and nt terms. A small
// roll gets its dice and terms inside the same allocation, in a shape just
// big enough (each shape about fills a size class of the allocator): one
// allocation, and few bytes to clear and collect.
func newResult(nd, nt int) *Result {
	switch {
	case nt <= 1 && nd <= 1:
		return shaped(nt, func(s *shape[[1]termRes, [1]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 3:
		return shaped(nt, func(s *shape[[1]termRes, [3]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 5:
		return shaped(nt, func(s *shape[[1]termRes, [5]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 7:
		return shaped(nt, func(s *shape[[1]termRes, [7]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 9:
		return shaped(nt, func(s *shape[[1]termRes, [9]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 11:
		return shaped(nt, func(s *shape[[1]termRes, [11]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 15:
		return shaped(nt, func(s *shape[[1]termRes, [15]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 1 && nd <= 19:
		return shaped(nt, func(s *shape[[1]termRes, [19]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 2 && nd <= 4:
		return shaped(nt, func(s *shape[[2]termRes, [4]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 2 && nd <= 8:
		return shaped(nt, func(s *shape[[2]termRes, [8]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 2 && nd <= 14:
		return shaped(nt, func(s *shape[[2]termRes, [14]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	case nt <= 2 && nd <= 18:
		return shaped(nt, func(s *shape[[2]termRes, [18]Die]) (*Result, []termRes, []Die) { return &s.r, s.t[:], s.d[:] })
	}
	return &Result{Dice: make([]Die, 0, nd), terms: make([]termRes, nt)}
}

// shape is a Result with room for its terms (T) and dice (D) inside.
type shape[T, D any] struct {
	r Result
	t T
	d D
}

// shaped allocates one S and hands its Result the dice and terms inside.
func shaped[S any](nt int, parts func(*S) (*Result, []termRes, []Die)) *Result {
	res, terms, dice := parts(new(S))
	res.Dice, res.terms = dice[:0], terms[:nt]
	return res
}

// Total is the total of the first (usually only) repetition.
func (r *Result) Total() int64 { return r.Totals[0] }

// Success reports whether repetition i met the target (total ≥ target).
func (r *Result) Success(i int) bool { return r.Totals[i] >= r.Target }

// Values lists the value of every die in order, dropped ones included.
func (r *Result) Values() []int {
	out := make([]int, len(r.Dice))
	for i, d := range r.Dice {
		out[i] = int(d.Value)
	}
	return out
}

// DieSides returns, for every die in Dice, the number of faces of its die
// (0 for Fudge dice and for terms with a reroll or compounding rule: not
// plain draws).
func (r *Result) DieSides() []int {
	out := make([]int, len(r.Dice))
	for i, t := range r.terms {
		d := r.Expr.dice[i%len(r.Expr.dice)]
		// Fudge faces are not 1..N, and a reroll rule makes the kept faces
		// non-uniform: neither is a plain draw of a dN. Nor are the dice of
		// a compounding term: a die that compounded shows a sum, so only
		// the ones that did not would be left, none of them on the
		// exploding face (every fair 1d6!! would look loaded).
		if d.Fudge || d.Reroll.On || d.Explode.Mode == Compound || d.clamps() || d.SidesX != nil {
			continue
		}
		for j := t.first; j < t.first+t.n; j++ {
			out[j] = d.Sides
		}
	}
	return out
}

// Rerolled returns the faces a die rolled before its final one.
func (r *Result) Rerolled(d Die) []int32 {
	start, nr, _ := r.faces(d)
	if nr == 0 {
		return nil
	}
	return r.more.extra[start : start+nr]
}

// Parts returns the faces summed into a compounded die.
func (r *Result) Parts(d Die) []int32 {
	start, nr, np := r.faces(d)
	if np == 0 {
		return nil
	}
	return r.more.extra[start+nr : start+nr+np]
}

// faces finds a die's rerolled faces and parts in extra.
func (r *Result) faces(d Die) (start, nr, np int) {
	if d.aux == 0 {
		return 0, 0, 0
	}
	h := int(d.aux) - 1
	nr, np = int(r.more.extra[h]>>16), int(r.more.extra[h]&0xffff)
	return h - nr - np, nr, np
}

// NameValue returns the value a named value had in this roll.
func (r *Result) NameValue(n *Name) int64 { return r.more.names[n.idx] }

// ErrSource wraps a failure of the dice source (a --dice script that ran
// out or gave a face out of range).
var ErrSource = errors.New("dice source failed")

// Roll rolls the expression: every repetition, with dice from src and named
// values from lookup (nil when the expression has none). Errors are *Error
// for the notation's limits, what lookup returned, or ErrSource wrapping
// the source's own error.
func (e *Expr) Roll(src Source, lookup Lookup) (*Result, error) {
	ev := evaluator{src: src, e: e}
	ev.errSrc, _ = src.(interface{ Err() error })
	names, err := e.resolve(lookup)
	if err != nil {
		return nil, err
	}
	ev.names = names
	res := newResult(e.Repeat*int(e.slots), e.Repeat*len(e.dice))
	res.Expr = e
	res.Totals = res.totals[:]
	if e.Repeat > 1 {
		res.Totals = make([]int64, e.Repeat)
	}
	if e.Target != nil {
		if res.Target, err = ev.eval(e.Target); err != nil {
			return nil, err
		}
	}
	ev.terms, ev.dice = res.terms, res.Dice
	if e.grp != nil {
		ev.items = make([]itemRes, e.Repeat*e.nitems())
	}
	for i := range e.Repeat {
		ev.rep = i
		if res.Totals[i], err = ev.eval(e.Root); err != nil {
			return nil, err
		}
	}
	res.Dice, res.terms, res.Draws = ev.dice, ev.terms, ev.draws
	if names != nil || ev.extra != nil || ev.items != nil || ev.round.Den != 0 {
		res.more = &resultMore{names: names, extra: ev.extra, items: ev.items, round: ev.round}
	}
	return res, nil
}

func (e *Expr) resolve(lookup Lookup) ([]int64, error) {
	if len(e.names) == 0 {
		return nil, nil
	}
	out := make([]int64, len(e.names))
	for i, n := range e.names {
		if lookup == nil {
			return nil, errAt(CodeSyntax, -1, n.Name)
		}
		v, err := lookup(n.Who, n.Name)
		if err != nil {
			return nil, err
		}
		if v > MaxNumber || v < -MaxNumber {
			return nil, &Error{Code: CodeNumberTooBig, Pos: -1, Near: n.Name, Max: MaxNumber}
		}
		out[i] = int64(v)
	}
	return out, nil
}

type evaluator struct {
	src    Source
	errSrc interface{ Err() error }
	e      *Expr
	names  []int64
	rep    int
	draws  int
	dice   []Die
	extra  []int32
	terms  []termRes
	parts  []int32 // scratch: compound parts
	items  []itemRes
	round  Rounding
}

func (ev *evaluator) eval(n Node) (int64, error) {
	switch n := n.(type) {
	case *Num:
		return n.V, nil
	case *Name:
		return ev.names[n.idx], nil
	case *Dice:
		return ev.rollTerm(n)
	case *Unary:
		v, err := ev.eval(n.X)
		return -v, err
	case *Binary:
		if n.Op == Div {
			return ev.div(n, 0)
		}
		l, err := ev.eval(n.L)
		if err != nil {
			return 0, err
		}
		r, err := ev.eval(n.R)
		if err != nil {
			return 0, err
		}
		return arith(n.Op, l, r, Floor)
	case *Call:
		if b, ok := n.X.(*Binary); ok && b.Op == Div && n.Fn <= Round {
			return ev.div(b, n.Fn)
		}
		v, err := ev.eval(n.X)
		if n.Fn == Abs && v < 0 {
			v = -v
		}
		for _, x := range n.More { // max, min
			if err != nil {
				return 0, err
			}
			var w int64
			w, err = ev.eval(x)
			if (n.Fn == Max && w > v) || (n.Fn == Min && w < v) {
				v = w
			}
		}
		return v, err
	case *Group:
		if n.PerDie {
			return ev.groupDice(n)
		}
		return ev.group(n)
	}
	panic(fmt.Sprintf("dice: unknown node %T", n))
}

// div divides with mode's rounding; mode 0 is a bare '/', which rounds
// down and records the first time it does (Result.Rounded).
func (ev *evaluator) div(b *Binary, mode Func) (int64, error) {
	l, err := ev.eval(b.L)
	if err != nil {
		return 0, err
	}
	r, err := ev.eval(b.R)
	if err != nil {
		return 0, err
	}
	if mode == 0 {
		mode = Floor
		if r != 0 && l%r != 0 && ev.round.Den == 0 {
			v, err := arith(Div, l, r, Floor)
			ev.round = Rounding{Num: l, Den: r, Got: v}
			return v, err
		}
	}
	return arith(Div, l, r, mode)
}

var errOverflow = &Error{Code: CodeOverflow, Pos: -1, Max: MaxMagnitude}
var errDivZero = &Error{Code: CodeDivZero, Pos: -1}

// arith applies op with the documented rules: integers only, a bounded
// magnitude, and a division that rounds as mode says (Floor for a bare '/').
func arith(op Op, l, r int64, mode Func) (int64, error) {
	var v int64
	switch op {
	case Add:
		v = l + r
	case Sub:
		v = l - r
	case Mul:
		if l != 0 && (abs64(r) > MaxMagnitude/abs64(l)) {
			return 0, errOverflow
		}
		v = l * r
	case Div:
		if r == 0 {
			return 0, errDivZero
		}
		v = divRound(l, r, mode)
	case Mod:
		if r == 0 {
			return 0, errDivZero
		}
		v = l % r // the sign of l, as in Roll20
	case Pow:
		return power(l, r)
	case opMax:
		v = max(l, r)
	case opMin:
		v = min(l, r)
	}
	if v > MaxMagnitude || v < -MaxMagnitude {
		return 0, errOverflow
	}
	return v, nil
}

var errPowNegative = &Error{Code: CodePowNegative, Pos: -1}

// power is l**r for r ≥ 0, within ±MaxMagnitude.
func power(l, r int64) (int64, error) {
	switch {
	case r < 0:
		return 0, errPowNegative
	case r == 0:
		return 1, nil
	case l == 0 || l == 1:
		return l, nil
	case l == -1:
		return 1 - 2*(r&1), nil
	}
	v := int64(1)
	for range r { // |l| ≥ 2: past 50 steps it has overflowed
		if abs64(v) > MaxMagnitude/abs64(l) {
			return 0, errOverflow
		}
		v *= l
	}
	return v, nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// divRound divides with floor, ceil or round (halves up, like Roll20's
// round: round(5/2) = 3, round(-5/2) = -2).
func divRound(a, b int64, mode Func) int64 {
	if b < 0 {
		a, b = -a, -b
	}
	switch mode {
	case Ceil:
		return -floorDiv(-a, b)
	case Round:
		return floorDiv(2*a+b, 2*b)
	}
	return floorDiv(a, b)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}

func (ev *evaluator) face(d *Dice) (int32, error) {
	if ev.draws >= MaxDraws {
		return 0, errLimit(CodeTooManyDraws, MaxDraws, ev.draws+1)
	}
	ev.draws++
	v := int32(ev.src.IntN(d.Sides) + d.Min())
	if ev.errSrc != nil {
		if err := ev.errSrc.Err(); err != nil {
			return 0, fmt.Errorf("%w: %w", ErrSource, err)
		}
	}
	return v, nil
}

// draw rolls one die and applies rerolls; faces rerolled away are appended
// to extra, and their number is returned.
func (ev *evaluator) draw(d *Dice) (int32, uint16, error) {
	v, err := ev.face(d)
	if err != nil || !d.Reroll.On {
		return v, 0, err
	}
	var nr uint16
	for d.Rerolls(int(v)) {
		ev.extra = append(ev.extra, v)
		nr++
		if v, err = ev.face(d); err != nil {
			return 0, 0, err
		}
		if d.Reroll.Once {
			break
		}
	}
	return v, nr, nil
}

// aux records, after the faces a die rerolled away (nr) and its compound
// parts (np), the header Result.faces reads; it returns Die.aux.
func (ev *evaluator) aux(nr, np uint16) uint16 {
	if nr == 0 && np == 0 {
		return 0
	}
	ev.extra = append(ev.extra, int32(nr)<<16|int32(np))
	return uint16(len(ev.extra))
}

// rollOne rolls one die of a term with its explosion: one Die, or a chain.
func (ev *evaluator) rollOne(d *Dice) error {
	v, nr, err := ev.draw(d)
	if err != nil {
		return err
	}
	switch d.Explode.Mode {
	case NoExplode:
		ev.dice = append(ev.dice, clamp(d, Die{Value: v, aux: ev.aux(nr, 0)}))
	case Explode, Penetrate:
		var flags uint8
		for {
			die := Die{Value: v, Flags: flags, aux: ev.aux(nr, 0)}
			if flags&DiePenetrated != 0 {
				die.Value--
			}
			die = clamp(d, die)
			if !d.Explode.If.Match(int(v)) {
				ev.dice = append(ev.dice, die)
				return nil
			}
			die.Flags |= DieExploded
			ev.dice = append(ev.dice, die)
			flags = DieExtra
			if d.Explode.Mode == Penetrate {
				flags |= DiePenetrated
			}
			if v, nr, err = ev.draw(d); err != nil {
				return err
			}
		}
	case Compound:
		ev.parts = append(ev.parts[:0], v)
		sum := int64(v)
		for d.Explode.If.Match(int(v)) {
			var n uint16
			if v, n, err = ev.draw(d); err != nil {
				return err
			}
			nr += n
			ev.parts = append(ev.parts, v)
			sum += int64(v)
		}
		die := Die{Value: int32(sum)}
		var np uint16
		if len(ev.parts) > 1 {
			die.Flags = DieCompound | DieExploded
			np = uint16(len(ev.parts))
			ev.extra = append(ev.extra, ev.parts...)
		}
		die.aux = ev.aux(nr, np)
		ev.dice = append(ev.dice, clamp(d, die))
	}
	return nil
}

// clamp applies the term's min and max to what a die counts.
func clamp(d *Dice, die Die) Die {
	if d.DiceMore == noMore { // most terms: nothing to look up
		return die
	}
	if v := int32(d.Clamp(int(die.Value))); v != die.Value {
		die.Value = v
		die.Flags |= DieClamped
	}
	return die
}

// rollTerm rolls a dice term, applies keep/drop, then counts successes or
// sums. See the package documentation for the order.
func (ev *evaluator) rollTerm(d *Dice) (int64, error) {
	first := len(ev.dice)
	if d.plain && ev.draws+d.Count <= MaxDraws {
		if err := ev.rollPlain(d); err != nil {
			return 0, err
		}
	} else if d.CountX != nil || d.SidesX != nil {
		return ev.rollRolled(d)
	} else if d.Keep.Mode != NoKeep {
		if err := ev.rollKeep(d); err != nil {
			return 0, err
		}
	} else {
		for range d.Count {
			if err := ev.rollOne(d); err != nil {
				return 0, err
			}
		}
	}
	var total int64
	for i := first; i < len(ev.dice); i++ {
		die := &ev.dice[i]
		if die.Flags&DieDropped != 0 {
			continue
		}
		switch {
		case d.Success == nil:
			total += int64(die.Value)
		case d.Success.Match(int(die.Value)):
			die.Flags |= DieSuccess
			total++
		case d.Failure != nil && d.Failure.Match(int(die.Value)):
			die.Flags |= DieFailure
			total--
		}
	}
	t := &ev.terms[ev.rep*len(ev.e.dice)+int(d.idx)]
	t.first, t.n, t.value = int32(first), int32(len(ev.dice)-first), total
	return total, nil
}

// rollRolled rolls a term with a rolled number of dice or sides: those
// first, then the term as if they had been written.
func (ev *evaluator) rollRolled(d *Dice) (int64, error) {
	dd := d.withMore()
	dd.CountX, dd.SidesX = nil, nil
	if d.CountX != nil {
		n, err := ev.eval(d.CountX)
		if err != nil {
			return 0, err
		}
		dd.Count = int(n)
	}
	if d.SidesX != nil {
		s, err := ev.eval(d.SidesX)
		if err != nil {
			return 0, err
		}
		dd.Sides = int(s)
		if dd.Explode.If.Op == EQ && d.Explode.Mode != NoExplode {
			dd.Explode.If.V = int32(dd.Sides)
		}
	}
	if dd.Count == 0 {
		t := &ev.terms[ev.rep*len(ev.e.dice)+int(d.idx)]
		t.first, t.n, t.value = int32(len(ev.dice)), 0, 0
		return 0, nil
	}
	return ev.rollTerm(dd)
}

// rollPlain rolls a term without rerolls or explosions, one draw per die,
// when they fit in the draws left, and applies its keep/drop.
func (ev *evaluator) rollPlain(d *Dice) error {
	first, n := len(ev.dice), d.Count
	ev.dice = slices.Grow(ev.dice, n)[:first+n]
	lo := int32(d.Min())
	for i := range ev.dice[first:] {
		// field by field: a Die built apart and copied in stalls the
		// copy's wide load on the narrow stores that built it
		die := &ev.dice[first+i]
		die.Value = int32(ev.src.IntN(d.Sides)) + lo
		die.Flags, die.aux = 0, 0
	}
	ev.draws += n
	if ev.errSrc != nil {
		if err := ev.errSrc.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrSource, err)
		}
	}
	if d.Keep.Mode == NoKeep {
		return nil
	}
	var ubuf, obuf [8]int32
	var vbuf [8]int64
	units, order, vals := ubuf[:0], obuf[:0], vbuf[:0]
	if n > len(ubuf) {
		units, order, vals = make([]int32, 0, n), make([]int32, 0, n), make([]int64, 0, n)
	}
	for i := range n {
		units = append(units, int32(first+i)) // each die is a unit of its own
	}
	ev.keep(d.Keep.Mode, d.Keep.N, units, order, vals)
	return nil
}

// rollKeep rolls the dice of a term with keep/drop and marks the dropped
// ones. Its scratch lives on the stack for terms of up to 8 dice.
func (ev *evaluator) rollKeep(d *Dice) error {
	var ubuf, obuf [8]int32
	var vbuf [8]int64
	units, order, vals := ubuf[:0], obuf[:0], vbuf[:0]
	if d.Count > len(ubuf) {
		units, order, vals = make([]int32, 0, d.Count), make([]int32, 0, d.Count), make([]int64, 0, d.Count)
	}
	first := len(ev.dice)
	for range d.Count {
		if err := ev.rollOne(d); err != nil {
			return err
		}
	}
	// Every die is a unit of its own, the ones an explosion added too:
	// Roll20's "rolls an additional die".
	for i := first; i < len(ev.dice); i++ {
		units = append(units, int32(i))
	}
	ev.keep(d.Keep.Mode, d.Keep.N, units, order, vals)
	return nil
}

// unitValue is what a unit (a die with its explosion chain) ranks by.
func (ev *evaluator) unitValue(units []int32, u int) int64 {
	end := len(ev.dice)
	if u+1 < len(units) {
		end = int(units[u+1])
	}
	var s int64
	for i := units[u]; i < int32(end); i++ {
		s += int64(ev.dice[i].Value)
	}
	return s
}

// keep marks dropped dice. units holds the first die of each unit (a die
// with its explosion chain); order and vals are empty scratch with room
// for every unit. Units are ranked by value; among equal values the
// earlier die ranks first, so it is the one kept by kh and kl.
func (ev *evaluator) keep(mode KeepMode, k int, units, order []int32, vals []int64) {
	n := len(units)
	for i := range n {
		order = append(order, int32(i))
		vals = append(vals, ev.unitValue(units, i))
	}
	high := mode == KeepHigh || mode == DropHigh
	if n <= 8 { // insertion sort, stable, no allocation
		for i := 1; i < n; i++ {
			for j := i; j > 0; j-- {
				a, b := vals[order[j-1]], vals[order[j]]
				if (high && b > a) || (!high && b < a) {
					order[j-1], order[j] = order[j], order[j-1]
					continue
				}
				break
			}
		}
	} else {
		slices.SortStableFunc(order, func(a, b int32) int {
			if high {
				return cmp.Compare(vals[b], vals[a])
			}
			return cmp.Compare(vals[a], vals[b])
		})
	}
	// The first k units in order are kept (kh/kl) or dropped (dh/dl).
	for rank, u := range order {
		drop := rank >= k
		if mode == DropHigh || mode == DropLow {
			drop = rank < k
		}
		if !drop {
			continue
		}
		end := len(ev.dice)
		if int(u)+1 < n {
			end = int(units[u+1])
		}
		for i := units[u]; i < int32(end); i++ {
			ev.dice[i].Flags |= DieDropped
		}
	}
}

// group evaluates a grouped roll's expressions and keeps, drops or counts
// their totals. Among equal totals the earlier expression ranks first.
func (ev *evaluator) group(g *Group) (int64, error) {
	base := ev.rep*ev.e.nitems() + int(g.off)
	items := ev.items[base : base+len(g.Items)]
	for i, x := range g.Items {
		v, err := ev.eval(x)
		if err != nil {
			return 0, err
		}
		items[i] = itemRes{value: v}
	}
	if g.Keep.Mode != NoKeep {
		var obuf [MaxItems]int
		order := obuf[:len(items)]
		for i := range order {
			order[i] = i
		}
		high := g.Keep.Mode == KeepHigh || g.Keep.Mode == DropHigh
		for i := 1; i < len(order); i++ { // insertion sort, stable
			for j := i; j > 0; j-- {
				a, b := items[order[j-1]].value, items[order[j]].value
				if (high && b > a) || (!high && b < a) {
					order[j-1], order[j] = order[j], order[j-1]
					continue
				}
				break
			}
		}
		drop := g.Keep.Mode == DropHigh || g.Keep.Mode == DropLow
		for rank, i := range order {
			if (rank < g.Keep.N) == drop {
				items[i].flags |= DieDropped
			}
		}
	}
	var total int64
	for i := range items {
		it := &items[i]
		if it.flags&DieDropped != 0 {
			continue
		}
		switch {
		case g.Success == nil:
			total += it.value // each within MaxMagnitude: no overflow in int64
		case g.Success.Match64(it.value):
			it.flags |= DieSuccess
			total++
		case g.Failure != nil && g.Failure.Match64(it.value):
			it.flags |= DieFailure
			total--
		}
	}
	if total > MaxMagnitude || total < -MaxMagnitude {
		return 0, errOverflow
	}
	return total, nil
}

// groupDice rolls a group of one expression whose modifier acts on its
// dice: every die of its dice terms is rolled as written, the group's
// keep/drop ranks them all (a die with its explosion chain as one unit,
// the earlier die first among equals), its condition counts the kept
// ones, and then the expression adds up what each term kept.
func (ev *evaluator) groupDice(g *Group) (int64, error) {
	first := len(ev.dice)
	for _, d := range g.terms {
		start := len(ev.dice)
		if d.plain && ev.draws+d.Count <= MaxDraws {
			if err := ev.rollPlain(d); err != nil {
				return 0, err
			}
		} else {
			for range d.Count {
				if err := ev.rollOne(d); err != nil {
					return 0, err
				}
			}
		}
		t := &ev.terms[ev.rep*len(ev.e.dice)+int(d.idx)]
		t.first, t.n = int32(start), int32(len(ev.dice)-start)
	}
	if g.Keep.Mode != NoKeep {
		var units []int32
		for i := first; i < len(ev.dice); i++ {
			units = append(units, int32(i)) // every die, an explosion's too
		}
		n := len(units)
		ev.keep(g.Keep.Mode, g.Keep.N, units, make([]int32, 0, n), make([]int64, 0, n))
	}
	for _, d := range g.terms {
		t := &ev.terms[ev.rep*len(ev.e.dice)+int(d.idx)]
		var v int64
		for i := t.first; i < t.first+t.n; i++ {
			die := &ev.dice[i]
			if die.Flags&DieDropped != 0 {
				continue
			}
			switch {
			case g.Success == nil:
				v += int64(die.Value)
			case g.Success.Match(int(die.Value)):
				die.Flags |= DieSuccess
				v++
			case g.Failure != nil && g.Failure.Match(int(die.Value)):
				die.Flags |= DieFailure
				v--
			}
		}
		t.value = v
	}
	return ev.kept(g.Items[0]), nil
}

// kept is the value of a group's one expression once its dice are kept
// or counted: what each dice term kept, plus the numbers and names (the
// only nodes it holds, joined by '+'; far within MaxMagnitude).
func (ev *evaluator) kept(n Node) int64 {
	switch n := n.(type) {
	case *Dice:
		return ev.terms[ev.rep*len(ev.e.dice)+int(n.idx)].value
	case *Num:
		return n.V
	case *Name:
		return ev.names[n.idx]
	case *Binary:
		return ev.kept(n.L) + ev.kept(n.R)
	}
	panic(fmt.Sprintf("dice: %T in a group of one expression", n))
}

// item returns expression i of group g in repetition rep.
func (r *Result) item(g *Group, rep, i int) itemRes {
	return r.more.items[rep*r.Expr.nitems()+int(g.off)+i]
}
