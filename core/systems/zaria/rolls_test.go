package zaria

import (
	"math/big"

	"zaria/core/dice"
	"zaria/core/systems/engine"
)

// The tests' rolls of the file, one side's dice and totals read from its
// values (the chat command replies by the file's layout instead).

// Roll is one side's dice and total.
type Roll struct {
	Dice   []int // two d10 (PC) or one d10 (NPC), as rolled
	Z2     int   // the Ζαριά, doubled
	Total2 int   // Mod + Ζαριά, doubled
	Epic   int   // -1 epic fail, +1 epic win, 0 none
}

// doubled is 2v for a value the file keeps in halves at most.
func doubled(v *big.Rat) int {
	if v == nil {
		return 0
	}
	d := new(big.Rat).Mul(v, big.NewRat(2, 1))
	return int(d.Num().Int64() / d.Denom().Int64())
}

func rollOf(dice []int, vals map[string]*big.Rat) Roll {
	return Roll{Dice: dice, Z2: doubled(vals["rolled"]), Total2: doubled(vals["total"]), Epic: doubled(vals["epic"]) / 2}
}

// RollSide rolls the dice of one side: one d10 for an NPC, two for a PC.
func (r Rules) RollSide(src dice.Source, s Side) Roll {
	res, err := r.file().Roll("check", engine.Params{Inputs: s.inputs(0), Rules: r.rules()}, src)
	if err != nil {
		panic(err) // the file's inputs are in range: the chat command checked them
	}
	return rollOf(res.Dice, res.Values)
}

// Succeeded reports whether an outcome counts as a success.
func Succeeded(outcome string) bool {
	switch outcome {
	case EpicWin, MajorWin, Success, Marginal:
		return true
	}
	return false
}

// Result is one check against a DC.
type Result struct {
	Roll
	DC      int
	Margin2 int
	Outcome string
	Level   int
}

// Check rolls side s against dc.
func (r Rules) Check(src dice.Source, s Side, dc int) Result {
	res, err := r.file().Roll("check", engine.Params{Inputs: s.inputs(dc), Rules: r.rules()}, src)
	if err != nil {
		panic(err)
	}
	out := Result{Roll: rollOf(res.Dice, res.Values), DC: dc, Margin2: doubled(res.Values["margin"]), Outcome: res.Outcome}
	if res.Level != nil {
		out.Level = *res.Level
	}
	return out
}

// Opposed is an opposed roll.
type Opposed struct {
	Active, Passive Roll
	ActiveWins      bool
}

// Oppose rolls the active side's dice, then the passive side's.
func (r Rules) Oppose(src dice.Source, act, pas Side) Opposed {
	res, err := r.file().Roll("opposed", engine.Params{Inputs: act.inputs(0), Passive: pas.inputs(0), Rules: r.rules()}, src)
	if err != nil {
		panic(err)
	}
	na := 2
	if act.NPC {
		na = 1
	}
	return Opposed{Active: rollOf(res.Dice[:na], res.Values), Passive: rollOf(res.Dice[na:], res.Passive), ActiveWins: res.Winner == "active"}
}
