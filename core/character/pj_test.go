package character_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"zaria/core"
	"zaria/core/character"
	"zaria/core/command"
	"zaria/core/systems/dungeonhack"
)

func TestCreateSetShowAndRollWithSheet(t *testing.T) {
	h := newHarness(t, character.Limits{})
	out := h.ok(chatA, ana, false, "/pj crear Drake")
	contains(t, out, "Drake is created", "active character")

	h.ok(chatA, ana, false, "/pj set Fuerza 4")
	h.ok(chatA, ana, false, "/pj set atlétismo 2")
	out = h.ok(chatA, ana, false, "/pj set arma espada larga")
	contains(t, out, "Drake: arma = espada larga")

	out = h.ok(chatA, ana, false, "/pj")
	contains(t, out, "🧙 Drake", "by Ana", "Fuerza 4", "atlétismo 2", "weapon espada larga") // a known name in the chat's language (issue 23)

	// Rolls read the active sheet, names without case or accents.
	out = h.ok(chatA, ana, false, "/check FUERZA", 11)
	contains(t, out, "d20 11 + FUERZA 4 = 15")
	out = h.ok(chatA, ana, false, "/check atletismo", 3)
	contains(t, out, "= 5")

	// Setting again replaces, keeping the display name.
	h.ok(chatA, ana, false, "/pj set fuerza=5")
	out = h.ok(chatA, ana, false, "/pj Drake")
	contains(t, out, "Fuerza 5")
	lacks(t, out, "Fuerza 4")

	// A text value is not a number.
	h.fails(chatA, ana, false, "/check arma", "«espada larga», not a number", "/pj set arma 3")

	// Unknown values and characters get "did you mean".
	h.fails(chatA, ana, false, "/check fuerzza", "Did you mean Fuerza?")
	h.fails(chatA, ana, false, "/check @Drak fuerza", "Did you mean Drake?")
	h.fails(chatA, ana, false, "/pj Drak", "Did you mean Drake?")

	// Unset removes, the system is stored and shown.
	out = h.ok(chatA, ana, false, "/pj quitar atletismo")
	contains(t, out, "atlétismo removed")
	h.ok(chatA, ana, false, "/pj sistema zaria")
	out = h.ok(chatA, ana, false, "/pj")
	contains(t, out, "Drake · Ζαριά")
	lacks(t, out, "atlétismo")
	h.fails(chatA, ana, false, "/pj sistema gurps", "gurps", "zaria, daegon, dh, kh, rq")

	// Greek names work as well, and Greek sub-commands.
	h.ok(chatA, ana, false, "/pj όρισε Δύναμη 3")
	out = h.ok(chatA, ana, false, "/check δυναμη", 1)
	contains(t, out, "= 4")
}

func TestNoActiveCharacterAndUsage(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.fails(chatA, ana, false, "/pj", "no active character", "/pj create NAME")
	h.fails(chatA, ana, false, "/check fuerza", "no active character")
	h.fails(chatA, ana, false, "/pj crear", "/pj create Drake")
	h.fails(chatA, ana, false, "/pj crear lista", "«lista» is a word of /pj")
	h.fails(chatA, ana, false, "/pj crear Dr@ke", "can't be a character name")
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.fails(chatA, bob, false, "/pj crear DRAKE", "already a character called DRAKE")
	h.fails(chatA, ana, false, "/pj set fuerza", "/pj set NAME VALUE")
	h.fails(chatA, ana, false, "/pj set 12 4", "looks like a number or a die")
	h.fails(chatA, ana, false, "/pj set d20 4", "looks like a number or a die")
	h.fails(chatA, ana, false, "/pj set fu+erza 4", "can't be a value name")
	h.fails(chatA, ana, false, "/pj foo bar", "/pj create NAME")
}

