// Package dungeonhack resolves El Naufragio's Dungeon Hack house rules
// (docs/dungeonhack.md): weapon Penetración against armour dice (DB), breaking a DB,
// the Resistencia usage die, repair, monster penetration, and the mounted
// and underwater rules.
package dungeonhack

import (
	"math/big"
	"math/bits"

	"zaria/core/dice"
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

// MonsterPen is max(0, rhu(level/6) − 1), or with the ceiling.
func MonsterPen(level int, m PenMode) int {
	var q int
	if m == Ceil {
		q = (level + 5) / 6
	} else {
		q = (2*level + 6) / 12 // floor(level/6 + 1/2)
	}
	return max(0, q-1)
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
}

// absorb totals the DB dice in the chosen mode.
func absorb(db []int, m Absorb) int {
	s := 0
	for _, d := range db {
		if m == Highest {
			s = max(s, d)
		} else {
			s += d
		}
	}
	return s
}

// ResolveAttack rolls the damage dice, then one die per intact DB.
func ResolveAttack(src dice.Source, a Attack) AttackResult {
	var r AttackResult
	for i := 0; i < a.DmgN; i++ {
		d := src.IntN(a.DmgS) + 1
		r.Damage = append(r.Damage, d)
		r.Raw += d
	}
	r.Raw += a.Bonus
	for i := 0; i < a.DB; i++ {
		r.DB = append(r.DB, src.IntN(a.DBFaces)+1)
	}
	r.Absorb = absorb(r.DB, a.Mode) + a.Static
	r.Final = a.final(r.Raw, r.Absorb)
	return r
}

// final is the damage of a hit whose dice and modifiers came to raw and
// whose armour absorbed absorb: never below the Penetración, the minimum
// damage after armour, nor below 0 (docs/dungeonhack.md#damage). The roll
// (ResolveAttack) and its odds (Damage) both end here.
func (a Attack) final(raw, absorb int) int { return max(a.Pen, raw-absorb, 0) }

// sumCounts returns counts[x] = ways n dice of s sides sum to x.
func sumCounts(n, s int) []uint64 {
	c := []uint64{1}
	for i := 0; i < n; i++ {
		next := make([]uint64, len(c)+s)
		for x, k := range c {
			if k == 0 {
				continue
			}
			for f := 1; f <= s; f++ {
				next[x+f] += k
			}
		}
		c = next
	}
	return c
}

// maxCounts returns counts[x] = ways the highest of n dice of s sides is x
// (counts[0] = 1 when n = 0).
func maxCounts(n, s int) []uint64 {
	if n == 0 {
		return []uint64{1}
	}
	c := make([]uint64, s+1)
	pow := func(b int) uint64 {
		r := uint64(1)
		for i := 0; i < n; i++ {
			r *= uint64(b)
		}
		return r
	}
	for x := 1; x <= s; x++ {
		c[x] = pow(x) - pow(x-1)
	}
	return c
}

// u128 is a count of equally likely rolls: the largest attack allowed
// has 20¹⁰ × 12¹⁰ ≈ 6·10²³ of them, more than a uint64 holds.
type u128 struct{ hi, lo uint64 }

// addMul adds a × b.
func (u *u128) addMul(a, b uint64) {
	h, l := bits.Mul64(a, b)
	u.add(u128{h, l})
}

// add adds v.
func (u *u128) add(v u128) {
	var carry uint64
	u.lo, carry = bits.Add64(u.lo, v.lo, 0)
	u.hi += v.hi + carry
}

func (u u128) big() *big.Int {
	n := new(big.Int).Lsh(new(big.Int).SetUint64(u.hi), 64)
	return n.Or(n, new(big.Int).SetUint64(u.lo))
}

// damageCounts counts the rolls of the attack's damage dice and DB dice by
// the damage they deal (counts[d] rolls deal d) out of total, each roll
// resolved as ResolveAttack resolves it (final).
func damageCounts(a Attack) (counts []u128, total *big.Int) {
	raw := sumCounts(a.DmgN, a.DmgS)
	var abs []uint64
	if a.Mode == Highest {
		abs = maxCounts(a.DB, a.DBFaces)
	} else {
		abs = sumCounts(a.DB, a.DBFaces)
	}
	var totR, totA uint64
	for _, c := range raw {
		totR += c
	}
	for _, c := range abs {
		totA += c
	}
	// The highest damage: every damage die at its top, nothing absorbed.
	counts = make([]u128, max(a.Pen, len(raw)-1+a.Bonus, 0)+1)
	for r, cr := range raw {
		if cr == 0 {
			continue
		}
		for s, ca := range abs {
			if ca != 0 {
				counts[a.final(r+a.Bonus, s+a.Static)].addMul(cr, ca)
			}
		}
	}
	return counts, new(big.Int).Mul(new(big.Int).SetUint64(totR), new(big.Int).SetUint64(totA))
}

// Damage is the exact distribution of the attack's damage over every roll
// of its dice: p[i] is the chance that it deals lo+i, from the lowest
// damage it can deal (lo) to the highest.
func Damage(a Attack) (lo int, p []*big.Rat) {
	counts, total := damageCounts(a)
	hi := len(counts) - 1
	for lo < hi && counts[lo] == (u128{}) {
		lo++
	}
	for hi > lo && counts[hi] == (u128{}) {
		hi--
	}
	for _, c := range counts[lo : hi+1] {
		p = append(p, new(big.Rat).SetFrac(c.big(), total))
	}
	return lo, p
}

// AtLeast is the exact probability that the attack deals at least x damage.
func AtLeast(a Attack, x int) *big.Rat {
	counts, total := damageCounts(a)
	var ok u128
	for d := max(x, 0); d < len(counts); d++ {
		ok.add(counts[d])
	}
	return new(big.Rat).SetFrac(ok.big(), total)
}

// AbovePen is the exact probability that the attack deals more than its
// Penetración, i.e. that the armour does not stop it down to the minimum.
func AbovePen(a Attack) *big.Rat { return AtLeast(a, max(a.Pen, 0)+1) }

// BreakDamage is what a PC takes after breaking a DB: the Penetración, if any.
func BreakDamage(pen int) int { return max(0, pen) }

// UsageChain is the usage die's steps, largest first.
var UsageChain = []int{20, 12, 10, 8, 6, 4}

// IsUsageDie reports whether sides is a step of the chain.
func IsUsageDie(sides int) bool {
	for _, d := range UsageChain {
		if d == sides {
			return true
		}
	}
	return false
}

// StepDown returns the next smaller usage die, or 0 when exhausted.
func StepDown(sides int) int {
	for i, d := range UsageChain {
		if d == sides && i+1 < len(UsageChain) {
			return UsageChain[i+1]
		}
	}
	return 0
}

// Usage is one usage-die check.
type Usage struct {
	Die, Roll, After int // After 0 = exhausted
}

// UsageCheck rolls the usage die: 1 or 2 steps it down.
func UsageCheck(src dice.Source, sides int) Usage {
	u := Usage{Die: sides, Roll: src.IntN(sides) + 1, After: sides}
	if u.Roll <= 2 {
		u.After = StepDown(sides)
	}
	return u
}

// UsageHolds is the exact chance that a usage die does not step down.
func UsageHolds(sides int) *big.Rat { return big.NewRat(int64(sides-2), int64(sides)) }

// Repair is an attempt to repair broken DB (docs/dungeonhack.md#repair).
type Repair struct {
	Score     int   // the armour's full Blindaje before the repair (intact + broken)
	Broken    int   // broken DB to repair
	Faces     int   // the wearer's DB die
	Dice      []int // one per broken DB
	Restored  int
	Lost      int
	Destroyed bool // no intact DB: the armour is destroyed, nothing rolled
	Hopeless  bool // the die can never beat the score: nothing rolled
}

// NewMax is the armour's Blindaje after the repair.
func (r Repair) NewMax() int { return r.Score - r.Lost }

// RepairArmour rolls one DB die per broken DB; a die above the full score
// restores it, any other loses it forever.
func RepairArmour(src dice.Source, intact, broken, faces int) Repair {
	r := Repair{Score: intact + broken, Broken: broken, Faces: faces}
	switch {
	case intact < 1:
		r.Destroyed = true
		return r
	case faces <= r.Score:
		r.Hopeless = true
		return r
	}
	for i := 0; i < broken; i++ {
		d := src.IntN(faces) + 1
		r.Dice = append(r.Dice, d)
		if d > r.Score {
			r.Restored++
		} else {
			r.Lost++
		}
	}
	return r
}

// RepairAll is the exact chance that every broken DB is restored.
func RepairAll(intact, broken, faces int) *big.Rat {
	score := intact + broken
	if intact < 1 || faces <= score {
		return new(big.Rat)
	}
	p := big.NewRat(int64(faces-score), int64(faces))
	out := big.NewRat(1, 1)
	for i := 0; i < broken; i++ {
		out.Mul(out, p)
	}
	return out
}

// MountThreshold: a wounded rider's mount is hit on a d20 of 8 or more
// (a d20: docs/dungeonhack.md#mounted-combat).
const MountThreshold = 8

// MountCheck rolls the d20: true when the mount takes the hit.
func MountCheck(src dice.Source) (roll int, mount bool) {
	roll = src.IntN(20) + 1
	return roll, roll >= MountThreshold
}

// MountChance is 13/20.
func MountChance() *big.Rat { return big.NewRat(21-MountThreshold, 20) }

// Asphyxia: after 10 rounds underwater a Constitución roll each round, at
// −1 per round after the 11th. needRoll is false for rounds 1–10.
func Asphyxia(round int) (needRoll bool, penalty int) {
	if round <= 10 {
		return false, 0
	}
	return true, round - 11
}
