package systems_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// sheetBot is the bot as cmd/zaria wires it: SQLite, the character service
// with the systems' sheet checks, the real catalogs and router.
type sheetBot struct {
	t  *testing.T
	r  *command.Router
	db *sqlite.DB
}

func newSheetBot(t *testing.T) *sheetBot {
	t.Helper()
	db, svc, cat := systems.ServicesForTest(t, chattest.Options{Validators: systems.SheetValidators()})
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: db, GMs: db, Sheets: svc.Sheets,
		Aliases: svc.Aliases, Observers: []command.Observer{svc.History}, Limits: command.Limits{Burst: 1 << 20}})
	svc.Register(r)
	systems.Register(r)
	return &sheetBot{t: t, r: r, db: db}
}

// lang sets the chat's language.
func (b *sheetBot) lang(chat core.ChatRef, l string) {
	b.t.Helper()
	s, err := b.db.Settings(context.Background(), chat)
	if err != nil {
		b.t.Fatal(err)
	}
	s = s.Clone()
	s.Lang = l
	if err := b.db.SaveSettings(context.Background(), chat, s); err != nil {
		b.t.Fatal(err)
	}
}

func (b *sheetBot) send(u core.User, text string, faces ...int) (string, *reply.Reply) {
	b.t.Helper()
	var src dice.Source = dice.Seeded(3)
	if len(faces) > 0 {
		src = dice.NewScripted(faces)
	}
	rep, ok := b.r.DispatchWith(context.Background(), core.Message{Chat: chat, From: u, Text: text}, src)
	if !ok {
		b.t.Fatalf("%q not handled", text)
	}
	return reply.PlainText(rep), rep
}

func (b *sheetBot) ok(u core.User, text string, faces ...int) string {
	b.t.Helper()
	out, rep := b.send(u, text, faces...)
	if rep.Error {
		b.t.Fatalf("%q: %s", text, out)
	}
	return out
}

func (b *sheetBot) fails(u core.User, text string, want ...string) string {
	b.t.Helper()
	out, rep := b.send(u, text)
	if !rep.Error {
		b.t.Fatalf("%q: want an error, got %s", text, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			b.t.Errorf("%q: %q lacks %q", text, out, w)
		}
	}
	return out
}

func hasAll(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%q lacks %q", out, w)
		}
	}
}

func hasNone(t *testing.T, out string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(out, w) {
			t.Errorf("%q should not contain %q", out, w)
		}
	}
}

var ana = core.User{ID: "1", Name: "Ana"}

// Dungeon Hack equipment typed on a sheet is checked against the tables
// when it is typed: a misspelt weapon gets "did you mean" and nothing is
// stored; a value in English or Greek is checked the same way.
func TestSheetEquipmentIsValidated(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.fails(ana, "/pj set arma espada-lrga", "¿Quisiste decir «espada larga»?")
	b.fails(ana, "/pj set armadura foo", "No conozco la armadura «foo». En la ficha va una armadura de la tabla")
	b.fails(ana, "/pj set weapon espada-lrga", "espada larga")
	b.fails(ana, "/pj set uso-arma d7", "uso-arma", "d7")
	b.fails(ana, "/pj set uso-armadura mucho", "uso-armadura")
	b.fails(ana, "/pj set dado-db d5", "d5")
	b.fails(ana, "/pj set db 11", "de 0 a 10")
	b.fails(ana, "/pj set db-rotos -1", "db-rotos")
	sheet := b.ok(ana, "/pj")
	hasNone(t, sheet, "espada-lrga", "foo", "d7", "mucho", "d5", "11")
	hasAll(t, sheet, "Aún sin valores")

	// Good values are stored as typed.
	b.ok(ana, "/pj set arma espada-larga")
	b.ok(ana, "/pj set armadura Coraza")
	b.ok(ana, "/pj set uso-arma d6")
	b.ok(ana, "/pj set uso-armadura agotado")
	b.ok(ana, "/pj set dado-db d4")
	b.ok(ana, "/pj set db 2")
	b.ok(ana, "/pj set db-rotos 1")
	b.ok(ana, "/pj set fuerza 4") // not equipment: not checked
	hasAll(t, b.ok(ana, "/pj"), "arma espada-larga", "armadura Coraza", "uso-arma d6", "dado-db d4", "db 2", "db-rotos 1")

	// An import with a bad weapon is refused as a whole.
	b.lang(chat, "en")
	doc := `{"format":"zaria-chat","version":1,"settings":{},"characters":[{"name":"Enyra","owner":"1","values":[{"name":"arma","value":"espada-lrga"}]}]}`
	gm := core.User{ID: "9", Name: "GM"}
	rep, _ := b.r.DispatchWith(context.Background(), core.Message{Chat: chat, From: gm, FromGM: true, Text: "/importar " + doc}, dice.Seeded(1))
	if out := reply.PlainText(rep); !rep.Error || !strings.Contains(out, "Did you mean “longsword”?") {
		t.Errorf("import of a bad weapon: %s", out)
	}
}

