// Package dungeonhack is El Naufragio's Dungeon Hack house rules
// (docs/dungeonhack.md) as the chat command uses them: weapon Penetración
// against armour dice (DB), breaking a DB, the Resistencia usage die,
// repair, monster penetration, and the mounted and underwater rules. The
// rules and tables are the system file core/systems/engine/files/dh.yaml,
// run by the engine; this package names its inputs and results in Go.
package dungeonhack

import (
	"math/big"
	"strconv"

	"zaria/core/dice"
	"zaria/core/systems/engine"
)

// Limits of what a user may ask for.
const (
	MaxDamageDice = 10
	MaxDamageSide = 20
	MaxDB         = 10 // DB dice rolled at once
	MaxStatic     = 20
	MaxBonus      = 50
	MaxPen        = 20
	MinLevel      = 1
	MaxLevel      = 100
	MaxRound      = 1000
)

// Absorb is how intact DB absorb (the chat option dh_blindaje).
type Absorb int

const (
	Sum     Absorb = iota // suma: every DB rolled, the total subtracted (default)
	Highest               // mayor: only the highest DB rolled
)

// PenMode rounds a monster's level / 6 (the chat option dh_pen).
type PenMode int

const (
	Round PenMode = iota // redondeo: round half up (default)
	Ceil                 // techo
)

// MonsterPen is max(0, rhu(level/6) − 1), or with the ceiling (the
// file's check "pen").
func (r Rules) MonsterPen(level int, m PenMode) int {
	rule := "redondeo"
	if m == Ceil {
		rule = "techo"
	}
	v, ok := r.s.Value("pen", engine.Params{Inputs: map[string]int{"level": level}, Rules: map[string]string{"dh_pen": rule}}, "monster_pen")
	if !ok {
		panic("dh: no Penetración for level " + strconv.Itoa(level))
	}
	return ratInt(v)
}

// Attack is a hit to resolve through the damage pipeline (docs/dungeonhack.md#damage).
type Attack struct {
	DmgN, DmgS int // damage dice
	Bonus      int // added to the raw damage
	Pen        int
	DB         int // defender's intact DB
	DBFaces    int // d6 for melee classes, d4 for casters
	Static     int // static absorption (shield…)
	Mode       Absorb
}

// AttackResult is the pipeline's every step.
type AttackResult struct {
	Damage []int
	Raw    int
	DB     []int
	Absorb int
	Final  int
	// Res is the roll of the file's check attack, from Params: what its
	// reply layout writes.
	Res    *engine.Result
	Params engine.Params
}

// Rules are Dungeon Hack's rules and tables by one file: the shipped one
// (Book, core/systems/engine/files/dh.yaml) or a chat's fork of it
// (core/systems/fork), whose table cells may differ: a weapon's damage
// die, an armour's DB.
type Rules struct{ s *engine.System }

// Of is the rules of file s; nil is the book.
func Of(s *engine.System) Rules { return Rules{s: engine.BookOr(s, "dh")} }

// Book is the shipped file's rules.
func Book() Rules { return Of(nil) }

// File is the file the rules play by: the shipped one or a chat's fork.
func (r Rules) File() *engine.System { return r.s }

// Params are the attack as the file's check "attack" reads it.
func (a Attack) Params() engine.Params {
	faces := a.DBFaces
	if faces == 0 { // no armour: no DB die rolled
		faces = 6
	}
	rule := "suma"
	if a.Mode == Highest {
		rule = "mayor"
	}
	return engine.Params{
		Inputs: map[string]int{"dmg_n": a.DmgN, "dmg_s": a.DmgS, "bonus": a.Bonus, "pen": a.Pen,
			"db": a.DB, "db_die": faces, "static": a.Static},
		Rules: map[string]string{"dh_blindaje": rule},
	}
}

// must is a check's result whose inputs the chat command already checked.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func ratInt(r *big.Rat) int { return int(r.Num().Int64()) }

// ResolveAttack rolls the damage dice, then one die per intact DB.
func (r Rules) ResolveAttack(src dice.Source, a Attack) AttackResult {
	pr := a.Params()
	res := must(r.s.Roll("attack", pr, src))
	ar := AttackResult{Raw: ratInt(res.Values["raw"]), Absorb: ratInt(res.Values["absorb"]), Final: ratInt(res.Total), Res: res, Params: pr}
	ar.Damage = append([]int(nil), res.Dice[:a.DmgN]...)
	ar.DB = append([]int(nil), res.Dice[a.DmgN:]...)
	return ar
}

// Damage is the exact distribution of the attack's damage over every roll
// of its dice: p[i] is the chance that it deals lo+i, from the lowest
// damage it can deal (lo) to the highest.
func (r Rules) Damage(a Attack) (lo int, p []*big.Rat) {
	od := must(r.s.Odds("attack", a.Params()))
	if len(od.Totals) == 0 {
		return 0, nil
	}
	lo = ratInt(od.Totals[0].Total)
	for _, t := range od.Totals {
		for lo+len(p) < ratInt(t.Total) {
			p = append(p, new(big.Rat))
		}
		p = append(p, t.P)
	}
	return lo, p
}

