// Package kh resolves the Kingdom Hearts fan RPG's tests (docs/kh.md):
// Capacidad + one complete d6 (a 6 rerolls once) + heartless d6 (not added;
// each 6 grants one more complete-die roll) + nobody d6 (added, no rerolls)
// against a difficulty. No extra roll ever triggers another.
package kh

import (
	"math/big"
	"math/bits"

	"zaria/core/dice"
)

// Limits of the inputs.
const (
	MinCap, MaxCap = 0, 20
	MaxBonusDice   = 10 // heartless + nobody dice of one test
	MinDC, MaxDC   = 1, 60
)

// Tier is a difficulty band.
type Tier struct {
	From int
	Key  string // catalog suffix "kh.tier.<Key>"
}

// Tiers is the difficulty table (docs/kh.md#difficulties; below 4 is labelled Fácil).
var Tiers = []Tier{{4, "facil"}, {8, "normal"}, {12, "dificil"}, {16, "muy_dificil"}, {20, "legendario"}, {24, "imposible"}}

// TierOf returns the tier of a DC.
func TierOf(dc int) Tier {
	t := Tiers[0]
	for _, x := range Tiers {
		if dc >= x.From {
			t = x
		}
	}
	return t
}

// Input is one test's dice pool.
type Input struct {
	Cap       int // Capacidad
	Heartless int // s: sincorazón dice
	Nobody    int // i: incorpóreo dice
}

// Roll is the dice of one test in the order they were rolled: complete,
// heartless, nobody, extra complete-die rolls.
type Roll struct {
	Complete  int
	Heartless []int
	Nobody    []int
	Extra     []int
	Total     int
}

// Dice lists every die in rolling order.
func (r Roll) Dice() []int {
	out := []int{r.Complete}
	out = append(out, r.Heartless...)
	out = append(out, r.Nobody...)
	return append(out, r.Extra...)
}

func d6(src dice.Source) int { return src.IntN(6) + 1 }

// Resolve rolls a test.
func Resolve(src dice.Source, in Input) Roll {
	r := Roll{Complete: d6(src)}
	extra := 0
	if r.Complete == 6 {
		extra++
	}
	for i := 0; i < in.Heartless; i++ {
		h := d6(src)
		r.Heartless = append(r.Heartless, h)
		if h == 6 {
			extra++
		}
	}
	sum := r.Complete
	for i := 0; i < in.Nobody; i++ {
		n := d6(src)
		r.Nobody = append(r.Nobody, n)
		sum += n
	}
	for i := 0; i < extra; i++ {
		e := d6(src)
		r.Extra = append(r.Extra, e)
		sum += e
	}
	r.Total = in.Cap + sum
	return r
}

// sumCounts[m][x] counts the ways m d6 sum to x.
func sumCounts(maxM int) [][]uint64 {
	c := make([][]uint64, maxM+1)
	c[0] = []uint64{1}
	for m := 1; m <= maxM; m++ {
		c[m] = make([]uint64, 6*m+1)
		for x, n := range c[m-1] {
			for f := 1; f <= 6; f++ {
				c[m][x+f] += n
			}
		}
	}
	return c
}

// Chance is the exact probability that a test reaches dc (total ≥ dc),
// enumerated over the complete die, the number of heartless sixes
// (binomial) and the sum of the extra and nobody dice.
func Chance(in Input, dc int) *big.Rat {
	s, i := in.Heartless, in.Nobody
	maxM := s + 1 + i
	counts := sumCounts(maxM)
	// Weight of one outcome, over the common denominator 6 · 6^s · 6^maxM.
	pow := func(b, e int) uint64 {
		r := uint64(1)
		for ; e > 0; e-- {
			r *= uint64(b)
		}
		return r
	}
	binom := func(n, k int) uint64 {
		r := uint64(1)
		for j := 1; j <= k; j++ {
			r = r * uint64(n-k+j) / uint64(j)
		}
		return r
	}
	var hi, lo uint64 // a 128-bit sum: terms can exceed 2^64 in total
	for c := 1; c <= 6; c++ {
		for k := 0; k <= s; k++ {
			wk := binom(s, k) * pow(5, s-k) // ways for k sixes among s heartless dice
			m := k + i
			if c == 6 {
				m++
			}
			need := dc - in.Cap - c // the m dice must sum to at least need
			var ok uint64
			for x, n := range counts[m] {
				if x >= need {
					ok += n
				}
			}
			h, l := bits.Mul64(wk*ok, pow(6, maxM-m))
			var carry uint64
			lo, carry = bits.Add64(lo, l, 0)
			hi += h + carry
		}
	}
	num := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	num.Or(num, new(big.Int).SetUint64(lo))
	den := new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(1+s+maxM)), nil)
	return new(big.Rat).SetFrac(num, den)
}