// A weapon whose usage die is used up cannot attack: the reply says it is
// destroyed and how to change or restore it. While it lasts, the reminder
// names the die the sheet holds now, not the table's.
func TestDHExhaustedWeapon(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.ok(ana, "/pj set arma espada-larga")
	hasAll(t, b.ok(ana, "/dh ataque vs coraza", 8, 1, 1, 1), "/dh uso arma (ahora d8)")
	b.ok(ana, "/dh uso arma", 1) // d8 → d6: the hint's command steps the sheet's die down
	out := b.ok(ana, "/dh ataque vs coraza", 8, 1, 1, 1)
	hasAll(t, out, "/dh uso arma (ahora d6)")
	hasNone(t, out, "ahora d8")
	b.ok(ana, "/dh uso", 1) // d6 → d4
	hasAll(t, b.ok(ana, "/dh ataque vs coraza", 8, 1, 1, 1), "/dh uso arma (ahora d4)")
	hasAll(t, b.ok(ana, "/dh uso", 1), "agotado") // d4 → exhausted
	b.fails(ana, "/dh ataque vs coraza", "Espada larga", "destruida", "/pj poner arma", "/pj poner uso-arma d8")
	b.fails(ana, "/dh uso", "Espada larga", "destruida", "/pj poner arma")
	// On Matrix with "!" the hint uses "!".
	b.fails(ana, "!dh ataque vs coraza", "!pj poner arma")
	// A table weapon typed in full still attacks: it is not the sheet's.
	b.ok(ana, "/dh ataque espada-larga vs coraza", 8, 1, 1, 1)
	// A new weapon on the sheet: back in the fight.
	b.ok(ana, "/pj set arma maza")
	b.ok(ana, "/pj set uso-arma d6")
	hasAll(t, b.ok(ana, "/dh ataque vs coraza", 6, 1, 1, 1), "Maza", "/dh uso arma (ahora d6)")
	b.lang(chat, "el")
	b.ok(ana, "/pj set uso-arma agotado")
	b.fails(ana, "!dh επίθεση εναντίον θώρακας", "!χαρακτήρας όρισε όπλο", "!χαρακτήρας όρισε χρήση-όπλου d6") // Greek names after "!" (issue 23)
}

// The Greek and English names a hint suggests reach the same sheet values.
func TestHintNamesReachTheSheet(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.ok(ana, "!pj όρισε όπλο μακρύ-σπαθί")
	b.ok(ana, "!pj όρισε χρήση-όπλου d6")
	b.ok(ana, "/pj set weapon-usage d4")
	hasAll(t, b.ok(ana, "/pj"), "arma μακρύ-σπαθί", "uso-arma d4") // shown in the chat's language (issue 23)
	hasAll(t, b.ok(ana, "/dh ataque vs coraza", 8, 1, 1, 1), "/dh uso arma (ahora d4)")
}

// TestSheetKeysInTheChatsLanguage: issue 23. A Greek chat's sheet said
// "db 2 · db-rotos 0": each name a system knows shows in the chat's
// language, and that name, typed, reaches the same value.
func TestSheetKeysInTheChatsLanguage(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	b.ok(ana, "/pj set armadura coraza")
	b.ok(ana, "/pj set db 2")
	b.ok(ana, "/pj set db-rotos 0")
	b.ok(ana, "/pj set fuerza 3")
	b.lang(chat, "el")
	out := b.ok(ana, "/pj")
	hasAll(t, out, "πανοπλία coraza", "ζθ 2", "σπασμένα-ζθ 0", "fuerza 3")
	hasNone(t, out, "db", "armadura")
	b.ok(ana, "!pj όρισε σπασμένα-ζθ 1")
	hasAll(t, b.ok(ana, "/pj"), "σπασμένα-ζθ 1")
	b.lang(chat, "en")
	hasAll(t, b.ok(ana, "/pj"), "armour coraza", "armour-dice 2", "broken-db 1")
}

