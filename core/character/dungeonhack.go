package character

import (
	"sync"

	"zaria/core/fold"
)

// Dungeon Hack equipment lives on the sheet as ordinary values. The
// Dungeon Hack commands read and write them through command.Sheets with
// these names (Spanish, as in the seed); a user may also have typed them
// in English or Greek: each group below names the same value, and a lookup
// of one finds a value stored under any other.
const (
	DHWeapon      = "arma"         // table weapon: "espada-larga"
	DHArmour      = "armadura"     // table armour: "coraza"
	DHWeaponUsage = "uso-arma"     // current usage die of the weapon: "d8", "agotado"
	DHArmourUsage = "uso-armadura" // current usage die of the armour
	DHIntact      = "db"           // intact armour dice (DB): "3"
	DHBroken      = "db-rotos"     // broken armour dice: "1"
	DHDie         = "dado-db"      // faces of the wearer's DB: "d6" or "d4"
)

// synonymGroups lists folded names that mean the same sheet value.
func synonymGroups() [][]string {
	return [][]string{
		{DHWeapon, "weapon", "οπλο"},
		{DHArmour, "armour", "armor", "πανοπλια"},
		{DHWeaponUsage, "weapon usage", "χρηση οπλου"},
		{DHArmourUsage, "armour usage", "armor usage", "χρηση πανοπλιας"},
		{DHIntact, "blindaje", "armour dice", "ζαρια πανοπλιας"},
		{DHBroken, "broken db", "σπασμενα db"},
		{DHDie, "db die", "ζαρι db"},
	}
}

// synonymTable maps each folded name of a group to the other folded names
// of its group. It is computed once: every value lookup and every value
// of an import asks it.
var synonymTable = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, g := range synonymGroups() {
		for _, k := range g {
			k = fold.Key(k)
			for _, o := range g {
				if o = fold.Key(o); o != k {
					out[k] = append(out[k], o)
				}
			}
		}
	}
	return out
})

// synonyms returns the other folded names of key's group (nil if none);
// key is folded already.
func synonyms(key string) []string { return synonymTable()[key] }
