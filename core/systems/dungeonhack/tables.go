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
	Key    string // catalog suffix "dh.weapon.<Key>", also the sheet value
	Name   string // as printed in the seed
	Group  string // ligeras, una mano, dos manos, arrojadizas, puño, distancia
	DmgN   int    // number of damage dice (0: none)
	DmgS   int    // damage die sides
	Pen    int    // Penetración
	Resist int    // Resistencia usage die sides (0: none)
}

// Weapons is the weapon table (docs/dungeonhack.md#weapons), melee and
// thrown weapons then ranged weapons: the file's input "weapon" (its
// names) and its tables weapon_dice, weapon_faces, weapon_pen,
// weapon_resist and weapon_group.
var Weapons = func() []Weapon {
	s := system()
	var out []Weapon
	for _, n := range s.Named("weapon") {
		out = append(out, Weapon{Key: rowKey(n), Name: seedName(n), Group: groups[cell(s, "weapons", n.Value, 5)-1],
			DmgN: cell(s, "weapons", n.Value, 1), DmgS: cell(s, "weapons", n.Value, 2),
			Pen: cell(s, "weapons", n.Value, 3), Resist: cell(s, "weapons", n.Value, 4)})
	}
	return out
}()

// groups are the weapon table's groups, numbered from 1 in weapon_group.
var groups = []string{"ligeras", "una mano", "dos manos", "arrojadizas", "puño", "distancia"}

// rowKey is a named row's key as the catalogs and sheets spell it:
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
	Key    string // catalog suffix "dh.armour.<Key>", also the sheet value
	Name   string
	DB     int // Blindaje: number of DB
	Resist int // usage die sides (0: none)
}

// Armours is the armour table (docs/dungeonhack.md#armour), lightest
// first: the file's input "armour" and its table armours.
var Armours = func() []Armour {
	s := system()
	var out []Armour
	for _, n := range s.Named("armour") {
		out = append(out, Armour{Row: n.Value, Key: rowKey(n), Name: seedName(n),
			DB: cell(s, "armours", n.Value, 1), Resist: cell(s, "armours", n.Value, 2)})
	}
	return out
}()

// AbsorptionDB converts an old Absorción die to DB (docs/dungeonhack.md#armour):
// the file's table absorption_db.
var AbsorptionDB = func() map[int]int {
	out := map[int]int{}
	for faces := 4; faces <= 20; faces++ {
		if v, ok := system().Cell("absorption_db", faces, 0); ok {
			out[faces] = ratInt(v)
		}
	}
	return out
}()

// Sinks reports whether the armour makes its wearer sink underwater from
// round 2 (cota de anillas or heavier, rows 6–13), and Swims at Desventaja
// (armadura de bandas or heavier, rows 11–13) (docs/dungeonhack.md#underwater):
// the file's table armours.
func (a Armour) Sinks() bool            { return cell(system(), "armours", a.Row, 3) == 1 }
func (a Armour) SwimDisadvantage() bool { return cell(system(), "armours", a.Row, 4) == 1 }