func TestOnlyOwnerOrGMEdits(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")

	// Bob can see it and roll for it, but not change it.
	contains(t, h.ok(chatA, bob, false, "/pj Drake"), "Drake", "fuerza 4")
	contains(t, h.ok(chatA, bob, false, "/check @Drake fuerza", 10), "= 14")
	for _, cmd := range []string{
		"/pj set @Drake fuerza 9",
		"/pj quitar @Drake fuerza",
		"/pj renombrar Drake Draco",
		"/pj borrar Drake",
		"/pj sistema @Drake rq",
	} {
		h.fails(chatA, bob, false, cmd, "Only Ana (the owner) or a GM can change Drake")
	}
	h.fails(chatA, bob, false, "/pj usar Drake", "Drake belongs to Ana")
	out := h.ok(chatA, ana, false, "/pj")
	contains(t, out, "fuerza 4")
	lacks(t, out, "Draco", "9")

	// A chat admin may.
	contains(t, h.ok(chatA, admin, true, "/pj set @Drake fuerza 6"), "Drake: fuerza = 6")
	// A GM named with /gm add may too, and loses it with /gm remove.
	h.fails(chatA, bob, false, "/gm add Bob", "Only the chat's admins and GMs")
	h.ok(chatA, bob, false, "/check @Drake fuerza", 1) // Bob is now known to the chat
	contains(t, h.ok(chatA, admin, true, "/gm add @bob"), "Bob is now a GM")
	contains(t, h.ok(chatA, ana, false, "/gm"), "Bob", "222")
	contains(t, h.ok(chatA, bob, false, "/pj set @Drake fuerza 7"), "fuerza = 7")
	contains(t, h.ok(chatA, bob, false, "/pj renombrar Drake Draco"), "Drake is now called Draco")
	contains(t, h.ok(chatA, bob, false, "/gm remove Bob"), "Bob is no longer a GM")
	h.fails(chatA, bob, false, "/pj set @Draco fuerza 1", "Only Ana")
	contains(t, h.ok(chatA, ana, false, "/pj"), "Draco", "fuerza 7")

	// The owner deletes.
	contains(t, h.ok(chatA, ana, false, "/pj borrar draco"), "Draco was deleted")
	h.fails(chatA, ana, false, "/pj", "no active character")
}

func TestGMNaming(t *testing.T) {
	h := newHarness(t, character.Limits{GMsPerChat: 2})
	h.fails(chatA, admin, true, "/gm add @nobody", "I don't know «@nobody»")
	// A Matrix id or a Telegram numeric id is accepted as is.
	contains(t, h.ok(chatA, admin, true, "/gm add @dora:example.org"), "@dora:example.org is now a GM")
	contains(t, h.ok(chatA, admin, true, "/gm add 12345"), "12345 is now a GM")
	contains(t, h.ok(chatA, admin, true, "/gm add 12345"), "already a GM")
	h.fails(chatA, admin, true, "/gm add 777", "already has 2 named GMs")
	h.fails(chatA, admin, true, "/gm remove 777", "not a named GM")
	h.fails(chatA, admin, true, "/gm hola", "/gm add @name")
	contains(t, h.ok(chatA, admin, true, "/gm remove 12345"), "12345 is no longer a GM")
	// A named GM may name others; the router sees it through the store.
	ok, err := h.db.IsGM(context.Background(), chatA, "@dora:example.org")
	if err != nil || !ok {
		t.Fatalf("IsGM = %v, %v", ok, err)
	}
	dora := ana
	dora.ID, dora.Name = "@dora:example.org", "Dora"
	contains(t, h.ok(chatA, dora, false, "/gm add 12345"), "is now a GM")
	// Nothing leaks to chat B.
	contains(t, h.ok(chatB, ana, false, "/gm"), "Only the chat's admins are GMs")
	h.fails(chatB, dora, false, "/gm add 4444", "Only the chat's admins and GMs")
}

func TestUseSwitchesActiveCharacter(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	h.ok(chatA, ana, false, "/pj create Enyra")
	h.ok(chatA, ana, false, "/pj set fuerza 1")
	contains(t, h.ok(chatA, ana, false, "/check fuerza", 10), "= 11")
	contains(t, h.ok(chatA, ana, false, "/pj usar drake"), "now Drake")
	contains(t, h.ok(chatA, ana, false, "/check fuerza", 10), "= 14")
	out := h.ok(chatA, bob, false, "/pj lista")
	contains(t, out, "2 characters", "Drake", "Enyra", "by Ana")
	h.fails(chatA, ana, false, "/pj renombrar Enyra drake", "already a character called drake")
}

