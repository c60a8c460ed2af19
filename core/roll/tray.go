package roll

// Tray is what a page's dice tray offers: the dice, how many of one at
// most, and the roll the advantage words turn into 2d20kh1 or 2d20kl1
// (advantage.go: a roll of exactly one d20). A page draws it and checks
// what it sends against it; the core checks the command again.
type Tray struct {
	Dice               []int
	MaxCount           int
	AdvCount, AdvSides int
}

// DiceTray is the tray's dice: the standard polyhedra and the d100.
func DiceTray() Tray {
	return Tray{Dice: []int{4, 6, 8, 10, 12, 20, 100}, MaxCount: 20, AdvCount: 1, AdvSides: 20}
}
