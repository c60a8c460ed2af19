package engine

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"zaria/core/dice"
)

// rollStep is a "roll:" step: a pool of dice of one size, how many an
// expression says (a constant, or dice granted by an earlier pool's
// readings: one level only), each die optionally exploding a bounded
// number of times; the pool is read only through its readings.
type rollStep struct {
	name     string
	faces    int
	count    evalFn
	countDyn bool  // the count reads the dice (granted dice)
	countS   symFn // the count over a run of an earlier pool's rolls (sym.go)
	explode  map[int]bool
	times    int // explosions per die at most
	reads    []reading
	first    int // slot of its first reading in env.r
	level    int // 0: a constant count; 1: granted by another pool
	lvl      int // its place among the check's pools, from 1 (shape.lvl)

	mu     sync.Mutex
	memo   map[int]*poolDist
	noRuns atomic.Bool // no reading orders its rolls for the runs (sym.go)

	facesOf evalFn                // faces_of: the faces from the inputs (faces.go)
	argOf   []evalFn              // the counts' thresholds from the inputs (count_ge(score + 1))
	argSrc  []string              // each one's text, so that a reading is one slot
	sizes   map[poolKey]*rollStep // the pools of faces_of and thresholds, made once each (faces.go)
}

// reading is one number read from a pool's dice: a count's threshold is
// arg, or with of > 0 the value of the pool's argOf[of-1] when it is
// rolled.
type reading struct {
	kind string
	arg  int
	of   int
}

var readingKinds = map[string]bool{
	"sum": false, "highest": false, "lowest": false, "mean": false, "size": false,
	"d100": false, "d100_zero": false, "all_same": false,
	"count": true, "count_ge": true, "count_le": true, "all": true, "any": true, "die": true,
	"sum_highest": true, "sum_lowest": true,
}

func (p *parser) reading(rs *rollStep, kind string) (node, error) {
	takes, ok := readingKinds[kind]
	if !ok {
		return node{}, p.errorf("%s.%s: a pool is read by sum, highest, lowest, mean, size, d100, d100_zero, all_same, count(F), count_ge(F), count_le(F), all(F), any(F), die(N), sum_highest(N) or sum_lowest(N)", rs.name, kind)
	}
	rd := reading{kind: kind}
	if takes {
		var err error
		if rd, err = p.readingArg(rs, rd); err != nil {
			return node{}, err
		}
	}
	idx := -1
	for i, r := range rs.reads {
		if r == rd {
			idx = i
		}
	}
	if idx < 0 {
		if len(rs.reads) >= MaxReadings {
			e := limitErr("readings", MaxReadings, len(rs.reads)+1)
			e.Args["pool"] = rs.name
			return node{}, e
		}
		rs.reads = append(rs.reads, rd)
		idx = len(rs.reads) - 1
	}
	p.sc.dyn = true
	return node{fn: func(e *env) num { return e.r[rs.first+idx] }, shape: shape{dyn: true, lvl: rs.lvl}, leaf: true, sy: symReading(rs, idx)}, nil
}

