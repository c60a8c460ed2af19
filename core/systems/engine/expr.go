package engine

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An expression is integer and rational arithmetic over a check's names
// (inputs, house rules, earlier values, pools' readings, tables), with
// comparisons, and/or/not and a fixed set of functions; no loops but the
// bounded count_while (docs/systems-format.md#expressions). It is compiled
// once, when the file is loaded, to a closure over an env.
type evalFn func(*env) num

// env holds the values of one side of one roll of a check.
type env struct {
	v     []num // inputs, house rules (a choice's index), values
	r     []num // the pools' readings
	loop  num   // count_while's _
	opp   *env  // the other side of an opposed check (its inputs)
	sides [2]*env
	won   num
}

// scope is what an expression may name, as the compiler sees it.
type scope struct {
	sys      *System
	vars     map[string]int // name → slot of env.v
	pools    map[string]*rollStep
	loop     bool // inside count_while
	opp      bool // "opp.NAME" (an opposed check's sides)
	result   bool // "active.NAME", "passive.NAME", "won"
	sideVars map[string]int
	dynVars  map[int]bool // values that depend on the dice
	dyn      bool         // the expression being compiled reads the dice
	passive  bool         // a result names the passive side's values
	refSlots map[int]bool // the sides' values a result names
	// hoist: compute what reads no dice once per check (kids), as the
	// hidden lets temps, which the compiler puts before the step.
	hoist bool
	temps []cstep
	sy    symFn       // the value over a run of the expression compiled last (sym.go)
	lvls  map[int]int // each value's shape.lvl (values of no pool: absent)
	lvl   int         // the shape.lvl of the expression compiled last
	// inputsOnly: a requirement (require.go), which names its check's
	// inputs (vars) and no number, table, pool or house rule; reads are
	// the slots it names.
	inputsOnly bool
	reads      map[int]bool
}

type token struct {
	kind string // num, ident, str, op, eof
	text string
	pos  int
}

func lex(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r >= '0' && r <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, token{"num", s[i:j], i})
			i = j
		case r == '_' || unicode.IsLetter(r):
			j := i
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += sz
			}
			out = append(out, token{"ident", s[i:j], i})
			i = j
		case r == '\'' || r == '"':
			j := strings.IndexRune(s[i+1:], r)
			if j < 0 {
				return nil, exprErr(i+1, "unclosed quote")
			}
			out = append(out, token{"str", s[i+1 : i+1+j], i})
			i += j + 2
		default:
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch two {
			case "==", "!=", "<=", ">=":
				out = append(out, token{"op", two, i})
				i += 2
				continue
			}
			if strings.ContainsRune("+-*/()<>,.", r) {
				out = append(out, token{"op", string(r), i})
				i += size
				continue
			}
			return nil, exprErr(i+1, "unexpected %q", string(r))
		}
	}
	return append(out, token{"eof", "", len(s)}), nil
}

type parser struct {
	toks  []token
	i     int
	sc    *scope
	depth int
}

// node is a compiled sub-expression; a string literal or a house rule
// keeps what a comparison needs to turn the choice's name into its index.
type node struct {
	fn   evalFn
	str  *string
	rule *HouseRule
	shape
	leaf bool  // a constant or a name: nothing to compute
	sy   symFn // its value over a run of a pool's rolls (sym.go); nil: unknown
}

// shape is what a node reads: the dice (or an opposed result's sides),
// count_while's _, and lvl, one more than the last pool it reads (0:
// none, the inputs and house rules only).
type shape struct {
	dyn, loop bool
	lvl       int
}

// kids are the closures of a node's children, their values over a run
// of a pool's rolls (sym.go), and the node's shape. A
// child that reads fewer pools than the node (none: the inputs only) and
// is more than a leaf is computed where its pools are rolled: hoisted
// into a value of its own (hoist).
func (p *parser) kids(ns ...node) (fns []evalFn, syms []symFn, sh shape) {
	for _, n := range ns {
		sh.dyn = sh.dyn || n.dyn
		sh.loop = sh.loop || n.loop
		sh.lvl = max(sh.lvl, n.lvl)
	}
	fns = make([]evalFn, len(ns))
	syms = make([]symFn, len(ns))
	for i, n := range ns {
		fns[i], syms[i] = n.fn, n.symOf()
		if n.lvl < sh.lvl || (sh.dyn && !n.dyn) {
			fns[i], syms[i] = p.hoist(n)
		}
	}
	return fns, syms, sh
}