func TestChatIsolation(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	h.ok(chatA, ana, false, "/check fuerza", 5)
	h.ok(chatA, ana, false, "/alias golpe /check fuerza")
	h.ok(chatA, admin, true, "/gm add 222")

	// Whatever is typed in chat B, even by an admin, A's data is unreachable.
	for _, tc := range []struct{ cmd, want string }{
		{"/pj", "no active character"},
		{"/pj Drake", "no character «Drake»"},
		{"/pj set @Drake fuerza 9", "no character «Drake»"},
		{"/pj borrar Drake", "no character «Drake»"},
		{"/pj usar Drake", "no character «Drake»"},
		{"/pj renombrar Drake X", "no character «Drake»"},
		{"/check @Drake fuerza", "no character «Drake»"},
		{"/check fuerza", "no active character"},
		{"/golpe", "I don't know /golpe"},
		{"/alias borrar golpe", "no saved roll «golpe»"},
	} {
		for _, gm := range []bool{false, true} {
			h.fails(chatB, ana, gm, tc.cmd, tc.want)
		}
	}
	h.fails(chatB, ana, true, "/gm remove 222", "not a named GM")
	contains(t, h.ok(chatB, ana, false, "/pj lista"), "No characters")
	contains(t, h.ok(chatB, ana, false, "/historial"), "No rolls")
	contains(t, h.ok(chatB, ana, false, "/alias"), "No saved rolls")
	contains(t, h.ok(chatB, ana, false, "/exportar"), "0 characters")
	// The same name can live in both chats, independently.
	h.ok(chatB, bob, false, "/pj crear Drake")
	h.ok(chatB, bob, false, "/pj set fuerza 1")
	contains(t, h.ok(chatA, ana, false, "/pj Drake"), "fuerza 4", "by Ana")
	contains(t, h.ok(chatB, ana, false, "/pj Drake"), "fuerza 1", "by Bob")
	// An import into B leaves A alone.
	_, rep := h.send(chatB, bob, false, "/exportar")
	h.ok(chatB, admin, true, "/importar "+string(rep.File.Data))
	contains(t, h.ok(chatA, ana, false, "/pj"), "fuerza 4")
	contains(t, h.ok(chatA, ana, false, "/historial"), "/check fuerza")
}

func TestSpanishAndGreekReplies(t *testing.T) {
	h := newHarness(t, character.Limits{})
	ctx := context.Background()
	if err := h.db.SaveSettings(ctx, chatA, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	if err := h.db.SaveSettings(ctx, chatB, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	contains(t, h.ok(chatA, ana, false, "/personaje crear Drake"), "Drake creado")
	h.fails(chatA, bob, false, "/pj set @Drake fuerza 2", "Solo quien creó el personaje Drake (Ana) o un máster pueden cambiarlo")
	h.fails(chatA, ana, false, "/check fuerza", "Drake no tiene el valor «fuerza». Ponlo con /pj poner fuerza VALOR.")
	contains(t, h.ok(chatA, ana, false, "/pj lista"), "1 personaje en este chat")
	contains(t, h.ok(chatB, ana, false, "/χαρακτήρας δημιουργία Δράκος"), "Ο χαρακτήρας Δράκος δημιουργήθηκε")
	h.fails(chatB, ana, false, "/pj όρισε δύναμη", "Γράψε /pj όρισε ΟΝΟΜΑ ΤΙΜΗ")
	contains(t, h.ok(chatB, ana, false, "/ήρωας όρισε Δύναμη 3"), "Δράκος: Δύναμη = 3")
	contains(t, h.ok(chatB, ana, false, "/pj λίστα"), "1 χαρακτήρας εδώ")
}

func TestQuotas(t *testing.T) {
	lim := character.Limits{CharactersPerUser: 2, ValuesPerSheet: 2, NameLen: 8, ValueLen: 10}
	h := newHarness(t, lim)
	h.ok(chatA, ana, false, "/pj crear Uno")
	h.ok(chatA, ana, false, "/pj crear Dos")
	h.fails(chatA, ana, false, "/pj crear Tres", "already have 2 characters", "/pj delete NAME")
	h.ok(chatA, bob, false, "/pj crear Tres") // the quota is per user
	h.fails(chatA, ana, false, "/pj crear Demasiado", "too long (9 characters; at most 8)")
	h.ok(chatA, ana, false, "/pj set a 1")
	h.ok(chatA, ana, false, "/pj set b 2")
	h.ok(chatA, ana, false, "/pj set b 3") // replacing is not adding
	h.fails(chatA, ana, false, "/pj set c 3", "already has 2 values", "/pj unset NAME")
	h.fails(chatA, ana, false, "/pj set a 12345678901", "too long (11 characters; at most 10)")
	h.fails(chatA, ana, false, "/pj set nombrelargo 1", "too long (11 characters; at most 8)")
	out := h.ok(chatA, ana, false, "/pj")
	contains(t, out, "a 1", "b 3")
	lacks(t, out, "c 3", "1234")
}

func TestSheetsInterface(t *testing.T) {
	h := newHarness(t, character.Limits{})
	ctx := context.Background()
	h.ok(chatA, ana, false, "/pj crear Drake")
	// Dungeon Hack state is written through SetSheetText by the owner or a GM.
	if err := h.svc.SetSheetText(ctx, chatA, ana.ID, false, "", dungeonhack.SheetWeaponUsage, "d6"); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.SetSheetText(ctx, chatA, bob.ID, false, "@Drake", dungeonhack.SheetWeaponUsage, "d4"); err == nil {
		t.Fatal("bob changed Ana's character")
	}
	if err := h.svc.SetSheetText(ctx, chatA, bob.ID, true, "@Drake", dungeonhack.SheetWeaponUsage, "d4"); err != nil {
		t.Fatal(err)
	}
	got, err := h.svc.SheetText(ctx, chatA, bob.ID, "Drake", "uso-arma")
	if err != nil || got != "d4" {
		t.Fatalf("SheetText = %q, %v", got, err)
	}
	// English and Greek names of the equipment find the same value.
	h.ok(chatA, ana, false, "/pj set weapon long-sword")
	for _, name := range []string{"arma", "weapon", "Όπλο"} {
		got, err := h.svc.SheetText(ctx, chatA, ana.ID, "", name)
		if err != nil || got != "long-sword" {
			t.Fatalf("SheetText(%s) = %q, %v", name, got, err)
		}
	}
	if _, err := h.svc.SheetText(ctx, chatB, ana.ID, "Drake", "arma"); err == nil {
		t.Fatal("chat B read chat A's sheet")
	}
	if strings.Contains(h.ok(chatA, ana, false, "/pj"), "d6") {
		t.Fatal("usage die not replaced")
	}
}

// Concurrent edits of one sheet (players and a Dungeon Hack command at the
// same time) never lose a value.
func TestConcurrentEditsKeepEveryValue(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				if err := h.svc.SetSheetText(ctx, chatA, ana.ID, false, "", "v"+itoa(i), itoa(i)); err != nil {
					t.Error(err)
				}
				return
			}
			rep, _ := h.r.DispatchWith(ctx, core.Message{Chat: chatA, From: admin, FromGM: true, Text: "/pj set @Drake v" + itoa(i) + " " + itoa(i)}, nil)
			if rep.Error {
				t.Errorf("set v%d failed", i)
			}
		}()
	}
	wg.Wait()
	out := h.ok(chatA, ana, false, "/pj")
	for i := range 12 {
		contains(t, out, "v"+itoa(i)+" "+itoa(i))
	}
}

