package dungeonhack

// Dungeon Hack equipment lives on a character sheet as ordinary values.
// The Dungeon Hack commands read and write them with these names (Spanish,
// as in the seed); a user may also have typed them in English or Greek:
// SheetSynonyms lists, for each, the names that mean the same value, and a
// lookup of one finds a value stored under any other. A value name is one
// word and "-" folds to a space, so "db-rotos" is also "db rotos".
const (
	SheetWeapon      = "arma"         // table weapon: "espada-larga"
	SheetArmour      = "armadura"     // table armour: "coraza"
	SheetWeaponUsage = "uso-arma"     // current usage die of the weapon: "d8", "agotado"
	SheetArmourUsage = "uso-armadura" // current usage die of the armour
	SheetIntact      = "db"           // intact armour dice (DB): "3"
	SheetBroken      = "db-rotos"     // broken armour dice: "1"
	SheetDie         = "dado-db"      // faces of the wearer's DB: "d6" or "d4"
)

// SheetSynonyms lists the groups of names that mean one sheet value, the
// Sheet constant first.
func SheetSynonyms() [][]string {
	return [][]string{
		{SheetWeapon, "weapon", "οπλο"},
		{SheetArmour, "armour", "armor", "πανοπλια"},
		{SheetWeaponUsage, "weapon usage", "χρηση οπλου"},
		{SheetArmourUsage, "armour usage", "armor usage", "χρηση πανοπλιας"},
		{SheetIntact, "blindaje", "armour dice", "ζαρια πανοπλιας", "ζθ", "ζαρια θωρακισης"},
		{SheetBroken, "broken db", "σπασμενα db", "σπασμενα ζθ"},
		{SheetDie, "db die", "ζαρι db", "ζαρι ζθ"},
	}
}
