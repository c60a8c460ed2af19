package dungeonhack

import "math/big"

// AtLeast is the exact probability that the attack deals at least x
// damage, from the file's distribution of the damage (the chat reads only
// AbovePen and Damage; the tests read the distribution through it).
func AtLeast(a Attack, x int) *big.Rat {
	od := must(Book().File().Odds("attack", a.Params()))
	out := new(big.Rat)
	for _, t := range od.Totals {
		if ratInt(t.Total) >= x {
			out.Add(out, t.P)
		}
	}
	return out
}
