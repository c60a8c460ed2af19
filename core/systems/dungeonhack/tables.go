package dungeonhack

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/systems/engine"
)

// Weapon is a row of the weapon table (docs/dungeonhack.md#weapons). A zero die means "–".
type Weapon struct {
	Key    string       // the file's key with hyphens, also the sheet value
	Names  engine.Names // in es, el and en (the file's input "weapon")
	Name   string       // as printed in the seed
	Group  string       // ligeras, una mano, dos manos, arrojadizas, puño, distancia
	DmgN   int          // number of damage dice (0: none)
	DmgS   int          // damage die sides
	Pen    int          // Penetración
	Resist int          // Resistencia usage die sides (0: none)
}

// Weapons is the weapon table (docs/dungeonhack.md#weapons), melee and
// thrown weapons then ranged weapons: the file's input "weapon" (its
// names) and its table weapons (dice, faces, Penetración, Resistencia,
// group).
func (r Rules) Weapons() []Weapon {
	s := r.s
	var out []Weapon
	for _, n := range s.Named("weapon") {
		out = append(out, Weapon{Key: rowKey(n), Names: n.Names, Name: seedName(n), Group: groups[cell(s, "weapons", n.Value, 5)-1],
			DmgN: cell(s, "weapons", n.Value, 1), DmgS: cell(s, "weapons", n.Value, 2),
			Pen: cell(s, "weapons", n.Value, 3), Resist: cell(s, "weapons", n.Value, 4)})
	}
	return out
}

// groups are the weapon table's groups, numbered from 1 in weapon_group.
var groups = []string{"ligeras", "una mano", "dos manos", "arrojadizas", "puño", "distancia"}

// rowKey is a named row's key as sheets spell it:
// "espada-larga" (the file's keys take _).
func rowKey(n engine.NamedValue) string { return strings.ReplaceAll(n.Key, "_", "-") }

// seedName is a row's name as printed in the seed: its second keyword
// when the seed's differs from the Spanish name, else the Spanish name
// capitalised.
func seedName(n engine.NamedValue) string {
	if len(n.Keywords) > 1 {
		return n.Keywords[1]
	}
	r, size := utf8.DecodeRuneInString(n.Names.ES)
	return string(unicode.ToUpper(r)) + n.Names.ES[size:]
}

// cell is a table's number at row and column.
func cell(s *engine.System, table string, row, col int) int {
	v, ok := s.Cell(table, row, col)
	if !ok {
		panic("dh: " + table + " has no cell " + strconv.Itoa(row) + ", " + strconv.Itoa(col))
	}
	return ratInt(v)
}

// Armour is a row of the armour table (docs/dungeonhack.md#armour).
type Armour struct {
	Row    int
	Key    string       // the file's key with hyphens, also the sheet value
	Names  engine.Names // in es, el and en (the file's input "armour")
	Name   string
	DB     int // Blindaje: number of DB
	Resist int // usage die sides (0: none)
	// Sinks: its wearer sinks underwater from round 2 (cota de anillas or
	// heavier); SwimDisadvantage: swims at Desventaja (armadura de bandas
	// or heavier) (docs/dungeonhack.md#underwater).
	Sinks, SwimDisadvantage bool
}

// Armours is the armour table (docs/dungeonhack.md#armour), lightest
// first: the file's input "armour" and its table armours.
func (r Rules) Armours() []Armour {
	s := r.s
	var out []Armour
	for _, n := range s.Named("armour") {
		out = append(out, Armour{Row: n.Value, Key: rowKey(n), Names: n.Names, Name: seedName(n),
			DB: cell(s, "armours", n.Value, 1), Resist: cell(s, "armours", n.Value, 2),
			Sinks: cell(s, "armours", n.Value, 3) == 1, SwimDisadvantage: cell(s, "armours", n.Value, 4) == 1})
	}
	return out
}
