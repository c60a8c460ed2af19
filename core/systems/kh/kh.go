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

	"zaria/core/systems/engine"
)

// Limits of the inputs.
const (
	MinCap, MaxCap = 0, 20
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

// Rules are the tests by one file: the shipped one (Of(nil)) or a chat's
// fork of it (core/systems/fork), whose band or outcome names may differ.
type Rules struct{ s *engine.System }

// Of is the rules of file s; nil is the book.
func Of(s *engine.System) Rules { return Rules{s: engine.BookOr(s, "kh")} }

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

func (in Input) params(dc int) engine.Params {
	m := map[string]int{"cap": in.Cap, "s": in.Heartless, "i": in.Nobody}
	if dc > 0 {
		m["dc"] = dc
	}
	return engine.Params{Inputs: m}
}

// Chance is the exact probability that a test against dc succeeds (by
// the book, total ≥ dc).
func (r Rules) Chance(in Input, dc int) *big.Rat {
	p, _, err := r.s.Chance("test", in.params(dc))
	if err != nil {
		panic(err)
	}
	return p
}

// Totals is the exact distribution of a test's total, lowest first.
func (r Rules) Totals(in Input) []engine.TotalP {
	od, err := r.s.Odds("test", in.params(0))
	if err != nil {
		panic(err)
	}
	return od.Totals
}