// readingArg reads a reading's argument in parentheses: a whole number,
// or for a count an expression of the inputs and of the values that read
// no dice (count_ge(score + 1)), computed when the pool is rolled.
func (p *parser) readingArg(rs *rollStep, rd reading) (reading, error) {
	if err := p.expect("("); err != nil {
		return rd, err
	}
	start := p.i
	if p.peek().text == "-" && p.peek().kind == "op" {
		p.next()
	}
	t := p.next()
	if closes := p.peek().text == ")" && p.peek().kind == "op"; t.kind == "num" && closes {
		n, err := strconv.Atoi(t.text)
		if err != nil || n > 1000 {
			return rd, p.errorf("%s.%s takes a whole number", rs.name, rd.kind)
		}
		if start != p.i-1 {
			n = -n
		}
		if n < 1 && (rd.kind == "sum_highest" || rd.kind == "sum_lowest") {
			return rd, p.errorf("%s.%s keeps at least one die", rs.name, rd.kind)
		}
		rd.arg = n
		return rd, p.expect(")")
	}
	p.i = start
	if !countKinds[rd.kind] {
		return rd, p.errorf("%s.%s takes a whole number", rs.name, rd.kind)
	}
	n, err := p.or()
	if err != nil {
		return rd, err
	}
	// What reads no pool is computed before every pool (ordered, load.go).
	if n.fn == nil || n.dyn || n.lvl > 0 || n.loop {
		return rd, p.errorf("%s.%s: the threshold reads the inputs, not the dice", rs.name, rd.kind)
	}
	var src strings.Builder
	for _, t := range p.toks[start:p.i] {
		src.WriteString(t.text)
		src.WriteByte(' ')
	}
	rd.of = slices.Index(rs.argSrc, src.String()) + 1
	if rd.of == 0 {
		rs.argOf, rs.argSrc = append(rs.argOf, n.fn), append(rs.argSrc, src.String())
		rd.of = len(rs.argOf)
	}
	return rd, p.expect(")")
}

// countKinds are the readings whose threshold (a count's F, the number
// of dice kept) may be an expression.
var countKinds = map[string]bool{"count": true, "count_ge": true, "count_le": true, "sum_highest": true, "sum_lowest": true}

// read computes a reading of dice (each die's value, explosions added).
func (rd reading) read(d []int) num {
	switch rd.kind {
	case "sum", "mean":
		s := int64(0)
		for _, v := range d {
			s += int64(v)
		}
		if rd.kind == "mean" {
			if len(d) == 0 {
				return impossible
			}
			return ratio(s, int64(len(d)))
		}
		return integer(s)
	case "size":
		return integer(int64(len(d)))
	case "sum_highest", "sum_lowest":
		return integer(keptSum(d, rd.arg, rd.kind == "sum_highest"))
	case "highest", "lowest":
		if len(d) == 0 {
			return impossible
		}
		b := d[0]
		for _, v := range d[1:] {
			if (rd.kind == "highest") == (v > b) && v != b {
				b = v
			}
		}
		return integer(int64(b))
	case "d100", "d100_zero":
		if len(d) != 2 {
			return impossible
		}
		t, u := d[0]%10, d[1]%10
		v := int64(10*t + u)
		if v == 0 && rd.kind == "d100" {
			v = 100
		}
		return integer(v)
	case "all_same":
		for _, v := range d {
			if v != d[0] {
				return boolean(false)
			}
		}
		return boolean(len(d) > 0)
	case "count", "count_ge", "count_le":
		n := int64(0)
		for _, v := range d {
			if (rd.kind == "count" && v == rd.arg) || (rd.kind == "count_ge" && v >= rd.arg) || (rd.kind == "count_le" && v <= rd.arg) {
				n++
			}
		}
		return integer(n)
	case "all":
		for _, v := range d {
			if v != rd.arg {
				return boolean(false)
			}
		}
		return boolean(len(d) > 0)
	case "any":
		for _, v := range d {
			if v == rd.arg {
				return boolean(true)
			}
		}
		return boolean(false)
	case "die":
		if rd.arg < 1 || rd.arg > len(d) {
			return impossible
		}
		return integer(int64(d[rd.arg-1]))
	}
	return impossible
}

// keptSum is the sum of the k highest (or lowest) of d, all of them when
// d has k or fewer: 0 for none (L5R's roll and keep, 10k3).
func keptSum(d []int, k int, high bool) int64 {
	s := slices.Clone(d)
	slices.Sort(s)
	if high {
		slices.Reverse(s)
	}
	t := int64(0)
	for _, v := range s[:min(k, len(s))] {
		t += int64(v)
	}
	return t
}