// hoist turns n, which reads neither _ nor an opposed result's sides,
// into a read of a hidden value of the check, computed before the step
// that needs it; the compiler then moves it right after the last pool it
// reads (ordered): the walk computes it once per check when it reads no
// pool, once per roll of its pools else, not once per roll of them all.
func (p *parser) hoist(n node) (evalFn, symFn) {
	sc := p.sc
	if !sc.hoist || n.loop || n.leaf || n.fn == nil {
		return n.fn, n.symOf()
	}
	slot := len(sc.vars)
	sc.vars["\x00"+strconv.Itoa(slot)] = slot
	sc.lvls[slot] = n.lvl
	if n.dyn {
		sc.dynVars[slot] = true
	}
	sc.temps = append(sc.temps, cstep{slot: slot, cases: []ccase{{is: n.fn, isDyn: n.dyn, isS: n.symOf()}}})
	return func(e *env) num { return e.v[slot] }, symSlot(slot)
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) errorf(format string, a ...any) error {
	return exprErr(p.peek().pos+1, format, a...)
}

func (p *parser) expect(op string) error {
	if t := p.next(); t.text != op || t.kind == "str" {
		p.i--
		return p.errorf("%q expected", op)
	}
	return nil
}

// compileExpr compiles s in sc.
func compileExpr(s string, sc *scope) (evalFn, error) {
	if len(s) > MaxExprLen {
		return nil, limitErr("expr_len", MaxExprLen, len(s))
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, sc: sc}
	sc.dyn = false
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != "eof" {
		return nil, p.errorf("unexpected %q", p.peek().text)
	}
	if n.fn == nil {
		return nil, p.errorf("a text is not a value")
	}
	sc.lvl = n.lvl
	sc.sy = n.symOf()
	return n.fn, nil
}

func (p *parser) enter() error {
	if p.depth++; p.depth > MaxExprDepth {
		return limitErr("expr_depth", MaxExprDepth, p.depth)
	}
	return nil
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	for err == nil && p.peek().kind == "ident" && p.peek().text == "or" {
		p.next()
		var r node
		if r, err = p.and(); err == nil {
			if l.fn == nil || r.fn == nil {
				return l, p.errorf("a text is not a value")
			}
			f, sy, sh := p.kids(l, r)
			a, b := f[0], f[1]
			l = node{fn: func(e *env) num { return boolean(a(e).truth() || b(e).truth()) }, shape: sh, sy: symLogic(false, sy[0], sy[1])}
		}
	}
	return l, err
}

func (p *parser) and() (node, error) {
	l, err := p.not()
	for err == nil && p.peek().kind == "ident" && p.peek().text == "and" {
		p.next()
		var r node
		if r, err = p.not(); err == nil {
			if l.fn == nil || r.fn == nil {
				return l, p.errorf("a text is not a value")
			}
			f, sy, sh := p.kids(l, r)
			a, b := f[0], f[1]
			l = node{fn: func(e *env) num { return boolean(a(e).truth() && b(e).truth()) }, shape: sh, sy: symLogic(true, sy[0], sy[1])}
		}
	}
	return l, err
}

func (p *parser) not() (node, error) {
	if p.peek().kind == "ident" && p.peek().text == "not" {
		p.next()
		if err := p.enter(); err != nil {
			return node{}, err
		}
		n, err := p.not()
		p.depth--
		if err != nil || n.fn == nil {
			return n, cmpErr(err, p)
		}
		a := n.fn
		return node{fn: func(e *env) num { return boolean(!a(e).truth()) }, shape: n.shape, sy: symLogic(false, n.symOf(), nil)}, nil
	}
	return p.cmp()
}

func cmpErr(err error, p *parser) error {
	if err != nil {
		return err
	}
	return p.errorf("a text is not a value")
}

