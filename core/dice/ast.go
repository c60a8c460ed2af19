package dice

// Node is one node of an expression tree. The concrete types are *Num,
// *Name, *Dice, *Unary, *Binary, *Call and *Group.
type Node interface{ node() }

// Num is an integer literal.
type Num struct {
	V     int64
	Label string
}

// Name is a named value read through the caller's Lookup: "fuerza",
// "@Drake.fuerza" (Who "Drake").
type Name struct {
	Who, Name string
	Label     string
	idx       int // index into Expr.names
}

// Op is an arithmetic operator.
type Op byte

// Operators.
const (
	Add Op = '+'
	Sub Op = '-'
	Mul Op = '*'
	Div Op = '/'
	Mod Op = '%' // remainder, with the sign of the dividend (Roll20's, JavaScript's)
	Pow Op = '^' // written **; the exponent is 0 or more
	// max and min of two values: what max( ) and min( ) fold with.
	opMax Op = 'M'
	opMin Op = 'm'
)

// String is the operator as it is written.
func (o Op) String() string {
	if o == Pow {
		return "**"
	}
	return string(rune(o))
}

// Unary is a sign: -x.
type Unary struct {
	Op Op
	X  Node
}

// Binary is x op y.
type Binary struct {
	Op   Op
	L, R Node
}

// Func names a function.
type Func uint8

// Functions.
const (
	Floor Func = iota + 1
	Ceil
	Round
	Abs
	Max // max(a, b, …): the largest of its arguments
	Min // min(a, b, …): the smallest
)

var funcNames = [...]string{Floor: "floor", Ceil: "ceil", Round: "round", Abs: "abs", Max: "max", Min: "min"}

func (f Func) String() string { return funcNames[f] }

// Call is floor(x), ceil(x), round(x), abs(x), or max(…) and min(…),
// whose arguments are X and then More.
type Call struct {
	Fn   Func
	X    Node
	More []Node // max and min: the arguments after the first
}

// CmpOp compares a die with a value.
type CmpOp uint8

// Compare operators.
const (
	EQ CmpOp = iota + 1
	GT
	GE
	LT
	LE
)

var cmpNames = [...]string{EQ: "=", GT: ">", GE: "≥", LT: "<", LE: "≤"}

func (c CmpOp) String() string { return cmpNames[c] }

// Cond is a compare point: ">=5", "=1".
type Cond struct {
	Op CmpOp
	V  int32 // within ±MaxNumber: a Cond is 8 bytes, and a Dice smaller
}

// Match reports whether a die value meets the condition.
func (c Cond) Match(v int) bool {
	switch c.Op {
	case EQ:
		return v == int(c.V)
	case GT:
		return v > int(c.V)
	case GE:
		return v >= int(c.V)
	case LT:
		return v < int(c.V)
	case LE:
		return v <= int(c.V)
	}
	return false
}

// Match64 is Match for a total.
func (c Cond) Match64(v int64) bool {
	switch c.Op {
	case EQ:
		return v == int64(c.V)
	case GT:
		return v > int64(c.V)
	case GE:
		return v >= int64(c.V)
	case LT:
		return v < int64(c.V)
	case LE:
		return v <= int64(c.V)
	}
	return false
}

// ExplodeMode says what an exploding die does.
type ExplodeMode uint8

// Explode modes.
const (
	NoExplode ExplodeMode = iota
	Explode               // !: roll another die, shown separately
	Compound              // !!: roll again and add into the same die
	Penetrate             // !p: another die, minus one
)

// KeepMode selects dice.
type KeepMode uint8

// Keep modes.
const (
	NoKeep KeepMode = iota
	KeepHigh
	KeepLow
	DropHigh
	DropLow
)

// Keep keeps or drops the N highest or lowest dice (or totals).
type Keep struct {
	Mode KeepMode
	N    int
}

// SortMode orders the dice a term shows (Roll20's s, sa, sd). It changes
// only the order they are written in: not which are kept, not the total.
type SortMode uint8

// Sort modes.
const (
	NoSort   SortMode = iota
	SortAsc           // s, sa: lowest first
	SortDesc          // sd: highest first
)

var keepNames = [...]string{KeepHigh: "kh", KeepLow: "kl", DropHigh: "dh", DropLow: "dl"}

// Bound is a floor or ceiling on what each die counts (min, max).
type Bound struct {
	On bool
	V  int
}

// Dice is a dice term: NdM with its modifiers.
type Dice struct {
	Count  int
	Sides  int      // 100 for d%, 3 for dF
	Fudge  bool     // faces −1, 0, +1
	Sort   SortMode // the order its dice are shown in (s, sd)
	plain  bool     // no reroll, explosion, min or max: one draw is one die
	idx    int16    // index of the term in the expression (≤ MaxGroups)
	pos    uint16   // where the term starts in the text parsed (≤ 4·MaxInput bytes)
	Reroll struct {
		On   bool
		Once bool // ro
		If   Cond
	}
	// *DiceMore holds what few terms have, out of the way of the common
	// ones (a smaller Dice is a faster parse); never nil after Parse.
	*DiceMore
	Explode struct {
		Mode ExplodeMode
		If   Cond
	}
	Keep    Keep
	Success *Cond // count successes instead of summing
	Failure *Cond // subtract failures (only with Success)
	Label   string
	Text    string // the term as typed
	succ    Cond   // where Success points: no allocation of its own
}

// DiceMore is the part of a dice term that few terms have.
type DiceMore struct {
	RerollMore []Cond // further reroll points: 8d6r2r4r6
	// MinFace and MaxFace raise or lower what each die counts (4d6min2,
	// 4d6max5); rerolls and explosions look at the face as rolled.
	MinFace, MaxFace Bound
	// CritSuccess and CritFail (cs, cf) only mark the dice that meet them
	// in the reply; Op 0 when none.
	CritSuccess, CritFail Cond
	// CountX and SidesX are a rolled number of dice or sides, (1d4)d6 and
	// 2d(1d6); nil when written as a number.
	CountX, SidesX Node
}

