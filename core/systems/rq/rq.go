// Package rq resolves RQ rolls (docs/rq.md): 1D100 ≤ 50 + skill +
// difficulty with the critical and fumble tables of simple rolls, and
// opposed rolls where only the offensive side rolls and a 1D4 decides what a
// critical or a fumble does to both sides.
package rq

import (
	"math/big"

	"zaria/core/dice"
)

// Difficulty is a row of the difficulty table.
type Difficulty struct {
	Key   string // catalog suffix: "rq.diff.<Key>"
	Value int
}

// Difficulties is the difficulty table (docs/rq.md#difficulties), in the rules' order.
var Difficulties = []Difficulty{
	{"rutinario", 50}, {"muy_facil", 30}, {"facil", 10}, {"algo_facil", 0},
	{"sin_dificultad", -10}, {"normal", -30}, {"con_dificultad", -50}, {"algo_dificil", -70},
	{"dificil", -90}, {"muy_dificil", -110}, {"improbable", -130}, {"epico", -150},
}

// Limits of what a user may type.
const (
	MinSkill, MaxSkill = 0, 300 // a skill or characteristic × multiplier
	MinChar, MaxChar   = 1, 40
	MinMult, MaxMult   = 1, 10
	MinDiff, MaxDiff   = -150, 50 // the table's range; numbers in between are allowed
	CharMult           = 3        // the normal multiplier of a characteristic roll
	OpposedCharMult    = 5        // characteristics in opposed rolls
)

// Outcome keys.
const (
	Critical = "critical"
	Success  = "success"
	Failure  = "failure"
	Fumble   = "fumble"
)

// rhu10 is round-half-up of n/10 for n ≥ 0.
func rhu10(n int) int { return (n + 5) / 10 }

// CritMax is the highest critical roll of a simple roll (0: none).
func CritMax(c int) int {
	if c <= 0 {
		return 0
	}
	return max(1, rhu10(c))
}

// Fumbles counts the results from 100 down that fumble (0: none).
func Fumbles(c int) int {
	if c > 100 {
		return 0
	}
	f := min(100, 100-c) // failure chance, capped at 100 %
	return max(1, (f*5+50)/100)
}

// FumbleMin is the lowest fumbling roll, or 0 when there are none.
func FumbleMin(c int) int {
	if n := Fumbles(c); n > 0 {
		return 101 - n
	}
	return 0
}

// Result classifies roll r (1..100) of a simple roll at chance c.
func Result(c, r int) string {
	if r == 100 {
		if c <= 100 {
			return Fumble
		}
		return Failure
	}
	if r <= c {
		if r <= CritMax(c) {
			return Critical
		}
		return Success
	}
	if fm := FumbleMin(c); fm > 0 && r >= fm {
		return Fumble
	}
	return Failure
}

// Succeeded reports whether an outcome is a success (critical included).
func Succeeded(o string) bool { return o == Critical || o == Success }

// Roll is one simple roll.
type Roll struct {
	Chance  int
	Roll    int // 1..100
	Outcome string
}

// RollD100 is one die of 1..100 ("00" = 100).
func RollD100(src dice.Source) int { return src.IntN(100) + 1 }

// Check rolls a simple roll at chance c.
func Check(src dice.Source, c int) Roll {
	r := RollD100(src)
	return Roll{Chance: c, Roll: r, Outcome: Result(c, r)}
}

// Odds are the exact chances of a roll.
type Odds struct {
	Success, Critical, Fumble *big.Rat
}

// Chances enumerates the 100 results of a simple roll.
func Chances(c int) Odds { return enumerate(c, Result) }

// enumerate counts the outcomes of the 100 rolls of chance c.
func enumerate(c int, result func(c, r int) string) Odds {
	var s, cr, f int64
	for r := 1; r <= 100; r++ {
		switch result(c, r) {
		case Critical:
			cr++
			s++
		case Success:
			s++
		case Fumble:
			f++
		}
	}
	return Odds{big.NewRat(s, 100), big.NewRat(cr, 100), big.NewRat(f, 100)}
}

// OppCrit is the highest critical of an opposed roll (0: N/A).
func OppCrit(c int) int {
	if c <= 0 {
		return 0
	}
	return min(10, rhu10(c))
}

// OppFumbles counts the fumbling results of an opposed roll (0: N/A).
func OppFumbles(c int) int { return 10 - OppCrit(c) }

// OppFumbleMin is the lowest fumbling roll of an opposed roll, or 0.
func OppFumbleMin(c int) int {
	if n := OppFumbles(c); n > 0 {
		return 101 - n
	}
	return 0
}

// OppResult classifies the offensive roll r of an opposed roll at chance c.
func OppResult(c, r int) string {
	if r == 100 && c >= 100 {
		return Failure // [ASSUMPTION] as for simple rolls
	}
	if r <= c {
		if r <= OppCrit(c) {
			return Critical
		}
		return Success
	}
	if fm := OppFumbleMin(c); fm > 0 && r >= fm {
		return Fumble
	}
	return Failure
}

// OppChance is the opposed chance: 50 + offensive − defensive.
func OppChance(off, def int) int { return 50 + off - def }

// Opposed is an opposed roll: the offensive roll, the 1D4 (0 if not
// rolled) and the outcome for each side.
type Opposed struct {
	Chance        int
	Roll, D4      int
	Roll0         string // the offensive roll as classified before the 1D4
	Off, Def      string
	OffensiveWins bool
}

// Oppose rolls the offensive 1D100 and, on a critical or a fumble, the 1D4
// (the opposed table, docs/rq.md#opposed-rolls).
func Oppose(src dice.Source, c int) Opposed {
	o := Opposed{Chance: c, Roll: RollD100(src)}
	o.Roll0 = OppResult(c, o.Roll)
	switch o.Roll0 {
	case Critical:
		o.D4 = src.IntN(4) + 1
		if o.D4%2 == 0 {
			o.Off, o.Def = Critical, Failure
		} else {
			o.Off, o.Def = Success, Fumble
		}
	case Success:
		o.Off, o.Def = Success, Failure
	case Failure:
		o.Off, o.Def = Failure, Success
	case Fumble:
		o.D4 = src.IntN(4) + 1
		if o.D4%2 == 0 {
			o.Off, o.Def = Fumble, Success
		} else {
			o.Off, o.Def = Failure, Critical
		}
	}
	o.OffensiveWins = Succeeded(o.Off)
	return o
}

// OppChances enumerates an opposed roll: the chance that the offensive side
// succeeds, and of its critical and fumble rolls (before the 1D4).
func OppChances(c int) Odds { return enumerate(c, OppResult) }