func (p *parser) cmp() (node, error) {
	l, err := p.add()
	if err != nil {
		return l, err
	}
	t := p.peek()
	if t.kind != "op" {
		return l, nil
	}
	switch t.text {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return l, nil
	}
	p.next()
	r, err := p.add()
	if err != nil {
		return r, err
	}
	// A house rule compared with the name of one of its choices.
	if l.str != nil || r.str != nil {
		rule, s := l.rule, r.str
		if rule == nil {
			rule, s = r.rule, l.str
		}
		if rule == nil || s == nil || (t.text != "==" && t.text != "!=") {
			return l, p.errorf("a text in quotes is only compared with == or != to a house rule")
		}
		idx := rule.index(*s)
		if idx < 0 {
			return l, p.errorf("house rule %q has no choice %q", rule.Key, *s)
		}
		f := rule.fn
		want, eq := int64(idx), t.text == "=="
		return node{fn: func(e *env) num { return boolean((f(e).n == want) == eq) }}, nil
	}
	f, sy, sh := p.kids(l, r)
	return node{fn: compare(t.text, f[0], f[1]), shape: sh, sy: symCompare(t.text, sy[0], sy[1])}, nil
}

// compare is a comparison of a and b, one closure per operator (false
// when either is impossible).
func compare(op string, a, b evalFn) evalFn {
	switch op {
	case "==":
		return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) == 0) }
	case "!=":
		return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) != 0) }
	case "<":
		return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) < 0) }
	case "<=":
		return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) <= 0) }
	case ">":
		return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) > 0) }
	}
	return func(e *env) num { x, y := a(e), b(e); return boolean(!x.imp && !y.imp && x.cmp(y) >= 0) }
}

func (p *parser) add() (node, error) {
	l, err := p.mul()
	for err == nil && p.peek().kind == "op" && (p.peek().text == "+" || p.peek().text == "-") {
		op := p.next().text
		var r node
		if r, err = p.mul(); err != nil {
			break
		}
		if l.fn == nil || r.fn == nil {
			return l, p.errorf("a text is not a value")
		}
		f, sy, sh := p.kids(l, r)
		a, b := f[0], f[1]
		if op == "+" {
			l = node{fn: func(e *env) num { return a(e).add(b(e)) }, shape: sh, sy: symArith('+', sy[0], sy[1])}
		} else {
			l = node{fn: func(e *env) num { return a(e).add(b(e).neg()) }, shape: sh, sy: symArith('-', sy[0], sy[1])}
		}
	}
	return l, err
}

func (p *parser) mul() (node, error) {
	l, err := p.unary()
	for err == nil && p.peek().kind == "op" && (p.peek().text == "*" || p.peek().text == "/") {
		op := p.next().text
		var r node
		if r, err = p.unary(); err != nil {
			break
		}
		if l.fn == nil || r.fn == nil {
			return l, p.errorf("a text is not a value")
		}
		f, sy, sh := p.kids(l, r)
		a, b := f[0], f[1]
		if op == "*" {
			l = node{fn: func(e *env) num { return a(e).mul(b(e)) }, shape: sh, sy: symArith('*', sy[0], sy[1])}
		} else {
			l = node{fn: func(e *env) num { return a(e).div(b(e)) }, shape: sh, sy: symArith('/', sy[0], sy[1])}
		}
	}
	return l, err
}

func (p *parser) unary() (node, error) {
	if t := p.peek(); t.kind == "op" && t.text == "-" {
		p.next()
		if err := p.enter(); err != nil {
			return node{}, err
		}
		n, err := p.unary()
		p.depth--
		if err != nil || n.fn == nil {
			return n, cmpErr(err, p)
		}
		a := n.fn
		return node{fn: func(e *env) num { return a(e).neg() }, shape: n.shape, sy: symNeg(n.symOf())}, nil
	}
	return p.primary()
}

func (p *parser) args() ([]node, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var out []node
	if p.peek().text == ")" && p.peek().kind == "op" {
		p.next()
		return out, nil
	}
	for {
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if p.peek().kind == "op" && p.peek().text == "," {
			p.next()
			continue
		}
		return out, p.expect(")")
	}
}

