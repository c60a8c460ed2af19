// Package zaria resolves the Ζαριά homebrew (docs/zaria.md): stat + skill +
// a 1..10 value from two d10 (player characters) or one d10 (NPCs) against a
// DC from 5 to 30, and opposed rolls where the active side wins ties.
//
// Totals are kept doubled (in halves) so that the media_exacta reading, which
// keeps a half point, needs no floating point.
package zaria

import (
	"math/big"

	"zaria/core/dice"
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
	DC  int
	Key string // catalog suffix: "zaria.dc.<Key>"
}

// NamedDCs are the seed's tiers, one mean deviation (5) apart.
var NamedDCs = []NamedDC{
	{5, "ridiculous"}, {10, "easy"}, {15, "medium"}, {20, "tough"}, {25, "troublesome"}, {30, "insurmountable"},
}

// Tier returns the highest named tier not above dc and whether dc is exactly
// that tier (DC 12 shows "ανάμεσα σε Εύκολο και Μέτριο").
func Tier(dc int) (NamedDC, bool) {
	t := NamedDCs[0]
	for _, n := range NamedDCs {
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

// Rules are a chat's house rules for the Ζαριά.
type Rules struct {
	Mode     Mode
	NPCEpics bool // a natural 1 / 10 on an NPC's d10 is epic
}

// Side is one roller: stat+skill and whether it rolls as an NPC (1d10).
type Side struct {
	Mod int
	NPC bool
}

// Roll is one side's dice and total.
type Roll struct {
	Dice   []int // two d10 (PC) or one d10 (NPC), as rolled
	Z2     int   // the Ζαριά, doubled
	Total2 int   // Mod + Ζαριά, doubled
	Epic   int   // -1 epic fail, +1 epic win, 0 none
}

// value turns the dice of a side into the doubled Ζαριά and the epic flag.
func (r Rules) value(s Side, d []int) (z2, epic int) {
	if s.NPC {
		z2 = 2 * d[0]
		if r.NPCEpics {
			switch d[0] {
			case 1:
				epic = -1
			case 10:
				epic = 1
			}
		}
		return z2, epic
	}
	a, b := d[0], d[1]
	switch r.Mode {
	case Exact:
		z2 = a + b
	case High:
		z2 = 2 * ((a + b + 1) / 2)
	default:
		z2 = 2 * ((a + b) / 2)
	}
	switch {
	case a == 1 && b == 1:
		epic = -1
	case a == 10 && b == 10:
		epic = 1
	}
	return z2, epic
}

// RollSide rolls the dice of one side: one d10 for an NPC, two for a PC.
func (r Rules) RollSide(src dice.Source, s Side) Roll {
	n := 2
	if s.NPC {
		n = 1
	}
	d := make([]int, n)
	for i := range d {
		d[i] = src.IntN(10) + 1
	}
	z2, epic := r.value(s, d)
	return Roll{Dice: d, Z2: z2, Total2: 2*s.Mod + z2, Epic: epic}
}

// Verdict classifies a roll against a DC as docs/zaria.md's table does.
// margin2 is (total − DC) doubled; level counts the steps of 5 above the DC
// for the successes, an epic win included: it is a success that goes better
// than hoped, so it keeps the levels its margin earns.
func Verdict(r Roll, dc int) (outcome string, margin2, level int) {
	margin2 = r.Total2 - 2*dc
	switch {
	case r.Epic < 0:
		return EpicFail, margin2, 0
	case r.Epic > 0:
		return EpicWin, margin2, max(margin2, 0) / 10
	case margin2 >= 10:
		return MajorWin, margin2, margin2 / 10
	case margin2 > 0:
		return Success, margin2, 0
	case margin2 == 0:
		return Marginal, margin2, 0
	case margin2 > -10:
		return Failure, margin2, 0
	default:
		return MajorFail, margin2, 0
	}
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
	roll := r.RollSide(src, s)
	o, m2, lvl := Verdict(roll, dc)
	return Result{Roll: roll, DC: dc, Margin2: m2, Outcome: o, Level: lvl}
}

// outcomes enumerates every equally likely roll of a side (100 for a PC,
// 10 for an NPC) as (doubled total, epic).
func (r Rules) outcomes(s Side) [][2]int {
	var out [][2]int
	if s.NPC {
		for a := 1; a <= 10; a++ {
			z2, e := r.value(s, []int{a})
			out = append(out, [2]int{2*s.Mod + z2, e})
		}
		return out
	}
	d := []int{0, 0}
	for a := 1; a <= 10; a++ {
		for b := 1; b <= 10; b++ {
			d[0], d[1] = a, b
			z2, e := r.value(s, d)
			out = append(out, [2]int{2*s.Mod + z2, e})
		}
	}
	return out
}

// Chance is the exact probability that s succeeds against dc, epics included.
func (r Rules) Chance(s Side, dc int) *big.Rat {
	all := r.outcomes(s)
	ok := 0
	for _, o := range all {
		out, _, _ := Verdict(Roll{Total2: o[0], Epic: o[1]}, dc)
		if Succeeded(out) {
			ok++
		}
	}
	return big.NewRat(int64(ok), int64(len(all)))
}

// activeWins decides an opposed roll: epics first, then totals, and the
// active side wins ties (docs/zaria.md#opposed-rolls).
func activeWins(ta, ea, tp, ep int) bool {
	if ea != ep {
		return ea > ep
	}
	if ea != 0 {
		return true // the same epic on both sides: a tie, the active side wins
	}
	return ta >= tp
}

// Opposed is an opposed roll.
type Opposed struct {
	Active, Passive Roll
	ActiveWins      bool
}

// Oppose rolls the active side's dice, then the passive side's.
func (r Rules) Oppose(src dice.Source, act, pas Side) Opposed {
	a := r.RollSide(src, act)
	p := r.RollSide(src, pas)
	return Opposed{Active: a, Passive: p, ActiveWins: activeWins(a.Total2, a.Epic, p.Total2, p.Epic)}
}

// OpposedChance is the exact probability that the active side wins.
func (r Rules) OpposedChance(act, pas Side) *big.Rat {
	as, ps := r.outcomes(act), r.outcomes(pas)
	wins := 0
	for _, a := range as {
		for _, p := range ps {
			if activeWins(a[0], a[1], p[0], p[1]) {
				wins++
			}
		}
	}
	return big.NewRat(int64(wins), int64(len(as)*len(ps)))
}
