package dice

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// refGen writes a random arithmetic expression by the grammar of the
// notation and computes its value by that grammar at the same time: an
// evaluator that shares nothing with Parse and Roll. Its dice have faces
// it chose, replayed in order. It found "-10+1" rolled as 11.
type refGen struct {
	r     *rand.Rand
	b     strings.Builder
	depth int
	bad   bool  // division by zero or an intermediate value out of range
	faces []int // the dice rolled, in the order the roll draws them
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

// primary := number | "(" expr ")" | fn "(" expr ")"
func (g *refGen) primary() (v int64, div bool, a, b int64) {
	if g.depth >= 4 {
		n := int64(g.r.IntN(21))
		g.b.WriteString(strconv.FormatInt(n, 10))
		return n, false, 0, 0
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

func TestArithmeticAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 20000 {
		g := &refGen{r: r}
		want, _, _, _ := g.expr()
		text := g.b.String()
		e, err := Parse(text)
		if err != nil {
			if code := codeOf(err); code == CodeTooDeep || code == CodeTooManyTerms || code == CodeTooManyGroups {
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
	}
	if checked < 10000 {
		t.Fatalf("only %d expressions checked", checked)
	}
}

func codeOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return ""
}
