// Package rq is RQ's rolls (docs/rq.md) as the chat command uses them:
// 1D100 ≤ 50 + skill + difficulty with the critical and fumble tables of
// simple rolls, and opposed rolls where only the offensive side rolls and
// a 1D4 decides what a critical or a fumble does to both sides. The rules
// are the system file core/systems/engine/files/rq.yaml, run by the
// engine; this package names its inputs and results in Go.
package rq

import (
	"math/big"

	"zaria/core/systems/engine"
)

// Difficulty is a row of the difficulty table.
type Difficulty struct {
	Key   string // catalog suffix: "rq.diff.<Key>"
	Value int
}

// Difficulties is the difficulty table (docs/rq.md#difficulties), in the
// rules' order: the named values of the file's input diff.
var Difficulties = func() []Difficulty {
	var out []Difficulty
	for _, in := range system().File.Inputs {
		if in.Key == "diff" {
			for _, n := range in.Named {
				out = append(out, Difficulty{Key: n.Key, Value: n.Value})
			}
		}
	}
	return out
}()

// system is the shipped file, loaded once (its vectors held).
func system() *engine.System { return engine.MustBuiltin("rq") }

// Rules are RQ's rolls by one file: the shipped one (Book) or a chat's
// fork of it (core/systems/fork).
type Rules struct{ s *engine.System }

// Of is the rules of file s; nil is the book.
func Of(s *engine.System) Rules { return Rules{s: engine.BookOr(s, "rq")} }

// Book is the shipped file's rules.
func Book() Rules { return Of(nil) }

// File is the file the rules roll by: the shipped one or a chat's fork.
func (r Rules) File() *engine.System { return r.s }

// Renamed is outcome's name in lang by the rules' file, and whether it
// differs from the book's (a fork renamed it).
func (r Rules) Renamed(outcome, lang string) (string, bool) { return r.s.Renamed(outcome, lang) }

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

// simple and opposed are a chance as the file's inputs: the chance c is
// 50 + skill, and 50 + offensive − 0.
func simple(c int) engine.Params { return engine.Params{Inputs: map[string]int{"skill": c - 50}} }
func opposed(c int) engine.Params {
	return engine.Params{Inputs: map[string]int{"off": c - 50, "def": 0}}
}

// Odds are the exact chances of a roll.
type Odds struct {
	Success, Critical, Fumble *big.Rat
}

func oddsOf(m map[string]*big.Rat) Odds {
	get := func(k string) *big.Rat { // a copy: m is the engine's, shared
		if p := m[k]; p != nil {
			return new(big.Rat).Set(p)
		}
		return new(big.Rat)
	}
	return Odds{Success: new(big.Rat).Add(get(Critical), get(Success)), Critical: get(Critical), Fumble: get(Fumble)}
}

// Chances are the exact chances of a simple roll at chance c.
func (r Rules) Chances(c int) Odds {
	od, err := r.s.Outcomes("roll", simple(c))
	if err != nil {
		panic(err)
	}
	return oddsOf(od.Outcomes)
}

// OppChance is the opposed chance: 50 + offensive − defensive.
func OppChance(off, def int) int { return 50 + off - def }

// OppChances are the exact chances of an opposed roll: that the offensive
// side succeeds, and of its critical and fumble rolls (before the 1D4).
func (r Rules) OppChances(c int) Odds {
	od, err := r.s.Outcomes("opposed", opposed(c))
	if err != nil {
		panic(err)
	}
	return oddsOf(od.Also["roll"])
}
