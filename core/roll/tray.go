package roll

// Tray is what a page's dice tray offers: the dice, how many of one at
// most, and the roll the advantage words turn into 2d20kh1 or 2d20kl1
// (advantage: a roll of exactly one d20).
type Tray struct {
	Dice               []int
	MaxCount           int
	AdvCount, AdvSides int
}

// DiceTray is the tray's dice: the standard polyhedra and the d100.
func DiceTray() Tray {
	return Tray{Dice: []int{4, 6, 8, 10, 12, 20, 100}, MaxCount: 20, AdvCount: 1, AdvSides: 20}
}

// Takes reports whether a roll of n dice of sides offers advantage.
func (t Tray) Takes(n, sides int) bool { return n == t.AdvCount && sides == t.AdvSides }

// Offers reports whether the tray rolls n dice of sides.
func (t Tray) Offers(n, sides int) bool {
	if n < 1 || n > t.MaxCount {
		return false
	}
	for _, d := range t.Dice {
		if d == sides {
			return true
		}
	}
	return false
}