// roll draws n dice from src, each exploding as declared, and returns
// each die's value and every face drawn in order (for --dice).
func (rs *rollStep) roll(src dice.Source, n int, faces *[]int) ([]int, error) {
	out := make([]int, n)
	for i := range out {
		v := src.IntN(rs.faces) + 1
		*faces = append(*faces, v)
		total := v
		for k := 0; k < rs.times && rs.explode[v]; k++ {
			v = src.IntN(rs.faces) + 1
			*faces = append(*faces, v)
			total += v
		}
		out[i] = total
	}
	return out, nil
}

// poolDist is a pool's distribution reduced to its readings: every
// distinct tuple of readings and how many of the den equally likely
// sequences give it.
type poolDist struct {
	reads  [][]num
	counts []int64
	den    int64
	// A wide pool's counts and den, past 10^15 (counts and den unset):
	// walked only in big integers (wide.go).
	wcounts []*big.Int
	wden    *big.Int
	mu      sync.Mutex
	orders  []*keyOrder // its tuples by each reading (sym.go), each sorted once
}

// die is one die of the pool as core/dice's odds core has it: a fair
// die, or one that explodes at most times times (Savage Worlds' aces to
// the file's depth); den is what its weights are out of (faces^(times+1)).
func (rs *rollStep) die() (d *dice.Dist, den int64, err error) {
	d, den = dice.FairDie(rs.faces), int64(rs.faces)
	if rs.times == 0 || len(rs.explode) == 0 {
		return d, den, nil
	}
	for range rs.times {
		den *= int64(rs.faces)
	}
	d, err = dice.ExplodingAtMost(d, func(v int64) bool { return rs.explode[int(v)] }, rs.times)
	return d, den, err
}

// weights are each value of d with its chance out of den, lowest first.
func weights(d *dice.Dist, den int64) (vals []int, w []int64, ok bool) {
	counts, ok := d.Counts(den)
	for i, c := range counts {
		if c != 0 {
			vals = append(vals, int(d.Min())+i)
			w = append(w, c)
		}
	}
	return vals, w, ok
}

// dist returns the reduced distribution of n dice, computed once per n;
// ok is false when the pool has more sequences than MaxPoolSequences.
func (rs *rollStep) dist(n int) (*poolDist, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if d, ok := rs.memo[n]; ok {
		return d, d != nil
	}
	if n == 0 { // no dice: one reading of none
		pd := &poolDist{den: 1, counts: []int64{1}, reads: [][]num{make([]num, len(rs.reads))}}
		for j, rd := range rs.reads {
			pd.reads[0][j] = rd.read(nil)
		}
		rs.memo[n] = pd
		return pd, true
	}
	die, dden, err := rs.die()
	if err != nil {
		rs.memo[n] = nil
		return nil, false
	}
	den := int64(1)
	for range n {
		if den > 1e15/dden {
			// Past int64's room: exact only when read one way or by
			// counts, in big integers (wide.go).
			pd := rs.wideDist(die, n)
			rs.memo[n] = pd
			return pd, pd != nil
		}
		den *= dden
	}
	if pd := rs.oneReading(die, n, den); pd != nil {
		rs.memo[n] = pd
		return pd, true
	}
	if pd, counted := rs.counted(die, n, den); counted { // poolclass.go
		rs.memo[n] = pd
		return pd, pd != nil
	}
	vals, w, ok := weights(die, dden)
	if !ok {
		rs.memo[n] = nil
		return nil, false
	}
	pd := &poolDist{den: den}
	index := map[string]int{}
	d := make([]int, 0, n)
	var b strings.Builder
	leaf := func(weight int64) {
		reads := make([]num, len(rs.reads))
		b.Reset()
		for j, rd := range rs.reads {
			reads[j] = rd.read(d)
			b.WriteString(reads[j].String())
			b.WriteByte(' ')
		}
		k := b.String()
		if at, ok := index[k]; ok {
			pd.counts[at] += weight
			return
		}
		index[k] = len(pd.reads)
		pd.reads = append(pd.reads, reads)
		pd.counts = append(pd.counts, weight)
	}
	if rs.ordered() {
		// die(N) and d100 read the dice in order: every sequence.
		seqs := int64(1)
		for range n {
			if seqs *= int64(len(vals)); seqs > MaxPoolSequences {
				rs.memo[n] = nil
				return nil, false
			}
		}
		var rec func(i int, weight int64)
		rec = func(i int, weight int64) {
			if i == n {
				leaf(weight)
				return
			}
			for j, v := range vals {
				d = append(d[:i], v)
				rec(i+1, weight*w[j])
			}
		}
		rec(0, 1)
	} else {
		// Every other reading ignores the order: each multiset of values
		// once, weighted by how many sequences give it (C(left, k) · w^k).
		sets := int64(0)
		var rec func(j, left int, weight int64)
		rec = func(j, left int, weight int64) {
			if sets > MaxPoolSequences {
				return
			}
			if j == len(vals)-1 {
				for range left {
					d = append(d, vals[j])
					weight *= w[j]
				}
				sets++
				leaf(weight)
				d = d[:len(d)-left]
				return
			}
			c, pw := int64(1), int64(1)
			for k := 0; k <= left; k++ {
				rec(j+1, left-k, weight*c*pw)
				d = append(d, vals[j])
				c = c * int64(left-k) / int64(k+1)
				pw *= w[j]
			}
			d = d[:len(d)-left-1]
		}
		rec(0, n, 1)
		if sets > MaxPoolSequences {
			rs.memo[n] = nil
			return nil, false
		}
	}
	rs.memo[n] = pd
	return pd, true
}