func (p *parser) primary() (node, error) {
	if err := p.enter(); err != nil {
		return node{}, err
	}
	defer func() { p.depth-- }()
	t := p.next()
	switch t.kind {
	case "num":
		v, ok := parseNum(t.text)
		if !ok {
			return node{}, p.errorf("number %s too large", t.text)
		}
		return node{fn: func(*env) num { return v }, leaf: true}, nil
	case "str":
		s := t.text
		return node{str: &s}, nil
	case "op":
		if t.text == "(" {
			n, err := p.or()
			if err != nil {
				return n, err
			}
			return n, p.expect(")")
		}
		p.i--
		return node{}, p.errorf("unexpected %q", t.text)
	case "ident":
		return p.ident(t)
	}
	p.i--
	return node{}, p.errorf("unexpected end")
}

func (p *parser) ident(t token) (node, error) {
	name := t.text
	sc := p.sc
	if sc.inputsOnly {
		next := p.peek()
		call := next.kind == "op" && next.text == "("
		_, input := sc.vars[name]
		if next.kind == "op" && next.text == "." || call && sc.sys.tables[name] != nil || !call && !input && name != "true" && name != "false" {
			return node{}, p.errorf("a requirement reads only its check's inputs: %q is none", name)
		}
		if input {
			sc.reads[sc.vars[name]] = true
		}
	}
	// pool.reading, opp.input, active.value
	if p.peek().kind == "op" && p.peek().text == "." {
		p.next()
		f := p.next()
		if f.kind != "ident" {
			return node{}, p.errorf("a name expected after %q", name+".")
		}
		if pl, ok := sc.pools[name]; ok {
			return p.reading(pl, f.text)
		}
		switch name {
		case "opp":
			slot, ok := sc.vars[f.text]
			if !sc.opp || !ok || slot >= len(sc.sys.inputSlots) {
				return node{}, p.errorf("opp.%s: only an opposed check's side names the other side's inputs", f.text)
			}
			return node{fn: func(e *env) num {
				if e.opp == nil {
					return impossible
				}
				return e.opp.v[slot]
			}, leaf: true}, nil
		case "active", "passive":
			sc.dyn = true
			sc.passive = sc.passive || name == "passive"
			slot, ok := sc.sideVars[f.text]
			if !sc.result || !ok {
				return node{}, p.errorf("%s.%s: only an opposed check's result names its sides' values", name, f.text)
			}
			side := 0
			if name == "passive" {
				side = 1
			}
			if sc.refSlots != nil {
				sc.refSlots[slot] = true
			}
			return node{fn: func(e *env) num { return e.sides[side].v[slot] }, shape: shape{dyn: true}}, nil
		}
		return node{}, p.errorf("%q is no pool", name)
	}
	if p.peek().kind == "op" && p.peek().text == "(" {
		if tb, ok := sc.sys.tables[name]; ok {
			args, err := p.args()
			if err != nil {
				return node{}, err
			}
			return tb.compile(args, p)
		}
		return p.call(name)
	}
	switch name {
	case "true":
		return node{fn: func(*env) num { return boolean(true) }, leaf: true}, nil
	case "false":
		return node{fn: func(*env) num { return boolean(false) }, leaf: true}, nil
	case "_":
		if !sc.loop {
			return node{}, p.errorf("_ is count_while's column, only inside it")
		}
		return node{fn: func(e *env) num { return e.loop }, shape: shape{loop: true}, leaf: true}, nil
	case "won":
		sc.dyn = true
		if !sc.result {
			return node{}, p.errorf("won: only in an opposed check's result")
		}
		return node{fn: func(e *env) num { return e.won }, shape: shape{dyn: true}}, nil
	}
	if v, ok := sc.sys.numbers[name]; ok {
		c := integer(int64(v))
		return node{fn: func(*env) num { return c }, leaf: true}, nil
	}
	if slot, ok := sc.vars[name]; ok {
		dyn := sc.dynVars[slot]
		if dyn {
			sc.dyn = true
		}
		fn := func(e *env) num { return e.v[slot] }
		if hr := sc.sys.rules[name]; hr != nil {
			hr.fn = fn
			return node{fn: fn, rule: hr, leaf: true}, nil
		}
		return node{fn: fn, shape: shape{dyn: dyn, lvl: sc.lvls[slot]}, leaf: true, sy: symSlot(slot)}, nil
	}
	return node{}, p.errorf("unknown name %q", name)
}

