package table_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/table"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// bot is the router on a database file, as main wires it, and the chat's
// members talking to it.
type bot struct {
	*chattest.Bot
	db *sqlite.DB
}

// open builds the router on the database file at path, as main does.
func open(t testing.TB, path string) *bot {
	t.Helper()
	db := chattest.OpenDB(t, path)
	r := command.New(command.Config{DefaultLang: "es", Translator: chattest.Catalog(t), Settings: db, GMs: db, Unlimited: []string{"test"}})
	roll.Register(r)
	roll.RegisterOdds(r)
	table.Register(r, table.New(db, table.Options{}))
	general.Register(r, general.Options{Version: "test"})
	return &bot{Bot: &chattest.Bot{T: t, R: r, Chat: here, GM: gm}, db: db}
}

var (
	here = core.ChatRef{Platform: "test", ID: "-100"}
	gm   = core.User{ID: "u1", Name: "Eva"}
	ana  = core.User{ID: "u2", Name: "Ana"}
)

// say sends text as u (a GM when u is gm), with the die faces given (none:
// seeded dice).
func (b *bot) say(u core.User, text string, faces ...int) *reply.Reply {
	b.T.Helper()
	return b.Say(u, text, faces...)
}

func (b *bot) ok(u core.User, text string, faces ...int) string {
	b.T.Helper()
	return reply.PlainText(b.OK(u, text, faces...))
}

func (b *bot) fails(u core.User, text string, want ...string) string {
	b.T.Helper()
	return b.Fails(u, text, want...)
}

func has(t *testing.T, got string, want ...string) {
	t.Helper()
	chattest.Has(t, got, want...)
}

const encuentros = "/tabla crear Encuentros\n1-2 Lobos\n3-5 Bandidos ([[1d4]] de ellos)\n6 Un dragón"

// The example: a table with ranges, its dice inferred, rolled
// with its dice inside, and the row's exact chance.
func TestTableRangesInlineDiceAndChance(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	has(t, b.ok(gm, encuentros), "Encuentros", "1d6", "3 filas")
	got := b.ok(ana, "/tabla Encuentros", 4, 3)
	has(t, got, "🎲 Encuentros · 1d6", "4 → Bandidos (3 de ellos) · 50 %")
	rep := b.say(ana, "/tabla encuentros", 6)
	c := rep.Check
	if c == nil || c.Table != "Encuentros" || c.Row != "Un dragón" || *c.Total != 6 || c.ChanceExact != "1/6" || c.System != "table" {
		t.Fatalf("check %+v", c)
	}
	has(t, b.ok(ana, "/tabla Encuentros ?"), "1-2 Lobos · 33,33 %", "3-5 Bandidos ([[1d4]] de ellos) · 50 %", "6 Un dragón · 16,67 %")
	has(t, b.ok(ana, "/odds tabla Encuentros"), "📊 Encuentros · 1d6", "6 Un dragón · 16,67 %")
	has(t, b.ok(ana, "/tabla lista"), "1 tabla", "/tabla Encuentros", "1d6, 3 filas")
}

// Text lines weigh the same; 2d6 and d66 follow from the ranges or are
// given; one line with ';' works.
func TestTableWeightsAndDice(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	has(t, b.ok(gm, "/tabla crear Clima: Sol; Lluvia; Niebla"), "1d3", "3 filas")
	has(t, b.ok(ana, "/tabla Clima", 2), "2 → Lluvia · 33,33 %")
	has(t, b.ok(gm, "/tabla crear Botín 2d6: 2-6 Nada; 7-10 Monedas; 11-12 Una gema"), "2d6")
	has(t, b.ok(ana, "/tabla Botín", 6, 6), "2d6 [6, 6]", "12 → Una gema · 8,33 %")
	has(t, b.ok(ana, "/tabla Botín", 3, 4), "7 → Monedas · 50 %")
	has(t, b.ok(gm, "/tabla crear Calle\n2-7 Nada\n8-12 Algo"), "2d6")
	has(t, b.ok(gm, "/tabla crear Nombres\n11-36 Ana\n41-66 Bob"), "d66")
	has(t, b.ok(ana, "/tabla Nombres", 4, 2), "d66 [4, 2]", "42 → Bob · 50 %")
	has(t, b.ok(gm, "/tabla crear Tesoro\n01-50 Cobre\n51-95 Plata\n96-00 Oro"), "1d100")
	has(t, b.ok(ana, "/tabla Tesoro", 100), "100 → Oro · 5 %")
}

