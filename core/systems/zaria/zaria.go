// Package zaria is the Ζαριά homebrew (docs/zaria.md) as the chat command
// uses it: stat + skill + a 1..10 value from two d10 (player characters) or
// one d10 (NPCs) against a DC from 5 to 30, and opposed rolls where the
// active side wins ties. The rules themselves are the system file
// core/systems/engine/files/zaria.yaml, run by the engine; this package
// only names its inputs and results in Go.
//
// Totals are kept doubled (in halves) so that the media_exacta reading, which
// keeps a half point, needs no floating point.
package zaria

import (
	"math/big"

	"zaria/core/systems/engine"
)

// Mode is how two d10 become the Ζαριά (the chat option "zaria").
type Mode int

const (
	Low   Mode = iota // media_baja: floor((a+b)/2), the default
	Exact             // media_exacta: (a+b)/2 with the half kept
	High              // media_alta: ceil((a+b)/2)
)

// Limits of the inputs (docs/zaria.md#limits).
const (
	MinDC, MaxDC       = 5, 30
	MinStat, MaxStat   = 1, 10
	MinSkill, MaxSkill = 0, 10
	// MinMod and MaxMod bound stat+skill given as one number (an NPC's 6).
	MinMod, MaxMod = 1, 20
)

// NamedDC is one of the seed's named difficulties.
type NamedDC struct {
	DC    int
	Key   string   // catalog suffix: "zaria.dc.<Key>"
	Words []string // its names in the file and other spellings a user types
}

// NamedDCs are the seed's tiers, one mean deviation (5) apart: the named
// values of the file's input dc.
var NamedDCs = namedDCs(system())

func namedDCs(s *engine.System) []NamedDC {
	var out []NamedDC
	for _, in := range s.File.Inputs {
		if in.Key == "dc" {
			for _, n := range in.Named {
				words := append([]string{n.Names.EL, n.Names.EN}, n.Keywords...)
				out = append(out, NamedDC{DC: n.Value, Key: n.Key, Words: words})
			}
		}
	}
	return out
}

// system is the shipped file, loaded once (its vectors held).
func system() *engine.System { return engine.MustBuiltin("zaria") }

// Named are the named DCs of r's file, in order (a chat's fork may move
// them).
func (r Rules) Named() []NamedDC { return namedDCs(r.file()) }

// Tier returns r's highest named tier not above dc and whether dc is
// exactly that tier (DC 12 shows "ανάμεσα σε Εύκολο και Μέτριο").
func (r Rules) Tier(dc int) (NamedDC, bool) {
	ns := r.Named()
	t := ns[0]
	for _, n := range ns {
		if n.DC <= dc {
			t = n
		}
	}
	return t, t.DC == dc
}

// Outcome keys, as --json reports them (docs/zaria.md#outcomes).
const (
	EpicFail  = "epic_fail"
	EpicWin   = "epic_win"
	MajorWin  = "major_success"
	Success   = "success"
	Marginal  = "marginal"
	Failure   = "failure"
	MajorFail = "major_failure"
)

// Rules are a chat's house rules for the Ζαριά, played by one file: the
// shipped one, or a chat's fork of it (core/systems/fork), whose bands,
// epic dice or outcome names may differ.
type Rules struct {
	Mode     Mode
	NPCEpics bool           // a natural 1 / 10 on an NPC's d10 is epic
	s        *engine.System // the file; nil is the shipped one
}

// On is r played by file s (a chat's fork); nil is the shipped file.
func (r Rules) On(s *engine.System) Rules {
	r.s = s
	return r
}

// file is the system r rolls by.
func (r Rules) file() *engine.System {
	if r.s == nil {
		return system()
	}
	return r.s
}

func (r Rules) rules() map[string]string {
	m := map[string]string{"zaria": "media_baja", "zaria_pnj_epico": "no"}
	switch r.Mode {
	case Exact:
		m["zaria"] = "media_exacta"
	case High:
		m["zaria"] = "media_alta"
	}
	if r.NPCEpics {
		m["zaria_pnj_epico"] = "si"
	}
	return m
}

// Side is one roller: stat+skill and whether it rolls as an NPC (1d10).
type Side struct {
	Mod int
	NPC bool
}

func (s Side) inputs(dc int) map[string]int {
	m := map[string]int{"mod": s.Mod, "npc": 0}
	if s.NPC {
		m["npc"] = 1
	}
	if dc > 0 {
		m["dc"] = dc
	}
	return m
}

// Chance is the exact probability that s succeeds against dc, epics included.
func (r Rules) Chance(s Side, dc int) *big.Rat {
	p, _, err := r.file().Chance("check", engine.Params{Inputs: s.inputs(dc), Rules: r.rules()})
	if err != nil {
		panic(err)
	}
	return p
}

// Odds are the exact chances of each outcome of s against dc (dc 0: none,
// only the totals' distribution).
func (r Rules) Odds(s Side, dc int) *engine.Odds {
	od, err := r.file().Odds("check", engine.Params{Inputs: s.inputs(dc), Rules: r.rules()})
	if err != nil {
		panic(err)
	}
	return od
}

// OpposedChance is the exact probability that the active side wins.
func (r Rules) OpposedChance(act, pas Side) *big.Rat {
	p, _, err := r.file().Chance("opposed", engine.Params{Inputs: act.inputs(0), Passive: pas.inputs(0), Rules: r.rules()})
	if err != nil {
		panic(err)
	}
	return p
}