// AbovePen is the exact probability that the attack deals more than its
// Penetración, i.e. that the armour does not stop it down to the minimum.
func (r Rules) AbovePen(a Attack) *big.Rat {
	p, _, err := r.s.Chance("attack", a.Params())
	return must(p, err)
}

// BreakDamage is what a PC takes after breaking a DB: the Penetración, if
// any (the file's check "break").
func (r Rules) BreakDamage(pen int) int {
	return r.value("break", map[string]int{"pen": pen}, "taken")
}

// value is a let of a check that rolls no dice.
func (r Rules) value(check string, in map[string]int, let string) int {
	v, ok := r.s.Value(check, engine.Params{Inputs: in}, let)
	if !ok {
		panic("dh: no " + let + " of " + check)
	}
	return ratInt(v)
}

// UsageChain is the usage die's steps, largest first: the book's table
// usage_next followed from its largest die.
var UsageChain = func() []int {
	var out []int
	for d := 20; d > 0; {
		out = append(out, d)
		d = Book().StepDown(d)
	}
	return out
}()

// IsUsageDie reports whether sides is a step of the chain.
func (r Rules) IsUsageDie(sides int) bool {
	_, ok := r.s.Cell("usage_next", sides, 0)
	return ok
}

// StepDown returns the next smaller usage die, or 0 when exhausted (the
// file's table usage_next).
func (r Rules) StepDown(sides int) int {
	v, ok := r.s.Cell("usage_next", sides, 0)
	if !ok {
		return 0
	}
	return ratInt(v)
}

// Usage is one usage-die check.
type Usage struct {
	Die, Roll, After int // After 0 = exhausted
	// Writes are what the file's check writes on the sheet value the
	// die was read from (its sets: "d8", "agotado").
	Writes []engine.SheetWrite
	Res    *engine.Result // the roll, for the file's layout
}

// UsageCheck rolls the usage die: 1 or 2 steps it down (the file's
// check "usage").
func (r Rules) UsageCheck(src dice.Source, sides int) Usage {
	res := must(r.s.Roll("usage", engine.Params{Inputs: map[string]int{"die": sides}}, src))
	return Usage{Die: sides, Roll: res.Dice[0], After: ratInt(res.Values["after"]), Writes: r.s.WritesFor(res), Res: res}
}

// UsageHolds is the exact chance that a usage die does not step down.
func (r Rules) UsageHolds(sides int) *big.Rat {
	p, _, err := r.s.Chance("usage", engine.Params{Inputs: map[string]int{"die": sides}})
	return must(p, err)
}

// Repair is an attempt to repair broken DB (docs/dungeonhack.md#repair),
// as the file's check "repair" rolled and counted it.
type Repair struct {
	Score     int   // the armour's full Blindaje before the repair (intact + broken)
	Broken    int   // broken DB to repair
	Faces     int   // the wearer's DB die
	Dice      []int // one per broken DB (magic armour: the 1d4 of days)
	Restored  int
	Lost      int
	NewMax    int  // the armour's Blindaje after the repair
	Days      int  // magic armour: the days of work, no DB die rolled
	Destroyed bool // no intact DB: the armour is destroyed, nothing rolled
	Hopeless  bool // the die can never beat the score: nothing rolled
	Res       *engine.Result
}

// RepairParams are the repair check's inputs: the DB intact and broken and
// the DB die; the bot adds the armour (its row) and magic for the reply.
func RepairParams(intact, broken, faces int) engine.Params {
	return engine.Params{Inputs: map[string]int{"intact": intact, "broken": broken, "db_die": faces}}
}

// RepairWith rolls the file's check "repair" with pr: one DB die per
// broken DB, a die above the full score restoring it, any other losing
// it forever (RepairParams and
// the reply's armour and magic): magic armour rolls 1d4 days of work
// instead of the DB dice.
func (r Rules) RepairWith(src dice.Source, pr engine.Params) Repair {
	res := must(r.s.Roll("repair", pr, src))
	return Repair{
		Score: ratInt(res.Values["score"]), Broken: pr.Inputs["broken"], Faces: pr.Inputs["db_die"], Dice: res.Dice,
		Restored: ratInt(res.Values["restored"]), Lost: ratInt(res.Values["lost"]), NewMax: ratInt(res.Values["new_max"]),
		Days:      ratInt(res.Values["work_days"]),
		Destroyed: res.Outcome == "destroyed", Hopeless: res.Outcome == "impossible", Res: res,
	}
}

// RepairAll is the exact chance that every broken DB is restored.
func (r Rules) RepairAll(intact, broken, faces int) *big.Rat {
	p, _, err := r.s.Chance("repair", RepairParams(intact, broken, faces))
	return must(p, err)
}

// Asphyxia: after 10 rounds underwater a Constitución roll each round, at
// −1 per round after the 11th. needRoll is false for rounds 1–10 (the
// file's check "drown").
func (r Rules) Asphyxia(round int) (needRoll bool, penalty int) {
	in := map[string]int{"round": round}
	return r.value("drown", in, "roll_needed") == 1, r.value("drown", in, "penalty")
}
