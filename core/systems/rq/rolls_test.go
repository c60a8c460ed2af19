package rq

import (
	"zaria/core/dice"
	"zaria/core/systems/engine"
)

// The tests' rolls of the file, and the ranges read from its values (the
// chat command replies by the file's layout instead).

func (r Rules) value(check string, pr engine.Params, let string) int {
	v, ok := r.s.Value(check, pr, let)
	if !ok {
		return 0
	}
	return int(v.Num().Int64())
}

// CritMax is the highest critical roll of a simple roll (0: none).
func (r Rules) CritMax(c int) int { return r.value("roll", simple(c), "crit_max") }

// FumbleMin is the lowest fumbling roll, or 0 when there are none.
func (r Rules) FumbleMin(c int) int { return r.value("roll", simple(c), "fumble_min") }

// Succeeded reports whether an outcome is a success (critical included).
func Succeeded(o string) bool { return o == Critical || o == Success }

// Roll is one simple roll.
type Roll struct {
	Chance  int
	Roll    int // 1..100
	Outcome string
}

// Check rolls a simple roll at chance c.
func (r Rules) Check(src dice.Source, c int) Roll {
	res, err := r.s.Roll("roll", simple(c), src)
	if err != nil {
		panic(err) // the chance is in range: the chat command checked it
	}
	return Roll{Chance: c, Roll: int(res.Total.Num().Int64()), Outcome: res.Outcome}
}

// OppCrit is the highest critical of an opposed roll (0: N/A).
func (r Rules) OppCrit(c int) int { return r.value("opposed", opposed(c), "crit_max") }

// OppFumbleMin is the lowest fumbling roll of an opposed roll, or 0.
func (r Rules) OppFumbleMin(c int) int { return r.value("opposed", opposed(c), "fumble_min") }

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
func (r Rules) Oppose(src dice.Source, c int) Opposed {
	res, err := r.s.Roll("opposed", opposed(c), src)
	if err != nil {
		panic(err)
	}
	o := Opposed{Chance: c, Roll: res.Dice[0], Roll0: res.Also["roll"], Off: res.Outcome, Def: res.Also["defender"]}
	if len(res.Dice) > 1 {
		o.D4 = res.Dice[1]
	}
	o.OffensiveWins = Succeeded(o.Off)
	return o
}