func TestGMByDisplayName(t *testing.T) {
	h := newHarness(t, character.Limits{})
	anaG := core.User{ID: "501", Name: "Ana García"}
	anaL := core.User{ID: "502", Name: "Ana López"}
	h.ok(chatA, anaG, false, "/pj crear Uno")
	h.ok(chatA, anaL, false, "/pj crear Dos")
	contains(t, h.ok(chatA, admin, true, "/gm add @AnaGarcia"), "Ana García is now a GM")
	contains(t, h.ok(chatA, admin, true, "/gm add ana-lopez"), "Ana López is now a GM")
	h.fails(chatA, admin, true, "/gm add @ana", "Several users are called «@ana» (501, 502)")
	contains(t, h.ok(chatA, admin, true, "/gm remove @AnaLopez"), "Ana López is no longer a GM")
	contains(t, h.ok(chatA, admin, true, "/gm remove ana"), "Ana García is no longer a GM")
}

func TestRenameDeleteAndImportKeepActiveSelectionsRight(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	// Renaming keeps the sheet and the active selection.
	h.ok(chatA, ana, false, "/pj renombrar Draco")
	contains(t, h.ok(chatA, ana, false, "/pj"), "Draco", "fuerza 4")
	contains(t, h.ok(chatA, ana, false, "/check fuerza", 1), "= 5")
	h.fails(chatA, ana, false, "/pj Drake", "no character «Drake»", "Did you mean Draco?")
	// A GM deleting Ana's active character leaves her without one.
	contains(t, h.ok(chatA, admin, true, "/pj borrar Draco"), "Draco was deleted")
	h.fails(chatA, ana, false, "/check fuerza", "no active character")

	// An import drops the active selections of characters it replaces.
	h.ok(chatB, bob, false, "/pj crear Solo")
	h.ok(chatA, ana, false, "/pj crear Nova")
	_, rep := h.send(chatA, ana, false, "/exportar")
	h.ok(chatB, admin, true, "/importar --replace "+string(rep.File.Data))
	h.fails(chatB, bob, false, "/pj", "no active character")
	contains(t, h.ok(chatB, ana, false, "/pj"), "Nova")
	contains(t, h.ok(chatB, bob, false, "/pj lista"), "1 character", "Nova")
}

