// Package daegon resolves Daegon skill tests (docs/daegon.md): two d10 read
// as a percentage roll, 01..100 with 00 = 100 (or 00..99 under the house rule
// daegon_00 = cero), against the percentage table PCT[skill][difficulty],
// levels of success over the harder columns, and opposed tests through the
// comparison table where the passive side wins ties.
package daegon

import (
	"math/big"

	"zaria/core/dice"
)

// Ranges of the tables.
const (
	MinNH, MaxNH = 1, 15
	MinD, MaxD   = 1, 7
)

// Impossible marks a "-" cell of PCT.
const Impossible = 0

// PCT is the seed's percentage table, PCT[NH-1][D-1] in percent; 0 is "-"
// (the same as testdata/pct.txt, the seed's table, cell for cell).
var PCT = [MaxNH][MaxD]int{
	{30, 20, 10, 1, 0, 0, 0},
	{40, 29, 18, 7, 0, 0, 0},
	{50, 38, 26, 14, 2, 0, 0},
	{60, 47, 34, 21, 8, 0, 0},
	{70, 56, 42, 28, 14, 0, 0},
	{80, 65, 50, 35, 20, 5, 0},
	{90, 74, 58, 42, 26, 10, 0},
	{100, 83, 66, 49, 32, 15, 5},
	{100, 92, 74, 56, 38, 20, 10},
	{100, 100, 82, 63, 44, 25, 15},
	{100, 100, 90, 70, 50, 30, 20},
	{100, 100, 98, 77, 56, 35, 25},
	{100, 100, 100, 84, 62, 40, 30},
	{100, 100, 100, 91, 68, 45, 35},
	{100, 100, 100, 98, 74, 50, 40},
}

// CMP is the seed's comparison table (testdata/cmp.txt): CMP[opp-1][own-1] is the difficulty the character
// with skill own rolls against when facing skill opp.
var CMP = [MaxNH][MaxNH]int{
	{3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1},
	{3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1},
	{3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1},
	{3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1},
	{4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1},
	{4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1},
	{4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2},
	{4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2},
	{4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2},
	{5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2},
	{5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2},
	{5, 5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3},
	{5, 5, 5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3},
	{5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3},
	{6, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3},
}

// Pct returns the table value (0 = impossible). nh and d must be in range.
func Pct(nh, d int) int { return PCT[nh-1][d-1] }

// Difficulty returns the difficulty of a character with skill own facing opp.
func Difficulty(own, opp int) int { return CMP[opp-1][own-1] }

// Fail is the level of a failed test.
const Fail = -1

// Level is the seed's levels of success (its test vectors): -1 for a failure, 0 for a plain success, and one
// more for each harder column the roll also passes.
func Level(nh, d, roll int) int {
	p := Pct(nh, d)
	if p == Impossible || roll > p {
		return Fail
	}
	l := 0
	for k := d + 1; k <= MaxD; k++ {
		q := Pct(nh, k)
		if q == Impossible || roll > q {
			break
		}
		l++
	}
	return l
}

// Reading is how a roll of two zeros ("00") is read.
type Reading int

const (
	// Hundred is the default: 00 reads as 100, the highest roll, so rolls
	// run 01..100 and the chance of success is the table value itself.
	Hundred Reading = iota
	// Zero is the house rule daegon_00 = cero: 00 reads as 0, rolls run
	// 00..99 and each chance is one point above the table.
	Zero
)

// rolls lists every roll the reading can give, each equally likely.
func (rd Reading) rolls() (lo, hi int) {
	if rd == Zero {
		return 0, 99
	}
	return 1, 100
}

// Roll is one d100 read from two d10: tens first, then units, a face of 10
// read as the digit 0.
type Roll struct {
	Tens, Units int // digits as read, 0..9
	Value       int // 01..100 (Hundred) or 00..99 (Zero)
}

// RollD100 rolls the tens die, then the units die.
func RollD100(src dice.Source, rd Reading) Roll {
	t := (src.IntN(10) + 1) % 10
	u := (src.IntN(10) + 1) % 10
	v := 10*t + u
	if v == 0 && rd == Hundred {
		v = 100
	}
	return Roll{Tens: t, Units: u, Value: v}
}

// Result is one test.
type Result struct {
	Roll
	NH, D int
	Pct   int // table value, 0 = impossible
	Level int // -1 = failure
}

// Test rolls a skill test of skill nh against difficulty d.
func Test(src dice.Source, nh, d int, rd Reading) Result {
	r := RollD100(src, rd)
	return Result{Roll: r, NH: nh, D: d, Pct: Pct(nh, d), Level: Level(nh, d, r.Value)}
}

// Chance is the exact chance of success: p/100 under Hundred, (p+1)/100
// (at most 1) under Zero.
func Chance(nh, d int, rd Reading) *big.Rat {
	ok := 0
	lo, hi := rd.rolls()
	for r := lo; r <= hi; r++ {
		if Level(nh, d, r) != Fail {
			ok++
		}
	}
	return big.NewRat(int64(ok), 100)
}

// Opposed is an opposed test; the passive side wins ties.
type Opposed struct {
	Active, Passive Result
	ActiveWins      bool
}

// Oppose rolls the active side (tens, units), then the passive side.
func Oppose(src dice.Source, act, pas int, rd Reading) Opposed {
	a := Test(src, act, Difficulty(act, pas), rd)
	p := Test(src, pas, Difficulty(pas, act), rd)
	return Opposed{Active: a, Passive: p, ActiveWins: a.Level > p.Level}
}

// OpposedChance is the exact probability that the active side wins.
func OpposedChance(act, pas int, rd Reading) *big.Rat {
	da, dp := Difficulty(act, pas), Difficulty(pas, act)
	// levels run from -1 to 6: count the rolls of each side at each level.
	var na, np [MaxD + 1]int64
	lo, hi := rd.rolls()
	for r := lo; r <= hi; r++ {
		na[Level(act, da, r)+1]++
		np[Level(pas, dp, r)+1]++
	}
	var wins, below int64
	for l := 0; l <= MaxD; l++ {
		wins += na[l] * below
		below += np[l]
	}
	return big.NewRat(wins, 10000)
}
