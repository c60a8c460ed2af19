// Package daegon is Daegon's skill tests (docs/daegon.md) as the chat
// command uses them: two d10 read as a percentage roll, 01..100 with
// 00 = 100 (or 00..99 under the house rule daegon_00 = cero), against the
// percentage table PCT[skill][difficulty], levels of success over the
// harder columns, and opposed tests through the comparison table where the
// passive side wins ties. The rules and tables are the system file
// core/systems/engine/files/daegon.yaml, run by the engine; this package
// names its inputs and results in Go.
package daegon

import (
	"math/big"

	"zaria/core/systems/engine"
)

// Ranges of the tables.
const (
	MinNH, MaxNH = 1, 15
	MinD, MaxD   = 1, 7
)

// Impossible marks a "-" cell of PCT.
const Impossible = 0

// system is the shipped file, loaded once (its vectors held).
func system() *engine.System { return engine.MustBuiltin("daegon") }

// Rules are Daegon's tests by one file: the shipped one (Book) or a
// chat's fork of it (core/systems/fork), whose table cells may differ.
type Rules struct{ s *engine.System }

// Of is the rules of file s; nil is the book.
func Of(s *engine.System) Rules { return Rules{s: engine.BookOr(s, "daegon")} }

// Book is the shipped file's rules.
func Book() Rules { return Of(nil) }

// File is the file the rules roll by: the shipped one or a chat's fork.
func (r Rules) File() *engine.System { return r.s }

// PCT is the file's percentage table, PCT[NH-1][D-1] in percent; 0 is "-".
var PCT = func() (t [MaxNH][MaxD]int) {
	for nh := range MaxNH {
		for d := range MaxD {
			if v, ok := system().Cell("pct", nh+1, d+1); ok {
				t[nh][d] = int(v.Num().Int64())
			}
		}
	}
	return t
}()

// CMP is the file's comparison table: CMP[opp-1][own-1] is the difficulty
// the character with skill own rolls against when facing skill opp.
var CMP = func() (t [MaxNH][MaxNH]int) {
	for opp := range MaxNH {
		for own := range MaxNH {
			v, _ := system().Cell("cmp", opp+1, own+1)
			t[opp][own] = int(v.Num().Int64())
		}
	}
	return t
}()

// Pct returns the table value (0 = impossible). nh and d must be in range.
func Pct(nh, d int) int { return PCT[nh-1][d-1] }

// Difficulty returns the difficulty of a character with skill own facing opp.
func Difficulty(own, opp int) int { return CMP[opp-1][own-1] }

// Fail is the level of a failed test.
const Fail = -1

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

func (rd Reading) rules() map[string]string {
	if rd == Zero {
		return map[string]string{"daegon_00": "cero"}
	}
	return map[string]string{"daegon_00": "cien"}
}

// Chance is the exact chance of success: p/100 under Hundred, (p+1)/100
// (at most 1) under Zero.
func (r Rules) Chance(nh, d int, rd Reading) *big.Rat {
	p, _, err := r.s.Chance("test", engine.Params{Inputs: map[string]int{"nh": nh, "d": d}, Rules: rd.rules()})
	if err != nil {
		panic(err)
	}
	return p
}

// Levels is the exact distribution of the level of success (−1 a
// failure) of skill nh against difficulty d, by r's file.
func (r Rules) Levels(nh, d int, rd Reading) []engine.TotalP {
	dist, err := r.s.ValueDist("test", engine.Params{Inputs: map[string]int{"nh": nh, "d": d}, Rules: rd.rules()}, "level")
	if err != nil {
		panic(err)
	}
	return dist
}

func opposedParams(act, pas int, rd Reading) engine.Params {
	return engine.Params{Inputs: map[string]int{"nh": act}, Passive: map[string]int{"nh": pas}, Rules: rd.rules()}
}

// OpposedChance is the exact probability that the active side wins.
func (r Rules) OpposedChance(act, pas int, rd Reading) *big.Rat {
	p, _, err := r.s.Chance("opposed", opposedParams(act, pas, rd))
	if err != nil {
		panic(err)
	}
	return p
}
