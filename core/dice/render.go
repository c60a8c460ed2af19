package dice

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"zaria/core/reply"
)

// RenderOptions tune how a result is written.
type RenderOptions struct {
	// MaxDice is the number of dice a term shows one by one; past it the
	// term shows only its sum ("[Σ 350]"). Zero means DefaultMaxDice.
	MaxDice int
	// Summary shows every term as its sum only.
	Summary bool
}

// DefaultMaxDice is how many dice of one term are listed before a summary:
// about three lines on a phone.
const DefaultMaxDice = 40

// Spans writes repetition i as "[6, 5, (2), 4] + 2 = " followed by the
// total in bold. Marks, the same in plain text and HTML:
//
//	(2)     dropped by keep/drop
//	6!      exploded (rolled another die)
//	6!+6!+2 compounded into one die
//	5-1     a penetrating die: face 5, counts 4
//	1↻4     a 1 rerolled into a 4
//	8✓ 1✗   a success / a failure of a pool
//	20★ 1💀 a critical success / failure (cs, cf): a mark only
//	2↑ 5↓   raised to the term's min / lowered to its max (min, max)
//	+ 0 -   Fudge faces
//	{[3, 5] + 2 = 10, ([4] = 4)}   a grouped roll: each total, a dropped
//	        one in brackets, a counted one marked ✓ or ✗ (see writeGroup)
func (r *Result) Spans(i int, opt RenderOptions) []reply.Span {
	var b strings.Builder
	b.Grow(64)
	if opt.MaxDice == 0 {
		opt.MaxDice = DefaultMaxDice
	}
	r.write(&b, r.Expr.Root, i, opt, 0)
	b.WriteString(" = ")
	return []reply.Span{reply.T(b.String()), reply.B(strconv.FormatInt(r.Totals[i], 10))}
}

func prec(n Node) int {
	switch n := n.(type) {
	case *Binary:
		switch n.Op {
		case Add, Sub:
			return 1
		case Pow:
			return 4
		}
		return 2
	case *Unary:
		return 3
	}
	return 5
}

func (r *Result) write(b *strings.Builder, n Node, rep int, opt RenderOptions, parent int) {
	switch n := n.(type) {
	case *Num:
		b.WriteString(strconv.FormatInt(n.V, 10))
		writeLabel(b, n.Label)
	case *Name:
		if n.Who != "" {
			b.WriteByte('@')
			b.WriteString(n.Who)
			b.WriteByte('.')
		}
		b.WriteString(n.Name)
		b.WriteString(" (")
		b.WriteString(strconv.FormatInt(r.NameValue(n), 10))
		b.WriteByte(')')
		writeLabel(b, n.Label)
	case *Dice:
		r.writeTerm(b, n, rep, opt)
	case *Unary:
		b.WriteByte('-')
		r.write(b, n.X, rep, opt, 3)
	case *Binary:
		p := prec(n)
		if p < parent {
			b.WriteByte('(')
		}
		lp, rp := p, p+1
		if n.Op == Pow { // right to left: 2 ** 3 ** 2, (2 ** 3) ** 2
			lp, rp = p+1, p
		}
		r.write(b, n.L, rep, opt, lp)
		b.WriteByte(' ')
		b.WriteString(n.Op.String())
		b.WriteByte(' ')
		r.write(b, n.R, rep, opt, rp)
		if p < parent {
			b.WriteByte(')')
		}
	case *Call:
		b.WriteString(n.Fn.String())
		b.WriteByte('(')
		r.write(b, n.X, rep, opt, 0)
		for _, x := range n.More {
			b.WriteString(", ")
			r.write(b, x, rep, opt, 0)
		}
		b.WriteByte(')')
	case *Group:
		r.writeGroup(b, n, rep, opt)
	}
}

// writeGroup writes a grouped roll: "{[3, 5] + 2 = 10, ([4] = 4)} = 10".
// Each expression of several shows its total (a bare number needs none),
// marked ✓ or ✗ when counted, in brackets when dropped, as dice are; a
// group of one expression shows it as a term does, its dice marked.
func (r *Result) writeGroup(b *strings.Builder, g *Group, rep int, opt RenderOptions) {
	b.WriteByte('{')
	if len(g.Items) == 1 && (g.PerDie || !g.Modified()) {
		r.write(b, g.Items[0], rep, opt, 0)
	} else {
		for i, x := range g.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it := r.item(g, rep, i)
			dropped := it.flags&DieDropped != 0
			if dropped {
				b.WriteByte('(')
			}
			r.write(b, x, rep, opt, 0)
			if _, num := x.(*Num); !num {
				b.WriteString(" = ")
				b.WriteString(strconv.FormatInt(it.value, 10))
			}
			switch {
			case it.flags&DieSuccess != 0:
				b.WriteString("✓")
			case it.flags&DieFailure != 0:
				b.WriteString("✗")
			}
			if dropped {
				b.WriteByte(')')
			}
		}
	}
	b.WriteByte('}')
	writeLabel(b, g.Label)
}

func writeLabel(b *strings.Builder, label string) {
	if label != "" {
		b.WriteByte(' ')
		b.WriteString(label)
	}
}

