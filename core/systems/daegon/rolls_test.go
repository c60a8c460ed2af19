package daegon

import (
	"math/big"

	"zaria/core/dice"
	"zaria/core/systems/engine"
)

// The tests' rolls of the file, each side's digits, value and level read
// from its values (the chat command replies by the file's layout instead).

// Roll is one d100 read from two d10: tens first, then units, a face of 10
// read as the digit 0.
type Roll struct {
	Tens, Units int // digits as read, 0..9
	Value       int // 01..100 (Hundred) or 00..99 (Zero)
}

// Result is one test.
type Result struct {
	Roll
	NH, D int
	Pct   int // table value, 0 = impossible
	Level int // -1 = failure
}

func intOf(v *big.Rat) int {
	if v == nil {
		return 0
	}
	return int(v.Num().Int64())
}

func (r Rules) resultOf(nh, d int, faces []int, vals map[string]*big.Rat) Result {
	return Result{Roll: Roll{Tens: faces[0] % 10, Units: faces[1] % 10, Value: intOf(vals["roll"])},
		NH: nh, D: d, Pct: r.pct(nh, d), Level: intOf(vals["level"])}
}

// Test rolls a skill test of skill nh against difficulty d.
func (r Rules) Test(src dice.Source, nh, d int, rd Reading) Result {
	res, err := r.s.Roll("test", engine.Params{Inputs: map[string]int{"nh": nh, "d": d}, Rules: rd.rules()}, src)
	if err != nil {
		panic(err) // the inputs are in range: the chat command checked them
	}
	return r.resultOf(nh, d, res.Dice, res.Values)
}

// Opposed is an opposed test; the passive side wins ties.
type Opposed struct {
	Active, Passive Result
	ActiveWins      bool
}

// Oppose rolls the active side (tens, units), then the passive side.
func (r Rules) Oppose(src dice.Source, act, pas int, rd Reading) Opposed {
	res, err := r.s.Roll("opposed", opposedParams(act, pas, rd), src)
	if err != nil {
		panic(err)
	}
	return Opposed{
		Active:     r.resultOf(act, intOf(res.Values["diff"]), res.Dice[:2], res.Values),
		Passive:    r.resultOf(pas, intOf(res.Passive["diff"]), res.Dice[2:], res.Passive),
		ActiveWins: res.Winner == "active",
	}
}

// pct is the rules' percentage table's cell (Impossible for "-").
func (r Rules) pct(nh, d int) int {
	if v, ok := r.s.Cell("pct", nh, d); ok {
		return int(v.Num().Int64())
	}
	return Impossible
}
