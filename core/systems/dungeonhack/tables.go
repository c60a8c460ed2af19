package dungeonhack

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

// Weapons is the weapon table (docs/dungeonhack.md#weapons), melee and thrown weapons then ranged weapons.
var Weapons = []Weapon{
	{"cimitarra", "Cimitarra", "ligeras", 1, 6, 1, 8},
	{"clava", "Clava", "ligeras", 1, 4, 0, 4},
	{"daga", "Daga", "ligeras", 1, 4, 1, 8},
	{"espada-corta", "Espada corta", "ligeras", 1, 6, 1, 8},
	{"hacha-de-mano", "Hacha de mano", "ligeras", 1, 6, 1, 6},
	{"hoz", "Hoz", "ligeras", 1, 6, 1, 4},
	{"martillo-ligero", "Martillo ligero", "ligeras", 1, 4, 2, 6},
	{"baston", "Bastón", "una mano", 1, 6, 0, 4},
	{"espada-larga", "Espada larga", "una mano", 1, 8, 1, 8},
	{"espada-ropera", "Espada ropera", "una mano", 1, 8, 2, 6},
	{"hacha-de-batalla", "Hacha de batalla", "una mano", 1, 8, 1, 10},
	{"jabalina", "Jabalina", "una mano", 1, 6, 2, 4},
	{"lanza", "Lanza", "una mano", 1, 6, 2, 8},
	{"latigo", "Látigo", "una mano", 1, 3, 1, 10},
	{"lucero-del-alba", "Lucero del alba", "una mano", 1, 8, 2, 8},
	{"martillo-de-guerra", "Martillo de guerra", "una mano", 1, 8, 2, 10},
	{"mayal", "Mayal", "una mano", 1, 8, 3, 6},
	{"maza", "Maza", "una mano", 1, 6, 2, 6},
	{"alabarda", "Alabarda", "dos manos", 1, 10, 1, 10},
	{"espadon", "Espadón", "dos manos", 1, 12, 1, 8},
	{"gran-clava", "Gran clava", "dos manos", 1, 8, 1, 6},
	{"gran-hacha", "Gran hacha", "dos manos", 1, 12, 1, 12},
	{"guadana", "Guadaña", "dos manos", 1, 10, 1, 8},
	{"guja", "Guja", "dos manos", 1, 10, 2, 8},
	{"lanza-de-caballeria", "Lanza de caballería", "dos manos", 1, 12, 3, 6},
	{"tridente", "Tridente", "dos manos", 1, 8, 2, 8},
	{"boleadoras", "Boleadoras", "arrojadizas", 1, 4, 0, 6},
	{"bumeran", "Bumerán", "arrojadizas", 1, 4, 1, 4},
	{"cuchillo-alado", "Cuchillo alado", "arrojadizas", 1, 6, 1, 8},
	{"chakram", "Chakram", "arrojadizas", 1, 8, 1, 10},
	{"red", "Red", "arrojadizas", 1, 3, 0, 4},
	{"shuriken", "Shuriken", "arrojadizas", 1, 6, 2, 4},
	{"venda-de-batalla", "Venda de batalla", "puño", 0, 0, 0, 0},
	{"nudillos-de-hierro", "Nudillos de hierro", "puño", 1, 6, 2, 8},
	{"katar", "Katar", "puño", 1, 6, 1, 6},
	{"media-luna", "Media luna", "puño", 1, 4, 2, 10},
	{"arco-corto", "Arco corto", "distancia", 1, 6, 1, 6},
	{"arco-largo", "Arco largo", "distancia", 1, 8, 1, 6},
	{"ballesta-de-mano", "Ballesta de mano", "distancia", 1, 6, 0, 6},
	{"ballesta-ligera", "Ballesta ligera", "distancia", 1, 8, 1, 8},
	{"ballesta-pesada", "Ballesta pesada", "distancia", 1, 10, 2, 8},
	{"cerbatana", "Cerbatana", "distancia", 1, 3, 0, 4},
	{"dardo", "Dardo", "distancia", 1, 4, 0, 4},
	{"honda", "Honda", "distancia", 1, 4, 1, 6},
	{"yumi", "Yumi", "distancia", 1, 12, 2, 6},
	{"ballesta-de-repeticion", "Ballesta de repetición", "distancia", 1, 6, 1, 6},
}

// Armour is a row of the armour table (docs/dungeonhack.md#armour).
type Armour struct {
	Row    int
	Key    string // catalog suffix "dh.armour.<Key>", also the sheet value
	Name   string
	DB     int // Blindaje: number of DB
	Resist int // usage die sides (0: none)
}

// Armours is the armour table (docs/dungeonhack.md#armour), lightest first.
var Armours = []Armour{
	{1, "tela", "Armadura de tela", 1, 0},
	{2, "acolchada", "Armadura acolchada", 1, 4},
	{3, "cuero", "Armadura de cuero", 1, 6},
	{4, "pieles", "Armadura de pieles", 2, 6},
	{5, "cuero-tachonado", "Cuero tachonado", 2, 8},
	{6, "cota-de-anillas", "Cota de anillas", 2, 10},
	{7, "camisote-de-mallas", "Camisote de mallas", 3, 8},
	{8, "cota-de-escamas", "Cota de escamas", 3, 10},
	{9, "coraza", "Coraza", 3, 12},
	{10, "cota-de-mallas", "Cota de mallas", 4, 8},
	{11, "bandas", "Armadura de bandas", 4, 10},
	{12, "parcial-de-placas", "Armadura parcial de placas", 4, 12},
	{13, "completa-de-placas", "Armadura completa de placas", 5, 12},
}

// AbsorptionDB converts an old Absorción die to DB (docs/dungeonhack.md#armour).
var AbsorptionDB = map[int]int{4: 1, 6: 2, 8: 3, 10: 4, 12: 5, 20: 6}

// Sinks reports whether the armour makes its wearer sink underwater from
// round 2 (cota de anillas or heavier, rows 6–13), and Swims at Desventaja
// (armadura de bandas or heavier, rows 11–13) (docs/dungeonhack.md#underwater).
func (a Armour) Sinks() bool            { return a.Row >= 6 }
func (a Armour) SwimDisadvantage() bool { return a.Row >= 11 }