func (p *parser) call(name string) (node, error) {
	if name == "count_while" {
		return p.countWhile()
	}
	args, err := p.args()
	if err != nil {
		return node{}, err
	}
	for _, a := range args {
		if a.fn == nil {
			return node{}, p.errorf("%s: a text is not a value", name)
		}
	}
	fns, syms, sh := p.kids(args...)
	n, err := p.builtin(name, fns, syms)
	n.shape = sh
	return n, err
}

// builtin is function name of the values fns.
func (p *parser) builtin(name string, fns []evalFn, syms []symFn) (node, error) {
	want := func(n int) error {
		if len(fns) != n {
			return p.errorf("%s takes %d values, not %d", name, n, len(fns))
		}
		return nil
	}
	switch name {
	case "floor", "ceil", "half_up", "half_down", "half_even", "trunc":
		if err := want(1); err != nil {
			return node{}, err
		}
		a, mode := fns[0], name
		return node{fn: func(e *env) num { return a(e).round(mode) }, sy: symRound(mode, syms[0])}, nil
	case "abs":
		if err := want(1); err != nil {
			return node{}, err
		}
		a := fns[0]
		return node{fn: func(e *env) num {
			x := a(e)
			if !x.imp && x.n < 0 {
				return x.neg()
			}
			return x
		}, sy: symAbs(syms[0])}, nil
	case "possible":
		if err := want(1); err != nil {
			return node{}, err
		}
		a := fns[0]
		return node{fn: func(e *env) num { return boolean(!a(e).imp) }, sy: symPossible(syms[0])}, nil
	case "if":
		if err := want(3); err != nil {
			return node{}, err
		}
		c, a, b := fns[0], fns[1], fns[2]
		return node{fn: func(e *env) num {
			if c(e).truth() {
				return a(e)
			}
			return b(e)
		}, sy: symIf(syms[0], syms[1], syms[2])}, nil
	case "min", "max":
		if len(fns) < 2 {
			return node{}, p.errorf("%s takes two values or more", name)
		}
		sign := 1
		if name == "min" {
			sign = -1
		}
		return node{fn: func(e *env) num {
			best := fns[0](e)
			for _, f := range fns[1:] {
				x := f(e)
				if x.imp || best.imp {
					return impossible
				}
				if x.cmp(best)*sign > 0 {
					best = x
				}
			}
			return best
		}, sy: symMinMax(sign, syms)}, nil
	}
	return node{}, p.errorf("unknown function %q", name)
}

// countWhile is count_while(FROM, TO, COND): how many columns _ = FROM,
// FROM+1, … TO in a row meet COND (Daegon's levels of success).
func (p *parser) countWhile() (node, error) {
	if p.sc.loop {
		return node{}, p.errorf("count_while inside count_while")
	}
	p.sc.loop = true
	args, err := p.args()
	p.sc.loop = false
	if err != nil {
		return node{}, err
	}
	if len(args) != 3 || args[0].fn == nil || args[1].fn == nil || args[2].fn == nil {
		return node{}, p.errorf("count_while takes FROM, TO and a condition on _")
	}
	f, sy, sh := p.kids(args...)
	sh.loop = false
	from, to, cond := f[0], f[1], f[2]
	return node{shape: sh, sy: symCountWhile(sy[0], sy[1], sy[2]), fn: func(e *env) num {
		a, b := from(e), to(e)
		if !a.isInt() || !b.isInt() {
			return impossible
		}
		n := int64(0)
		for k := a.n; k <= b.n && k-a.n < MaxCountWhile; k++ {
			e.loop = integer(k)
			if !cond(e).truth() {
				break
			}
			n++
		}
		return integer(n)
	}}, nil
}