// A quota of one is said in the singular.
func TestQuotaOfOneIsSingular(t *testing.T) {
	h := newHarness(t, character.Limits{CharactersPerUser: 1, ValuesPerSheet: 1, AliasesPerUser: 1})
	h.ok(chatA, ana, false, "/pj crear Drake")
	out := h.fails(chatA, ana, false, "/pj crear Enyra", "You already have 1 character in this chat, the limit.")
	lacks(t, out, "1 characters")
	h.ok(chatA, ana, false, "/pj set fuerza 1")
	h.fails(chatA, ana, false, "/pj set destreza 1", "Drake already has 1 value, the limit.")
	h.ok(chatA, ana, false, "/alias a /check fuerza")
	h.fails(chatA, ana, false, "/alias b /check fuerza", "You already have 1 saved roll here, the limit.")
}

// Hints name commands with the prefix the user typed: "!" on Matrix.
func TestHintsUseTheTypedPrefix(t *testing.T) {
	h := newHarness(t, character.Limits{})
	out := h.fails(chatC, ana, false, "!pj", "!pj create")
	lacks(t, out, "/pj")
	contains(t, h.ok(chatC, ana, false, "!pj crear Drake"), "!pj set strength 4")
	contains(t, h.ok(chatC, ana, false, "/pj"), "/pj set strength 4")
	h.fails(chatC, ana, false, "!alias x", "!alias NAME COMMAND")
	// A sheet read by another command, which passes no prefix: "/".
	h.fails(chatC, ana, false, "!check fuerza", "/pj set fuerza")
}

// A capital of another script that looks like a Latin one makes a
// look-alike name even where its small letter does not: Cyrillic "Мira"
// (Em) beside "Mira", Greek "Νick" (Nu) beside "Nick". Created, renamed
// to or imported, it is refused and nothing changes (issue 10).
func TestLookAlikeCapitalsRefused(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, bob, false, "/pj crear Mira")
	h.ok(chatA, ana, false, "/pj crear Nick")
	h.fails(chatA, ana, false, "/pj crear Мira", "looks just like Mira")
	h.fails(chatA, bob, false, "/pj crear Νick", "looks just like Nick")
	h.fails(chatA, ana, false, "/pj renombrar Nick Мira", "looks just like Mira")
	// Its own look-alike is no other character: renaming to it is fine.
	h.ok(chatA, ana, false, "/pj renombrar Nick Νick")
	h.ok(chatA, ana, false, "/pj renombrar Νick Nick")
	out := h.ok(chatA, ana, false, "/pj lista")
	contains(t, out, "2 characters", "Mira", "Nick")
	lacks(t, out, "Мira", "Νick")

	_, rep := h.send(chatA, admin, true, "/exportar")
	doc := strings.Replace(string(rep.File.Data), `"name":"Nick"`, `"name":"Мira"`, 1)
	h.fails(chatA, admin, true, "/importar "+doc, "look alike")
	contains(t, h.ok(chatA, ana, false, "/pj lista"), "Nick")
}

// A value named as a word of the roll notation could never be rolled
// ("1d20+vs" reads a target, "1d20+floor" a function, "dc12" a DC): /pj
// refuses the name with its own message. Names that only start like one
// stay names (fuerza, versus, floors, dc_bonus).
func TestValueNameThatReadsAsNotation(t *testing.T) {
	h := newHarness(t, character.Limits{})
	h.ok(chatA, ana, false, "/pj crear Drake")
	for _, name := range []string{"vs", "VS", "dc", "dc12", "cd", "contra", "κατά", "εναντίον", "floor", "abs", "round", "ceil"} {
		h.fails(chatA, ana, false, "/pj set "+name+" 4", "«"+name+"» is a word of the roll notation")
	}
	for _, name := range []string{"versus", "floors", "dc_bonus", "contraataque", "absorb"} {
		h.ok(chatA, ana, false, "/pj set "+name+" 4")
	}
	out := h.ok(chatA, ana, false, "/pj")
	lacks(t, out, "vs 4", "dc 4", "floor 4")
	contains(t, out, "versus 4", "absorb 4")
}

