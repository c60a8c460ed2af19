package dice

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// refGen writes a random arithmetic expression by the grammar of the
// notation and computes its value by that grammar at the same time: an
// evaluator that shares nothing with Parse and Roll. Its dice have faces
// it chose, replayed in order. It found "-10+1" rolled as 11.
type refGen struct {
	r       *rand.Rand
	b       strings.Builder
	depth   int
	inGroup bool
	bad     bool  // division by zero or an intermediate value out of range
	faces   []int // the dice rolled, in the order the roll draws them
}

// dice writes NdS with faces of its own choosing, drawn in order.
func (g *refGen) dice() int64 {
	n, sides := 1+g.r.IntN(3), 2+g.r.IntN(9)
	g.b.WriteString(strconv.Itoa(n) + "d" + strconv.Itoa(sides))
	var sum int64
	for range n {
		f := 1 + g.r.IntN(sides)
		g.faces = append(g.faces, f)
		sum += int64(f)
	}
	return sum
}

func (g *refGen) check(v int64) int64 {
	if v > MaxMagnitude || v < -MaxMagnitude {
		g.bad = true
	}
	return v
}

func refFloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// expr := term (("+" | "-") term)*. div is set when the expression is
// one term whose last operation is a division (what floor, ceil and round
// divide exactly), with its operands.
func (g *refGen) expr() (v int64, div bool, a, b int64) {
	v, div, a, b = g.term()
	for g.r.IntN(3) == 0 && g.depth < 4 {
		div = false
		if g.r.IntN(2) == 0 {
			g.b.WriteString("+")
			r, _, _, _ := g.term()
			v = g.check(v + r)
		} else {
			g.b.WriteString("-")
			r, _, _, _ := g.term()
			v = g.check(v - r)
		}
	}
	return v, div, a, b
}

// term := unary (("*" | "/") unary)*
func (g *refGen) term() (v int64, div bool, a, b int64) {
	v, div, a, b = g.unary()
	for g.r.IntN(3) == 0 && g.depth < 4 {
		if g.r.IntN(2) == 0 {
			g.b.WriteString("*")
			r, _, _, _ := g.unary()
			v, div = g.check(v*r), false
		} else {
			g.b.WriteString("/")
			r, _, _, _ := g.unary()
			if r == 0 {
				g.bad = true
				r = 1
			}
			a, b = v, r
			v, div = refFloorDiv(v, r), true
		}
	}
	return v, div, a, b
}

// unary := ("-" | "+")* primary. A "+" and parentheses change nothing:
// round((15/9)) divides exactly as round(15/9) does; a "-" makes a
// negation of the (floored) quotient.
func (g *refGen) unary() (v int64, div bool, a, b int64) {
	switch g.r.IntN(5) {
	case 0:
		g.b.WriteString("-")
		g.depth++
		defer func() { g.depth-- }()
		v, _, _, _ = g.unary()
		return -v, false, 0, 0
	case 1:
		g.b.WriteString("+")
		g.depth++
		defer func() { g.depth-- }()
		return g.unary()
	}
	return g.primary()
}

// primary := number | "(" expr ")" | fn "(" expr ")" | group
func (g *refGen) primary() (v int64, div bool, a, b int64) {
	if g.depth >= 4 {
		n := int64(g.r.IntN(21))
		g.b.WriteString(strconv.FormatInt(n, 10))
		return n, false, 0, 0
	}
	if !g.inGroup && g.r.IntN(6) == 0 {
		g.inGroup = true
		g.depth++
		defer func() { g.inGroup = false; g.depth-- }()
		if g.r.IntN(3) == 0 {
			return g.perDie(), false, 0, 0
		}
		return g.group(), false, 0, 0
	}
	switch g.r.IntN(4) {
	case 0:
		g.depth++
		defer func() { g.depth-- }()
		g.b.WriteString("(")
		v, div, a, b = g.expr()
		g.b.WriteString(")")
		return v, div, a, b
	case 1:
		g.depth++
		defer func() { g.depth-- }()
		fn := []string{"floor", "ceil", "round", "abs"}[g.r.IntN(4)]
		g.b.WriteString(fn + "(")
		v, div, a, b := g.expr()
		g.b.WriteString(")")
		switch {
		case fn == "abs":
			if v < 0 {
				v = -v
			}
		case !div:
		case fn == "ceil":
			v = -refFloorDiv(-a, b)
		case fn == "round": // halves up
			v = refFloorDiv(2*a+b, 2*b)
		}
		return v, false, 0, 0
	}
	if g.r.IntN(3) == 0 {
		return g.dice(), false, 0, 0
	}
	n := int64(g.r.IntN(21))
	g.b.WriteString(strconv.FormatInt(n, 10))
	return n, false, 0, 0
}

