// Package kh is the Kingdom Hearts fan RPG's tests (docs/kh.md) as the
// chat command uses them: Capacidad + one complete d6 (a 6 rerolls once) +
// heartless d6 (not added; each 6 grants one more complete-die roll) +
// nobody d6 (added, no rerolls) against a difficulty. No extra roll ever
// triggers another. The rules are the system file
// core/systems/engine/files/kh.yaml (granted dice: one level), run by the
// engine; this package names its inputs and results in Go.
package kh

import (
	"math/big"

	"zaria/core/dice"
	"zaria/core/systems/engine"
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

// Tiers is the difficulty table (docs/kh.md#difficulties; below 4 is
// labelled Fácil): the named values of the file's input dc.
var Tiers = func() []Tier {
	var out []Tier
	for _, in := range system().File.Inputs {
		if in.Key == "dc" {
			for _, n := range in.Named {
				out = append(out, Tier{From: n.Value, Key: n.Key})
			}
		}
	}
	return out
}()

// system is the shipped file, loaded once (its vectors held).
func system() *engine.System { return engine.MustBuiltin("kh") }

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

func (in Input) params(dc int) engine.Params {
	m := map[string]int{"cap": in.Cap, "s": in.Heartless, "i": in.Nobody}
	if dc > 0 {
		m["dc"] = dc
	}
	return engine.Params{Inputs: m}
}

// Resolve rolls a test.
func Resolve(src dice.Source, in Input) Roll {
	res, err := system().Roll("test", in.params(0), src)
	if err != nil {
		panic(err) // the inputs are in range: the chat command checked them
	}
	d := res.Dice
	r := Roll{Complete: d[0]}
	d = d[1:]
	r.Heartless, d = append([]int(nil), d[:in.Heartless]...), d[in.Heartless:]
	r.Nobody, d = append([]int(nil), d[:in.Nobody]...), d[in.Nobody:]
	r.Extra = append([]int(nil), d...)
	r.Total = int(res.Total.Num().Int64())
	return r
}

// Chance is the exact probability that a test reaches dc (total ≥ dc).
func Chance(in Input, dc int) *big.Rat {
	p, _, err := system().Chance("test", in.params(dc))
	if err != nil {
		panic(err)
	}
	return p
}