// A word that can be neither a number a roll takes nor a value's name
// ("45%", "4,5", a number too big to read) is answered as such, with or
// without an active character, never with "set it with /pj set 45% VALUE",
// which /pj set refuses.
func TestUnreadableValueNameInARoll(t *testing.T) {
	h := newHarness(t, character.Limits{})
	for _, w := range []string{"45%", "4,5", "99999999999999999999", "-99999999999999999999"} {
		out := h.fails(chatA, ana, false, "/check "+w, "«"+w+"» is neither a number I can read nor the name of a sheet value. Write a whole number, e.g. 4")
		lacks(t, out, "/pj set", "active character")
	}
	h.ok(chatA, ana, false, "/pj create Drake")
	out := h.fails(chatA, ana, false, "/check 45%", "«45%» is neither a number")
	lacks(t, out, "/pj set")
	// What /pj set refuses, it says so itself: the hint is never a dead end.
	h.fails(chatA, ana, false, "/pj set 45% 3", "45%")
	// Digits are a number however many there are: never a value's name
	// that "/rq 99999999999999999999" would then read.
	for _, w := range []string{"99999999999999999999", "1-2", "-0"} {
		h.fails(chatA, ana, false, "/pj set "+w+" 45", "«"+w+"» looks like a number or a die")
	}
	// A real value is still read, and an unknown one still named.
	h.ok(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.ok(chatA, ana, false, "/check fuerza", 10), "d20 10 + fuerza 4 = 14")
	h.fails(chatA, ana, false, "/check sigilo", "Drake has no value «sigilo»")
	if _, err := h.svc.SheetText(context.Background(), chatA, ana.ID, "", "4,5"); err == nil {
		t.Fatal("SheetText read a value named 4,5")
	} else if ue, ok := command.AsUserError(err); !ok || ue.Key != "character.value_name_unreadable" {
		t.Fatalf("SheetText 4,5: %v", err)
	}
}

// A name typed for a new character or value is a word: ".", "'" or "..."
// are refused, and a value's name has no "." or "'" (no roll reads
// "fuerza.x" back); "O'Brien" is still a character, "espada-larga" a
// value. Nothing is created or set by a refusal.
func TestNewNamesAreWords(t *testing.T) {
	h := newHarness(t, character.Limits{})
	for _, n := range []string{".", "'", "...", ".-'"} {
		h.fails(chatA, ana, false, "/pj create "+n, "«"+n+"» can't be a character name: use one word of letters, digits, - or _")
	}
	// Letters drawn as nothing: the name would look empty.
	// (Alone, they are no name at all: the message is dropped of them.)
	for _, n := range []string{"\u3164", "\u115f\u1160"} {
		h.fails(chatA, ana, false, "/pj create "+n, "/pj create Drake")
	}
	h.fails(chatA, ana, false, "/pj create Dr\uffa0ake", "can't be a character name")
	h.fails(chatA, ana, false, "/pj create Dr\u3164ake", "can't be a character name")
	h.fails(chatA, ana, false, "/alias at\u3164k /check fuerza", "can't be a saved roll name")
	contains(t, h.ok(chatA, ana, false, "/pj list"), "No characters")
	h.ok(chatA, ana, false, "/pj create O'Brien")
	h.fails(chatA, ana, false, "/pj rename ...", "«...» can't be a character name")
	for _, n := range []string{"fuerza.x", "o'k", "a’b", "'"} {
		h.fails(chatA, ana, false, "/pj set "+n+" 3", "«"+n+"» can't be a value name: use one word of letters, digits, - or _")
	}
	h.ok(chatA, ana, false, "/pj set espada-larga 3")
	out := h.ok(chatA, ana, false, "/pj")
	contains(t, out, "O'Brien", "espada-larga 3")
	lacks(t, out, "fuerza.x", "o'k")
}

// A Matrix id longer than the spec's 255 bytes is nobody: it is not named
// GM (25 of them filled /gm's list past a message); one of 255 still is.
func TestGMMatrixIDHasTheSpecsLength(t *testing.T) {
	h := newHarness(t, character.Limits{})
	long := "@" + strings.Repeat("x", 256-len("@:example.org")) + ":example.org"
	h.fails(chatA, admin, true, "/gm add "+long, "I don't know «"+long[:20])
	contains(t, h.ok(chatA, admin, true, "/gm"), "Only the chat's admins are GMs here")
	ok := long[:1] + long[2:]
	if len(ok) != 255 {
		t.Fatalf("test id of %d bytes", len(ok))
	}
	contains(t, h.ok(chatA, admin, true, "/gm add "+ok), "is now a GM")
}