// Counted nouns agree with their number in every language.
func TestDHPlurals(t *testing.T) {
	b := newBot(t, nil)
	for _, c := range []expect{
		{lang: "es", text: "/dh repara coraza 1", dice: []int{5}, has: []string{"Coraza: 3 DB, 1 roto", "1 reparado, 0 perdidos"}, not: []string{"1 rotos", "reparados 1"}},
		{lang: "es", text: "/dh repara coraza 2", dice: []int{5, 6}, has: []string{"Coraza: 3 DB, 2 rotos", "2 reparados, 0 perdidos"}},
		{lang: "es", text: "/dh repara coraza 2", dice: []int{1, 6}, has: []string{"1 reparado, 1 perdido"}},
		{lang: "el", text: "/dh repara θώρακας 1", dice: []int{5}, has: []string{"1 σπασμένο", "1 επισκευάστηκε, 0 χάθηκαν"}, not: []string{"επισκευάστηκαν 1"}},
		{lang: "el", text: "/dh repara θώρακας 2", dice: []int{5, 1}, has: []string{"2 σπασμένα", "1 επισκευάστηκε, 1 χάθηκε"}},
		{lang: "en", text: "/dh repair breastplate 2", dice: []int{5, 1}, has: []string{"2 broken", "1 repaired, 1 lost"}},
		{lang: "el", text: "/zaria 10+10 dc15", dice: []int{9, 10}, has: []string{"2 επίπεδα επιτυχίας"}, not: []string{"levels of success"}},
		{lang: "es", text: "/dh repara tela 2", has: []string{"solo tiene 1 DB; has puesto 2 rotos."}},
	} {
		out := text(b.roll(c.lang, c.text, c.dice...))
		hasAll(t, out, c.has...)
		hasNone(t, out, c.not...)
	}
}

// Every name the docs give a difficulty is accepted, as a whole phrase,
// with or without accents, whatever the chat's language.
func TestEveryRulesDifficultyName(t *testing.T) {
	b := newBot(t, nil)
	cases := []struct {
		cmd   string
		names []string
		want  string // in the reply (English chat)
	}{
		{"/zaria 4+2 ", []string{"ridiculously easy", "Γελοιωδώς Εύκολο"}, "DC 5"},
		{"/zaria 4+2 ", []string{"easy", "Εύκολο"}, "DC 10"},
		{"/zaria 4+2 ", []string{"medium", "Μέτριο"}, "DC 15"},
		{"/zaria 4+2 ", []string{"tough", "Ζόρικο"}, "DC 20"},
		{"/zaria 4+2 ", []string{"troublesome", "Μπελαλίδικο"}, "DC 25"},
		{"/zaria 4+2 ", []string{"insurmountably hard", "Ανυπέρβλητα Δύσκολο", "ανυπερβλητα δυσκολο"}, "DC 30"},
		{"/daegon 6 ", []string{"fácil", "facil"}, "D1"},
		{"/daegon 6 ", []string{"media"}, "D2"},
		{"/daegon 6 ", []string{"difícil", "dificil"}, "D3"},
		{"/daegon 6 ", []string{"muy difícil"}, "D4"},
		{"/daegon 6 ", []string{"extremadamente difícil"}, "D5"},
		{"/daegon 6 ", []string{"casi imposible"}, "D6"},
		{"/daegon 6 ", []string{"solo para maestros", "solo para maestros"}, "D7"},
		{"/rq 45 ", []string{"Rutinario"}, "vs 145"},
		{"/rq 45 ", []string{"Muy fácil"}, "vs 125"},
		{"/rq 45 ", []string{"Fácil"}, "vs 105"},
		{"/rq 45 ", []string{"Algo fácil"}, "vs 95"},
		{"/rq 45 ", []string{"Sin dificultad"}, "vs 85"},
		{"/rq 45 ", []string{"Normal"}, "vs 65"},
		{"/rq 45 ", []string{"Con dificultad"}, "vs 45"},
		{"/rq 45 ", []string{"Algo difícil"}, "vs 25"},
		{"/rq 45 ", []string{"Difícil"}, "vs 5 "},
		{"/rq 45 ", []string{"Muy difícil"}, "vs −15"},
		{"/rq 45 ", []string{"Improbable"}, "vs −35"},
		{"/rq 45 ", []string{"Épico", "epico"}, "vs −55"},
		{"/kh 6 ", []string{"Fácil"}, "difficulty 4 "},
		{"/kh 6 ", []string{"Normal"}, "difficulty 8 "},
		{"/kh 6 ", []string{"Difícil"}, "difficulty 12 "},
		{"/kh 6 ", []string{"Muy difícil"}, "difficulty 16 "},
		{"/kh 6 ", []string{"Legendario"}, "difficulty 20 "},
		{"/kh 6 ", []string{"Imposible"}, "difficulty 24 "},
	}
	for _, c := range cases {
		for _, n := range c.names {
			for _, lang := range []string{"en", "es", "el"} {
				rep := b.rollSome(lang, c.cmd+n, false, 5, 5, 5, 5, 5, 5)
				out := text(rep)
				if rep.Error {
					t.Errorf("%s %q: %s", lang, c.cmd+n, out)
					continue
				}
				if lang == "en" && !strings.Contains(out, c.want) {
					t.Errorf("%q: %q lacks %q", c.cmd+n, out, c.want)
				}
			}
		}
	}
}