func (r *Result) writeTerm(b *strings.Builder, d *Dice, rep int, opt RenderOptions) {
	t := r.terms[rep*len(r.Expr.dice)+int(d.idx)]
	if d.CountX != nil || d.SidesX != nil {
		// (1d4)d6 shows what it rolled for the count: ([3])d6[4, 2, 5]
		if d.CountX != nil {
			b.WriteByte('(')
			r.write(b, d.CountX, rep, opt, 0)
			b.WriteString(")d")
		} else {
			b.WriteString(strconv.Itoa(d.Count) + "d")
		}
		if d.SidesX != nil {
			b.WriteByte('(')
			r.write(b, d.SidesX, rep, opt, 0)
			b.WriteByte(')')
		} else {
			b.WriteString(strconv.Itoa(d.Sides))
		}
	}
	b.WriteByte('[')
	if opt.Summary || int(t.n) > opt.MaxDice {
		b.WriteString("Σ ")
		b.WriteString(strconv.FormatInt(t.value, 10))
	} else if d.Sort != NoSort {
		r.writeSorted(b, d, int(t.first), int(t.first+t.n))
	} else {
		for i := t.first; i < t.first+t.n; i++ {
			if i > t.first {
				b.WriteString(", ")
			}
			r.writeDie(b, d, r.Dice[i])
		}
	}
	b.WriteByte(']')
	writeLabel(b, d.Label)
}

// writeSorted writes the dice Dice[first:end] of a term with s or sd in
// order of value, lowest or highest first. Every die ranks on its own,
// a die an explosion added too, as keep and drop rank them; among equal
// values the earlier comes first. Only the order written changes: Dice
// stays as rolled.
func (r *Result) writeSorted(b *strings.Builder, d *Dice, first, end int) {
	var buf [16]sortUnit
	units := buf[:0]
	for i := first; i < end; i++ {
		units = append(units, sortUnit{first: int32(i), value: int64(r.Dice[i].Value)})
	}
	slices.SortStableFunc(units, func(a, b sortUnit) int {
		if d.Sort == SortDesc {
			return cmp.Compare(b.value, a.value)
		}
		return cmp.Compare(a.value, b.value)
	})
	for k, u := range units {
		if k > 0 {
			b.WriteString(", ")
		}
		r.writeDie(b, d, r.Dice[u.first])
	}
}

// sortUnit is a die, for writeSorted.
type sortUnit struct {
	first int32 // the die in Result.Dice
	value int64
}

func writeFace(b *strings.Builder, d *Dice, v int32) {
	if d.Fudge {
		switch {
		case v > 0:
			b.WriteByte('+')
		case v < 0:
			b.WriteByte('-')
		default:
			b.WriteByte('0')
		}
		return
	}
	b.WriteString(strconv.Itoa(int(v)))
}

func (r *Result) writeDie(b *strings.Builder, d *Dice, die Die) {
	dropped := die.Flags&DieDropped != 0
	if dropped {
		b.WriteByte('(')
	}
	for _, v := range r.Rerolled(die) {
		writeFace(b, d, v)
		b.WriteString("↻")
	}
	switch {
	case die.Flags&DieCompound != 0:
		parts := r.Parts(die)
		for i, v := range parts {
			if i > 0 {
				b.WriteByte('+')
			}
			writeFace(b, d, v)
			if i < len(parts)-1 {
				b.WriteByte('!')
			}
		}
	case die.Flags&DiePenetrated != 0 && die.Flags&DieClamped == 0:
		writeFace(b, d, die.Value+1)
		b.WriteString("-1")
	default:
		writeFace(b, d, die.Value)
	}
	if die.Flags&DieClamped != 0 {
		if d.MinFace.On && int(die.Value) == d.MinFace.V {
			b.WriteString("↑")
		} else {
			b.WriteString("↓")
		}
	}
	if die.Flags&DieExploded != 0 && die.Flags&DieCompound == 0 {
		b.WriteByte('!')
	}
	switch {
	case die.Flags&DieSuccess != 0:
		b.WriteString("✓")
	case die.Flags&DieFailure != 0:
		b.WriteString("✗")
	}
	face := int(die.Value) // what cs and cf look at: the die as it counts, a penetrating one as rolled
	if die.Flags&DiePenetrated != 0 {
		face++
	}
	switch {
	case d.CritSuccess.Op != 0 && d.CritSuccess.Match(face):
		b.WriteString("★")
	case d.CritFail.Op != 0 && d.CritFail.Match(face):
		b.WriteString("💀")
	}
	if dropped {
		b.WriteByte(')')
	}
}

// Shown is an expression's text as a reply shows it: every compare point
// with the comparison it makes, ≥ or ≤ (Roll20's >5 is "5 or more", and
// so is zaria's), outside [labels]. ">=", ">", "<=" and "<" are typed;
// "=" stays.
func Shown(text string) string {
	if !strings.ContainsAny(text, "<>") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 4)
	label := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '[':
			label = true
		case c == ']':
			label = false
		case !label && (c == '>' || c == '<'):
			if c == '>' {
				b.WriteString("≥")
			} else {
				b.WriteString("≤")
			}
			if i+1 < len(text) && text[i+1] == '=' {
				i++
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