// noMore is the DiceMore of every term that has none of it: read, never
// written (more gives a term its own before a write).
var noMore = &DiceMore{}

// more returns the term's own DiceMore, to write into.
func (d *Dice) more() *DiceMore {
	if d.DiceMore == noMore || d.DiceMore == nil {
		d.DiceMore = &DiceMore{}
	}
	return d.DiceMore
}

// withMore returns a copy of d with a DiceMore of its own, for changing
// the copy without touching d.
func (d *Dice) withMore() *Dice {
	c := *d
	m := *d.DiceMore
	c.DiceMore = &m
	return &c
}

// Min and Max are the lowest and highest face.
func (d *Dice) Min() int {
	if d.Fudge {
		return -1
	}
	return 1
}

// Max is the highest face.
func (d *Dice) Max() int {
	if d.Fudge {
		return 1
	}
	return d.Sides
}

// Pool reports whether the term counts successes.
func (d *Dice) Pool() bool { return d.Success != nil }

// Pos is where the term starts in the text parsed, in bytes.
func (d *Dice) Pos() int { return int(d.pos) }

// Rerolls reports whether a face is rerolled: it meets any reroll point.
func (d *Dice) Rerolls(v int) bool {
	if !d.Reroll.On {
		return false
	}
	if d.Reroll.If.Match(v) {
		return true
	}
	for _, c := range d.RerollMore {
		if c.Match(v) {
			return true
		}
	}
	return false
}

// Clamp is what a die counts once min and max apply.
func (d *Dice) Clamp(v int) int {
	if d.MinFace.On && v < d.MinFace.V {
		v = d.MinFace.V
	}
	if d.MaxFace.On && v > d.MaxFace.V {
		v = d.MaxFace.V
	}
	return v
}

// clamps reports whether the term has min or max.
func (d *Dice) clamps() bool { return d.MinFace.On || d.MaxFace.On }

func (*Num) node()    {}
func (*Name) node()   {}
func (*Dice) node()   {}
func (*Unary) node()  {}
func (*Binary) node() {}
func (*Call) node()   {}
func (*Group) node()  {}

// Group is a grouped roll, {a, b, …} with an optional keep/drop and
// success condition (Roll20's grouped rolls). With several expressions
// the modifiers act on their totals; with one expression and a modifier
// they act on the individual dice of its dice terms (PerDie).
type Group struct {
	Items   []Node
	Keep    Keep
	Success *Cond // count the totals (or, PerDie, the dice) that meet it
	Failure *Cond // and subtract those that meet this (only with Success)
	Label   string
	Text    string // the group as typed
	// PerDie: one expression with a modifier, acting on the dice of its
	// dice terms.
	PerDie     bool
	terms      []*Dice // the dice terms inside, in order
	off        int32   // index of its first item in a repetition's items
	succ, fail Cond
}

// Modified reports whether the group keeps, drops or counts anything.
func (g *Group) Modified() bool { return g.Keep.Mode != NoKeep || g.Success != nil }

// Expr is a parsed roll: what to roll, how many times, against what.
type Expr struct {
	Root       Node
	Repeat     int    // 1 unless N#
	Target     Node   // vs / dc / contra / εναντίον / κατά, nil if none
	Label      string // after '#' or '[...]' at the end
	Ask        bool   // the text ends with '?': show the odds
	slots      int32  // room for the dice of one roll: the dice written, twice for exploding terms
	Text       string // the expression as typed, without repeat, target, label and '?'
	TargetText string

	dice    []*Dice   // terms in order
	names   []*Name   // named values in order
	grp     *groupSet // grouped rolls; nil without (the Expr stays in its size class)
	diceBuf [2]*Dice
}

// exprBlock is an expression with its first dice term, in one allocation:
// most rolls have a single term.
type exprBlock struct {
	e Expr
	d Dice
}

// Terms returns the dice terms in the order they appear.
func (e *Expr) Terms() []*Dice { return e.dice }

// Cost is the work of rolling the expression before its dice are known,
// in draws: the dice written in every repetition, plus one per
// repetition, never more than MaxDraws+Repeat. Explosions and rerolls
// add to Result.Draws.
func (e *Expr) Cost() int {
	return min(MaxDraws, e.Repeat*e.written()) + e.Repeat
}

// written is the number of dice written in one repetition.
func (e *Expr) written() int {
	n := 0
	for _, d := range e.dice {
		n += d.Count
	}
	return n
}

// HasTarget reports whether the expression has vs/dc.
func (e *Expr) HasTarget() bool { return e.Target != nil }

// Pool reports whether any dice term or group counts successes.
func (e *Expr) Pool() bool {
	for _, d := range e.dice {
		if d.Pool() {
			return true
		}
	}
	for _, g := range e.groups() {
		if g.Success != nil {
			return true
		}
	}
	return false
}

// groupSet is the grouped rolls of an expression.
type groupSet struct {
	list  []*Group // in order
	items int32    // expressions of all of them
}

func (e *Expr) groups() []*Group {
	if e.grp == nil {
		return nil
	}
	return e.grp.list
}

// nitems is the number of expressions of all the groups.
func (e *Expr) nitems() int {
	if e.grp == nil {
		return 0
	}
	return int(e.grp.items)
}

// Counts reports whether the total itself is a number of successes: the
// whole expression is one dice term or one group with a success condition.
func (e *Expr) Counts() bool {
	switch n := e.Root.(type) {
	case *Dice:
		return n.Pool()
	case *Group:
		return n.Success != nil
	}
	return false
}
