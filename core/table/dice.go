package table

import (
	"math/big"
	"strconv"
	"strings"

	"zaria/core/dice"
)

// Limits of a table's dice: its totals go from N to N×S, at most
// MaxTotal; every total's count of ways fits an int64.
const (
	MaxDiceCount = 5
	MaxTotal     = 1000
)

// Dice is what a table rolls: N dice of S sides added (1d6, 2d6, 1d100),
// or D66: two d6 read as tens and units (11 to 66).
type Dice struct {
	N, S int
	D66  bool
}

// String writes the dice as a table shows and stores them: "1d6", "d66".
func (d Dice) String() string {
	if d.D66 {
		return "d66"
	}
	return strconv.Itoa(d.N) + "d" + strconv.Itoa(d.S)
}

// Min and Max are the lowest and highest totals.
func (d Dice) Min() int {
	if d.D66 {
		return 11
	}
	return d.N
}

func (d Dice) Max() int {
	if d.D66 {
		return 66
	}
	return d.N * d.S
}

// Possible reports whether v is a total the dice can give.
func (d Dice) Possible(v int) bool {
	if d.D66 {
		return v/10 >= 1 && v/10 <= 6 && v%10 >= 1 && v%10 <= 6
	}
	return v >= d.Min() && v <= d.Max()
}

// ParseDice reads "1d6", "d6", "2d6", "d66", "d100", "d%", "1d100",
// "2δ6" (Greek δ). ok is false for anything else or past the limits.
func ParseDice(s string) (Dice, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.ReplaceAll(s, "δ", "d")
	if s == "d66" {
		return Dice{D66: true}, true
	}
	n, side, ok := strings.Cut(s, "d")
	if !ok {
		return Dice{}, false
	}
	d := Dice{N: 1}
	if n != "" {
		v, err := strconv.Atoi(n)
		if err != nil {
			return Dice{}, false
		}
		d.N = v
	}
	if side == "%" {
		side = "100"
	}
	v, err := strconv.Atoi(side)
	if err != nil {
		return Dice{}, false
	}
	d.S = v
	return d, d.valid()
}

func (d Dice) valid() bool {
	return d.D66 || (d.N >= 1 && d.N <= MaxDiceCount && d.S >= 2 && d.N*d.S <= MaxTotal)
}

// inferDice finds the dice whose totals go from lo to hi: 1dhi from 1,
// NdS from N to N×S, d66 from 11 to 66 when every total read as two
// digits is a d6's.
func inferDice(lo, hi int, values func(func(int) bool) bool) (Dice, bool) {
	if lo == 11 && hi == 66 && values(Dice{D66: true}.Possible) {
		return Dice{D66: true}, true
	}
	if lo < 1 || hi <= lo || hi%lo != 0 {
		return Dice{}, false
	}
	d := Dice{N: lo, S: hi / lo}
	return d, d.valid()
}

// Ways returns, for every total Min..Max, how many of the Total()
// equally likely throws give it (0 for a total a d66 cannot give).
func (d Dice) Ways() []int64 {
	if d.D66 {
		w := make([]int64, 66-11+1)
		for v := 11; v <= 66; v++ {
			if d.Possible(v) {
				w[v-11] = 1
			}
		}
		return w
	}
	ways := []int64{1} // totals of 0 dice: 0 once
	for i := 0; i < d.N; i++ {
		next := make([]int64, len(ways)+d.S-1)
		for t, w := range ways {
			if w == 0 {
				continue
			}
			for f := 0; f < d.S; f++ {
				next[t+f] += w
			}
		}
		ways = next
	}
	return ways // index 0 is total N
}

// Throws is how many equally likely throws there are: S^N, or 36.
func (d Dice) Throws() int64 {
	if d.D66 {
		return 36
	}
	t := int64(1)
	for i := 0; i < d.N; i++ {
		t *= int64(d.S)
	}
	return t
}

// Chance is the exact chance that a throw totals lo..hi.
func (d Dice) Chance(ways []int64, lo, hi int) *big.Rat {
	var n int64
	for v := lo; v <= hi; v++ {
		if i := v - d.Min(); i >= 0 && i < len(ways) {
			n += ways[i]
		}
	}
	return big.NewRat(n, d.Throws())
}

// Roll throws the dice: every die's face, and the total.
func (d Dice) Roll(src dice.Source) (faces []int, total int) {
	if d.D66 {
		a, b := src.IntN(6)+1, src.IntN(6)+1
		return []int{a, b}, a*10 + b
	}
	faces = make([]int, d.N)
	for i := range faces {
		faces[i] = src.IntN(d.S) + 1
		total += faces[i]
	}
	return faces, total
}

// Sides is the number of faces of each die Roll gives.
func (d Dice) Sides() []int {
	if d.D66 {
		return []int{6, 6}
	}
	s := make([]int, d.N)
	for i := range s {
		s[i] = d.S
	}
	return s
}