// A row naming another table rolls it, with its chance; nesting stops at
// table.MaxDepth and a loop never runs away.
func TestTableNested(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	b.ok(gm, "/tabla crear Gemas: Rubí; Zafiro")
	b.ok(gm, "/tabla crear Botín: [[1d6]] monedas; Una gema: [[Gemas]]")
	b.ok(gm, "/tabla crear Cofre: Vacío; Dentro: [[Botín]]")
	got := b.ok(ana, "/tabla Cofre", 2, 2, 1)
	has(t, got, "2 → Dentro: Una gema: Rubí · 50 %", "↳ Botín · 1d2 → 2 · 50 %", "↳ Gemas · 1d2 → 1 · 50 %")
	b.ok(gm, "/tabla crear Bucle: Otra vez [[Bucle]]; Fin")
	got = b.ok(ana, "/tabla Bucle", 1, 1, 1, 1, 1, 1)
	has(t, got, "[[Bucle]]", "más de 3 tablas")
	has(t, b.ok(gm, "/tabla crear Raro: [[Nadie]]; x"), "Raro")
	has(t, b.ok(ana, "/tabla Raro", 1), "[[Nadie]]", "No hay tabla ni dados")
}

// Gaps, overlaps and mixed rows are refused naming the line; nothing is
// saved.
func TestTableRefusedNamingTheLine(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	b.fails(gm, "/tabla crear Mala\n1-2 Lobos\n2-5 Bandidos\n6 Dragón", "línea 2", "el 2", "línea 1")
	b.fails(gm, "/tabla crear Mala\n1-2 Lobos\n4-5 Bandidos\n6 Dragón", "el 3", "1d6")
	b.fails(gm, "/tabla crear Mala\n1-2 Lobos\nBandidos\n6 Dragón", "línea 2", "Bandidos")
	b.fails(gm, "/tabla crear Mala 2d6\n1-6 Nada\n7-12 Algo", "línea 1", "2d6")
	b.fails(gm, "/tabla crear Mala\n3-5 Nada\n6-7 Algo", "de 3 a 7")
	b.fails(gm, "/tabla crear Mala 3d400\n1 a\n2 b", "3d400")
	b.fails(gm, "/tabla crear Mala: Sola", "una sola fila")
	b.fails(gm, "/tabla crear lista: a; b", "lista")
	b.fails(ana, "/tabla crear Suya: a; b", "máster")
	b.fails(ana, "/tabla Mala", "ninguna tabla «Mala»")
	if ts, _ := b.db.ListTables(context.Background(), here); len(ts) != 0 {
		t.Fatalf("%d tables saved", len(ts))
	}
}

// Edit a row, rename, delete; only GMs change tables.
func TestTableEditRenameDelete(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	b.ok(gm, encuentros)
	b.fails(ana, "/tabla editar Encuentros 6 Nada", "máster")
	has(t, b.ok(gm, "/tabla editar Encuentros 6 Dos dragones"), "fila 6: Dos dragones")
	has(t, b.ok(ana, "/tabla Encuentros", 6), "6 → Dos dragones")
	b.fails(gm, "/tabla editar Encuentros 9 Nada", "de 1 a 6")
	has(t, b.ok(gm, "/tabla renombrar Encuentros Bosque oscuro"), "«Bosque oscuro»")
	has(t, b.ok(ana, "/tabla bosque OSCURO", 1), "1 → Lobos")
	b.fails(ana, "/tabla Encuentros", "ninguna tabla «Encuentros»")
	b.fails(ana, "/tabla Bosque oscur", "¿Quisiste decir «Bosque oscuro»?")
	// With a colon the old name ends there: a new name that starts with
	// it, or with another table's name, renames the table named.
	b.ok(gm, "/tabla crear Bosque: a; b")
	has(t, b.ok(gm, "/tabla renombrar Bosque: Bosque oscuro de noche"), "«Bosque» ahora se llama «Bosque oscuro de noche»")
	has(t, b.ok(gm, "/tabla renombrar bosque oscuro de noche : Bosque"), "ahora se llama «Bosque»")
	b.fails(gm, "/tabla renombrar Bosque:", "nuevo nombre")
	b.fails(gm, "/tabla renombrar Nada: Algo", "ninguna tabla «Nada»")
	b.fails(gm, "/tabla renombrar Bosque: Bosque oscuro", "Ya hay una tabla «Bosque oscuro»")
	has(t, b.ok(gm, "/tabla borrar Bosque"), "borrada")
	b.fails(ana, "/tabla borrar Bosque oscuro", "máster")
	has(t, b.ok(gm, "/tabla borrar Bosque oscuro"), "borrada")
	has(t, b.ok(ana, "/tabla"), "no tiene tablas")
	// A secret roll never changes a table.
	b.ok(gm, encuentros)
	b.fails(gm, "/secreto /tabla borrar Encuentros")
	b.ok(ana, "/tabla Encuentros")
}