// group := "{" expr ("," expr)* "}" [keep | condition]: the totals of
// several expressions kept, dropped or counted, or one expression's.
func (g *refGen) group() int64 {
	n := 1 + g.r.IntN(4)
	g.b.WriteString("{")
	vals := make([]int64, n)
	for i := range vals {
		if i > 0 {
			g.b.WriteString(", ")
		}
		vals[i], _, _, _ = g.expr()
	}
	g.b.WriteString("}")
	if n == 1 { // a modifier would act on its dice (perDie)
		return vals[0]
	}
	switch g.r.IntN(3) {
	case 0:
		return g.check(sum(vals))
	case 1:
		return g.check(sum(g.keep(vals)))
	}
	return g.count(vals)
}

// perDie := "{" dice ("+" dice)* ["+" number] "}" (keep | condition):
// the modifier acts on every die.
func (g *refGen) perDie() int64 {
	g.b.WriteString("{")
	var faces []int64
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			g.b.WriteString("+")
		}
		start := len(g.faces)
		g.dice()
		for _, f := range g.faces[start:] {
			faces = append(faces, int64(f))
		}
	}
	if g.r.IntN(2) == 0 {
		c := int64(g.r.IntN(10))
		g.b.WriteString("+" + strconv.FormatInt(c, 10) + "}")
		return sum(g.keep(faces)) + c
	}
	g.b.WriteString("}")
	if g.r.IntN(2) == 0 {
		return sum(g.keep(faces))
	}
	return g.count(faces)
}

// keep writes a keep/drop and returns the values it keeps.
func (g *refGen) keep(vals []int64) []int64 {
	n := len(vals)
	mode := []string{"kh", "kl", "dh", "dl"}[g.r.IntN(4)]
	k := 1 + g.r.IntN(n)
	if mode[0] == 'd' {
		k = g.r.IntN(n)
	}
	g.b.WriteString(mode + strconv.Itoa(k))
	sorted := slices.Clone(vals)
	slices.SortStableFunc(sorted, func(a, b int64) int {
		if mode == "kh" || mode == "dh" {
			return cmp.Compare(b, a)
		}
		return cmp.Compare(a, b)
	})
	if mode[0] == 'k' {
		return sorted[:k]
	}
	return sorted[k:]
}

// count writes a success condition, maybe with failures, and counts.
func (g *refGen) count(vals []int64) int64 {
	ops := []string{">=", ">", "<=", "<", "="}
	match := func(op string, v, x int64) bool {
		switch op {
		case ">=":
			return v >= x
		case ">": // Roll20's meaning: 5 or greater
			return v >= x
		case "<=":
			return v <= x
		case "<": // 5 or less
			return v <= x
		}
		return v == x
	}
	op, x := ops[g.r.IntN(5)], int64(g.r.IntN(12))
	g.b.WriteString(op + strconv.FormatInt(x, 10))
	fop, fx := "", int64(0)
	if g.r.IntN(3) == 0 {
		fop, fx = ops[g.r.IntN(5)], int64(g.r.IntN(6))
		g.b.WriteString("f" + fop + strconv.FormatInt(fx, 10))
	}
	var c int64
	for _, v := range vals {
		switch {
		case match(op, v, x):
			c++
		case fop != "" && match(fop, v, fx):
			c--
		}
	}
	return c
}

func sum(vals []int64) int64 {
	var s int64
	for _, v := range vals {
		s += v
	}
	return s
}

func TestArithmeticAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked, groups := 0, 0
	for range 20000 {
		g := &refGen{r: r}
		want, _, _, _ := g.expr()
		text := g.b.String()
		e, err := Parse(text)
		if err != nil {
			if code := codeOf(err); code == CodeTooDeep || code == CodeTooManyTerms || code == CodeTooManyGroups || code == CodeTooLong {
				continue
			}
			t.Fatalf("Parse(%q): %v", text, err)
		}
		res, err := e.Roll(NewScripted(g.faces), nil)
		if g.bad {
			continue // the roll may refuse it (division by zero, overflow)
		}
		if err != nil {
			t.Fatalf("Roll(%q): %v", text, err)
		}
		if got := res.Totals[0]; got != want {
			t.Fatalf("%q = %d, want %d", text, got, want)
		}
		checked++
		if strings.Contains(text, "{") {
			groups++
		}
	}
	t.Logf("%d expressions checked, %d with groups", checked, groups)
	if checked < 10000 || groups < 2000 {
		t.Fatalf("only %d expressions checked, %d with groups", checked, groups)
	}
}

func codeOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return ""
}
