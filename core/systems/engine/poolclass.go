package engine

import "zaria/core/dice"

// tally is how many dice each reading of a count-read pool has counted
// so far (MaxPoolDice fits an int8).
type tally [MaxReadings]int8

// counted is the distribution of a pool read only by counts (V5's
// count_ge(6), count(10) and count(1); all, any, size) by core/dice's
// FoldPool, which walks the faces rather than the dice: the state is how
// many dice each reading has counted. The die's values that no reading
// tells apart are merged first (Dist.Map), so a d10 read that way is
// four kinds of face (1, 2–5, 6–9, 10), whatever its size. counted is
// false when the pool is read otherwise; the distribution is nil past
// the odds core's budget.
func (rs *rollStep) counted(die *dice.Dist, n int, den int64) (*poolDist, bool) {
	d, reads, ok := rs.countDist(die, n)
	if !ok || d == nil {
		return nil, ok
	}
	return fromDist(d, den, func(v int64) []num { return reads[v] }), true
}

// countDist is counted's distribution: over the tuples of readings by
// their index in reads. ok is false when the pool is read otherwise; d
// is nil past the odds core's budget.
func (rs *rollStep) countDist(die *dice.Dist, n int) (d *dice.Dist, reads [][]num, ok bool) {
	for _, rd := range rs.reads {
		switch rd.kind {
		case "count", "count_ge", "count_le", "all", "any", "size":
		default:
			return nil, nil, false
		}
	}
	// Each value becomes the first one with the same answer to every
	// reading (sig: a bit per reading that counts it): its kind of face.
	lo := die.Min()
	sigs := make([]uint8, die.Max()-lo+1)
	firsts := make([]int64, len(sigs))
	kind := map[uint8]int64{}
	for i := range sigs {
		v := lo + int64(i)
		for j, rd := range rs.reads {
			if rd.counts(v) {
				sigs[i] |= 1 << j
			}
		}
		if _, ok := kind[sigs[i]]; !ok {
			kind[sigs[i]] = v
		}
		firsts[i] = kind[sigs[i]]
	}
	kinds, err := die.Map(func(v int64) int64 { return firsts[v-lo] })
	if err != nil {
		return nil, nil, true
	}
	// What a tally's count becomes once read: all and any a 0 or 1, size
	// nothing (every tally has n dice), so tallies that read the same are one.
	var alls, anys, sizes uint8
	for i, rd := range rs.reads {
		switch rd.kind {
		case "all":
			alls |= 1 << i
		case "any":
			anys |= 1 << i
		case "size":
			sizes |= 1 << i
		}
	}
	var seen []tally
	index := map[tally]int64{}
	d, err = dice.FoldPool(kinds, n, tally{}, func(t tally, face int64, k int) tally {
		sig := sigs[face-lo]
		for i := range rs.reads {
			if sig&(1<<i) != 0 {
				t[i] += int8(k)
			}
		}
		return t
	}, func(t tally) int64 {
		for i := range rs.reads {
			switch bit := uint8(1) << i; {
			case alls&bit != 0:
				t[i] = b2i(n > 0 && int(t[i]) == n)
			case anys&bit != 0:
				t[i] = b2i(t[i] > 0)
			case sizes&bit != 0:
				t[i] = 0
			}
		}
		at, ok := index[t]
		if !ok {
			at = int64(len(seen))
			index[t] = at
			seen = append(seen, t)
		}
		return at
	})
	if err != nil {
		return nil, nil, true
	}
	reads = make([][]num, len(seen))
	all := make([]num, len(seen)*len(rs.reads)) // every tuple's readings, one after another
	for i := range seen {
		reads[i] = all[i*len(rs.reads) : (i+1)*len(rs.reads) : (i+1)*len(rs.reads)]
		for j, rd := range rs.reads {
			c := int64(seen[i][j])
			switch rd.kind {
			case "all", "any":
				reads[i][j] = boolean(c == 1)
			case "size":
				reads[i][j] = integer(int64(n))
			default:
				reads[i][j] = integer(c)
			}
		}
	}
	return d, reads, true
}

// counts reports whether a die of value v counts for a count reading.
func (rd reading) counts(v int64) bool {
	f := int64(rd.arg)
	switch rd.kind {
	case "count", "all", "any":
		return v == f
	case "count_ge":
		return v >= f
	case "count_le":
		return v <= f
	}
	return false
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}
