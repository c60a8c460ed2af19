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
		if n.Op == Add || n.Op == Sub {
			return 1
		}
		return 2
	case *Unary:
		return 3
	}
	return 4
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
		r.write(b, n.L, rep, opt, p)
		b.WriteByte(' ')
		b.WriteByte(byte(n.Op))
		b.WriteByte(' ')
		r.write(b, n.R, rep, opt, p+1)
		if p < parent {
			b.WriteByte(')')
		}
	case *Call:
		b.WriteString(n.Fn.String())
		b.WriteByte('(')
		r.write(b, n.X, rep, opt, 0)
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
// order of value, lowest or highest first. A die and the dice its
// explosion added stay together, in the order rolled, and rank by their
// sum, as keep and drop rank them; among equal values the earlier comes
// first. Only the order written changes: Dice stays as rolled.
func (r *Result) writeSorted(b *strings.Builder, d *Dice, first, end int) {
	var buf [16]sortUnit
	units := buf[:0]
	for i := first; i < end; i++ {
		v := int64(r.Dice[i].Value)
		if i > first && r.Dice[i].Flags&DieExtra != 0 {
			units[len(units)-1].value += v
			continue
		}
		units = append(units, sortUnit{first: int32(i), value: v})
	}
	slices.SortStableFunc(units, func(a, b sortUnit) int {
		if d.Sort == SortDesc {
			return cmp.Compare(b.value, a.value)
		}
		return cmp.Compare(a.value, b.value)
	})
	for k, u := range units {
		for i := int(u.first); i < end && (i == int(u.first) || r.Dice[i].Flags&DieExtra != 0); i++ {
			if k > 0 || i > int(u.first) {
				b.WriteString(", ")
			}
			r.writeDie(b, d, r.Dice[i])
		}
	}
}

// sortUnit is a die with its explosion chain, for writeSorted.
type sortUnit struct {
	first int32 // its first die in Result.Dice
	value int64 // the chain's sum
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
	case die.Flags&DiePenetrated != 0:
		writeFace(b, d, die.Value+1)
		b.WriteString("-1")
	default:
		writeFace(b, d, die.Value)
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
	if dropped {
		b.WriteByte(')')
	}
}