// Limits: rows, characters per row, [[…]] per row, tables per chat.
func TestTableLimits(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	rows := strings.Repeat("x;", table.MaxRows+1)
	b.fails(gm, "/tabla crear Larga: "+rows, "como mucho 100 filas", "101")
	b.fails(gm, "/tabla crear Larga: a; "+strings.Repeat("y", table.MaxRowChars+1), "línea 2", "201")
	b.fails(gm, "/tabla crear Larga: a; "+strings.Repeat("[[1d4]]", table.MaxInline+1), "línea 2")
	b.fails(gm, "/tabla crear "+strings.Repeat("n", table.MaxName+1)+": a; b", "32")
	for i := 0; i < table.MaxTables; i++ {
		b.ok(gm, "/tabla crear T"+strconv.Itoa(i)+": a; b")
	}
	b.fails(gm, "/tabla crear Otra: a; b", "50 tablas")
	// One message holds a whole table, up to table.MaxInput characters.
	b.fails(gm, "/tabla crear T1: "+strings.Repeat("z;", table.MaxInput/2), "el límite es 4000")
	b.ok(gm, "/tabla crear T7: c; d") // replacing one is not a new one
}

// The three languages, and a table surviving a restart.
func TestTableLanguagesAndRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.db")
	b := open(t, path)
	b.ok(gm, "/lang en")
	has(t, b.ok(gm, "/table create Encounters\n1-2 Wolves\n3-5 Bandits ([[1d4]] of them)\n6 A dragon"), "created", "1d6", "3 rows")
	has(t, b.ok(ana, "/table Encounters", 4, 3), "4 → Bandits (3 of them) · 50%")
	b.ok(gm, "/lang el")
	has(t, b.ok(gm, "!πίνακας δημιουργία Καιρός: Ήλιος; Βροχή; Ομίχλη"), "δημιουργήθηκε", "1d3")
	has(t, b.ok(ana, "/table Καιρός", 3), "3 → Ομίχλη · 33,33 %")
	b.fails(ana, "/table Χιόνι", "δεν έχει πίνακα")
	b.db.Close()
	b = open(t, path)
	has(t, b.ok(ana, "/table encounters", 6), "6 → A dragon")
}

// One command rolls at most table.MaxRolls tables and dice: a row naming
// five tables of five dice each stops after 20 (1 + 3×6 + the 4th table),
// saying so.
func TestTableRollsAtMostMaxRolls(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "z.db"))
	b.ok(gm, "/tabla crear Hoja: [[1d4]][[1d4]][[1d4]][[1d4]][[1d4]]; x")
	b.ok(gm, "/tabla crear Rama: [[Hoja]][[Hoja]][[Hoja]][[Hoja]][[Hoja]]; x")
	faces := make([]int, 0, 64)
	for range 64 {
		faces = append(faces, 1)
	}
	rep := b.say(ana, "/tabla Rama", faces...)
	got := reply.PlainText(rep)
	if rep.Error || !strings.Contains(got, "demasiadas tiradas") || strings.Count(got, "↳ Hoja") != 4 {
		t.Fatalf("a roll past %d tables and dice:\n%s", table.MaxRolls, got)
	}
}