// ordered reports whether a reading depends on the dice's order.
func (rs *rollStep) ordered() bool {
	for _, rd := range rs.reads {
		switch rd.kind {
		case "die", "d100", "d100_zero":
			return true
		}
	}
	return false
}

// oneReading is the distribution of a pool read one way only (its sum,
// its highest or lowest die, the sum of its N highest or lowest, how
// many dice match), from core/dice's exact distributions (convolutions,
// not an enumeration); nil when the pool is read otherwise or is empty.
func (rs *rollStep) oneReading(die *dice.Dist, n int, den int64) *poolDist {
	d := rs.oneDist(die, n)
	if d == nil {
		return nil
	}
	return fromDist(d, den, func(v int64) []num { return []num{integer(v)} })
}

// oneDist is the distribution of a pool's one reading, nil when it has
// several, an other one, no dice, or is past the odds core's budget.
func (rs *rollStep) oneDist(die *dice.Dist, n int) *dice.Dist {
	if len(rs.reads) != 1 || n == 0 {
		return nil
	}
	rd := rs.reads[0]
	f := int64(rd.arg)
	var d *dice.Dist
	var err error
	switch rd.kind {
	case "sum":
		d, err = dice.SumPool(die, n)
	case "sum_highest", "sum_lowest":
		if rd.arg >= n { // every die kept: the sum, a cheaper convolution
			d, err = dice.SumPool(die, n)
		} else if rd.kind == "sum_highest" {
			d, err = dice.HighestK(die, n, rd.arg)
		} else {
			d, err = dice.LowestK(die, n, rd.arg)
		}
	case "highest":
		d, err = dice.HighestK(die, n, 1)
	case "lowest":
		d, err = dice.LowestK(die, n, 1)
	case "count":
		d, err = dice.CountPool(die, n, func(v int64) bool { return v == f })
	case "count_ge":
		d, err = dice.CountPool(die, n, func(v int64) bool { return v >= f })
	case "count_le":
		d, err = dice.CountPool(die, n, func(v int64) bool { return v <= f })
	default:
		return nil
	}
	if err != nil || d.Approx() {
		return nil
	}
	return d
}

// fromDist is the pool distribution of d's totals out of den, each
// total's readings given by reads; nil when den is not a multiple of
// d's own.
func fromDist(d *dice.Dist, den int64, reads func(v int64) []num) *poolDist {
	vals, w, ok := weights(d, den)
	if !ok {
		return nil
	}
	pd := &poolDist{den: den, counts: w}
	for _, v := range vals {
		pd.reads = append(pd.reads, reads(int64(v)))
	}
	return pd
}