// Hints name sub-commands in the chat's language, after the prefix the
// user typed; a Greek chat's Ζαριά hint uses !ζ only where "!" was typed.
func TestHintsInTheChatsLanguage(t *testing.T) {
	b := newBot(t, nil)
	for _, c := range []struct {
		lang, text string
		dice       []int
		has, not   []string
	}{
		// A typed weapon against a table armour: no sheet to step down, no
		// character to break a DB, so no hint (issue 23, item 3).
		{"el", "!dh επίθεση μακρύ-σπαθί εναντίον θώρακας", []int{8, 1, 1, 1}, []string{"ζημιά 5"}, []string{"uso", "rompe", "/dh", "χρήση", "σπάσε"}},
		{"es", "!dh ataque espada-larga vs coraza", []int{8, 1, 1, 1}, []string{"5 de daño"}, []string{"uso", "rompe"}},
		{"en", "/dh attack longsword vs breastplate", []int{8, 1, 1, 1}, []string{"5 damage"}, []string{"use", "break"}},
		{"el", "/dh crear", nil, []string{"«σπάσε»"}, []string{"break", "rompe"}},
		{"en", "/dh crear", nil, []string{"“break”"}, nil},
		{"es", "/dh crear", nil, []string{"«rompe»"}, nil},
		{"el", "!dh", nil, []string{"!dh επίθεση", "!dh χρήση d8", "!dh επισκευή", "!dh διάτρηση 17"}, []string{"ataque", "uso", "/dh"}},
		{"el", "!ζ", nil, []string{"!ζ 4+2 dc15"}, []string{"/zaria"}},
		{"el", "/zaria", nil, []string{"/zaria 4+2 dc15"}, []string{"!ζ"}},
		{"es", "!zaria", nil, []string{"!zaria 4+2 cd15"}, nil},
		{"es", "!rq", nil, []string{"!rq 45 -30"}, []string{"/rq"}},
		{"el", "!daegon", nil, []string{"!daegon 7 d3"}, nil},
		{"en", "!kh", nil, []string{"!kh 6 +2s"}, nil},
		{"el", "!dh χρήση", nil, []string{"!dh χρήση d8 · !dh χρήση όπλο"}, nil},
	} {
		out := text(b.rollSome(c.lang, c.text, false, c.dice...))
		for _, w := range c.has {
			if !strings.Contains(out, w) {
				t.Errorf("%s %q: %q lacks %q", c.lang, c.text, out, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%s %q: %q should not contain %q", c.lang, c.text, out, w)
			}
		}
	}
}

// A roll for another character names it; a roll for one's own active
// character does not.
func TestRollForAnotherCharacterNamesIt(t *testing.T) {
	b := newSheetBot(t)
	gm := core.User{ID: "9", Name: "GM"}
	b.ok(gm, "/pj crear Orc")
	b.ok(gm, "/pj set fuerza 5")
	b.ok(gm, "/pj set sigilo 6")
	b.ok(gm, "/pj set arma maza")
	b.ok(gm, "/pj set armadura coraza")
	b.ok(gm, "/pj set fisico 4")
	b.ok(gm, "/pj crear Yo")
	b.ok(gm, "/pj set fuerza 1")
	for _, c := range []struct {
		text string
		dice []int
	}{
		{"/zaria @Orc fuerza+fuerza dc10", []int{5, 5}},
		{"/zaria Orc fuerza+fuerza dc10", []int{5, 5}},
		{"/daegon @Orc sigilo d2", []int{1, 1}},
		{"/rq @Orc fuerza normal", []int{1, 1}},
		{"/kh @Orc fisico dc8", []int{3}},
		{"/dh ataque @Orc vs coraza", []int{6, 1, 1, 1}},
		{"/dh ataque Orc vs coraza", []int{6, 1, 1, 1}},
		{"/dh rompe @Orc pen1", nil},
	} {
		out := b.ok(gm, c.text, c.dice...)
		if !strings.HasPrefix(out, "Orc: ") {
			t.Errorf("%q: %q does not start with the character's name", c.text, out)
		}
		if strings.Count(out, "Orc: ") != 1 {
			t.Errorf("%q: %q names it more than once", c.text, out)
		}
	}
	out := b.ok(gm, "/zaria fuerza+fuerza dc10", 5, 5)
	hasNone(t, out, "Orc", "Yo:")
}

// A sheet error met by a system's roll names /pj with the prefix typed.
func TestSheetHintsFromARoll(t *testing.T) {
	b := newSheetBot(t)
	b.fails(ana, "!zaria fuerza+atletismo dc10", "!pj crear")
	b.ok(ana, "/pj crear Enyra")
	out := b.fails(ana, "!zaria fuerza+atletismo dc10", "!pj poner fuerza")
	hasNone(t, out, "/pj")
}

// TestEquipmentInAListOfValues: issue 36. Equipment is read as the
// tables know it, in one word or several, with or without hyphens, in
// one message with other values; it is stored hyphenated as the commands
// write it. A misspelt piece refuses the whole list with a suggestion.
func TestEquipmentInAListOfValues(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra dh")
	hasAll(t, b.ok(ana, "/pj poner arma espada-larga armadura cota-de-mallas pv 14/14"),
		"arma = espada-larga", "armadura = cota-de-mallas", "pv = 14/14")
	hasAll(t, b.ok(ana, "/pj poner arma maza armadura cota de escamas dado-db d4"),
		"arma = maza", "armadura = cota-de-escamas", "dado-db = d4")
	hasAll(t, b.ok(ana, "/pj poner arma espada larga"), "arma = espada-larga")
	b.fails(ana, "/pj poner armadura cota de malla pv 10/10", "cota de mallas")
	hasAll(t, b.ok(ana, "/pj"), "arma espada-larga", "armadura cota-de-escamas", "pv 14/14", "dado-db d4")
	b.lang(chat, "el")
	hasAll(t, b.ok(ana, "/pj όρισε όπλο μακρύ σπαθί πανοπλία θώρακας ζωή 10/10"), "μακρύ-σπαθί", "θώρακας", "10/10")
}

// TestVitalsInTheChatsLanguage: issue 36. Every Greek and English sheet
// with a condition said the Spanish «estado» (and «pv»): hit points and
// conditions are named in the chat's language, on the sheet and in the
// reply that sets them.
func TestVitalsInTheChatsLanguage(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra")
	b.ok(ana, "/pj poner pv 10/12")
	b.ok(ana, "/pj estado +envenenado 2")
	b.lang(chat, "el")
	out := b.ok(ana, "/pj")
	hasAll(t, out, "ζωή 10/12", "κατάσταση envenenado (2)")
	hasNone(t, out, "estado", "pv")
	hasAll(t, b.ok(ana, "/pj όρισε ζωή 9/12"), "Enyra: ζωή = 9/12")
	b.lang(chat, "en")
	out = b.ok(ana, "/pj")
	hasAll(t, out, "hp 9/12", "conditions envenenado (2)")
	hasNone(t, out, "estado", "pv")
}
