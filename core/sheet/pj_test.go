package sheet_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/systems/dungeonhack"
	"zaria/internal/chattest"
)

func TestCreateSetShowAndRollWithSheet(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	out := h.OK(chatA, ana, false, "/pj crear Drake")
	contains(t, out, "Drake is created", "active character")

	h.OK(chatA, ana, false, "/pj set Fuerza 4")
	h.OK(chatA, ana, false, "/pj set atlétismo 2")
	out = h.OK(chatA, ana, false, "/pj set arma espada larga")
	contains(t, out, "Drake: weapon = espada larga") // the name in the chat's language, as /pj shows it (issue 36)

	out = h.OK(chatA, ana, false, "/pj")
	contains(t, out, "🧙 Drake", "by Ana", "Fuerza 4", "atlétismo 2", "weapon espada larga") // a known name in the chat's language (issue 23)

	// Rolls read the active sheet, names without case or accents.
	out = h.OK(chatA, ana, false, "/check FUERZA", 11)
	contains(t, out, "d20 11 + FUERZA 4 = 15")
	out = h.OK(chatA, ana, false, "/check atletismo", 3)
	contains(t, out, "= 5")

	// Setting again replaces, keeping the display name.
	h.OK(chatA, ana, false, "/pj set fuerza=5")
	out = h.OK(chatA, ana, false, "/pj Drake")
	contains(t, out, "Fuerza 5")
	lacks(t, out, "Fuerza 4")

	// A text value is not a number.
	h.Fails(chatA, ana, false, "/check arma", "«espada larga», not a number", "/pj set arma 3")

	// Unknown values and characters get "did you mean".
	h.Fails(chatA, ana, false, "/check fuerzza", "Did you mean Fuerza?")
	h.Fails(chatA, ana, false, "/check @Drak fuerza", "Did you mean Drake?")
	h.Fails(chatA, ana, false, "/pj Drak", "Did you mean Drake?")

	// Unset removes, the system is stored and shown.
	out = h.OK(chatA, ana, false, "/pj quitar atletismo")
	contains(t, out, "atlétismo removed")
	h.OK(chatA, ana, false, "/pj sistema zaria")
	out = h.OK(chatA, ana, false, "/pj")
	contains(t, out, "Drake · Ζαριά")
	lacks(t, out, "atlétismo")
	h.Fails(chatA, ana, false, "/pj sistema gurps", "gurps", "zaria, daegon, kh, rq, dh, coc, v5, wfrp, pbta, fate, sw")

	// Greek names work as well, and Greek sub-commands.
	h.OK(chatA, ana, false, "/pj όρισε Δύναμη 3")
	out = h.OK(chatA, ana, false, "/check δυναμη", 1)
	contains(t, out, "= 4")
}

func TestNoActiveCharacterAndUsage(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.Fails(chatA, ana, false, "/pj", "no active character", "/pj create NAME")
	h.Fails(chatA, ana, false, "/check fuerza", "no active character")
	h.Fails(chatA, ana, false, "/pj crear", "/pj create Drake")
	h.Fails(chatA, ana, false, "/pj crear lista", "«lista» is a word of /pj")
	h.Fails(chatA, ana, false, "/pj crear Dr@ke", "can't be a character name")
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.Fails(chatA, bob, false, "/pj crear DRAKE", "already a character called DRAKE")
	h.Fails(chatA, ana, false, "/pj set fuerza", "/pj set NAME VALUE")
	h.Fails(chatA, ana, false, "/pj set 12 4", "looks like a number or a die")
	h.Fails(chatA, ana, false, "/pj set d20 4", "looks like a number or a die")
	h.Fails(chatA, ana, false, "/pj set fu+erza 4", "can't be a value name")
	h.Fails(chatA, ana, false, "/pj foo bar", "Setting a value? Type /pj set foo bar") // issue 36: a value without its verb
}

func TestOnlyOwnerOrGMEdits(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")

	// Bob can see it and roll for it, but not change it.
	contains(t, h.OK(chatA, bob, false, "/pj Drake"), "Drake", "fuerza 4")
	contains(t, h.OK(chatA, bob, false, "/check @Drake fuerza", 10), "= 14")
	for _, cmd := range []string{
		"/pj set @Drake fuerza 9",
		"/pj quitar @Drake fuerza",
		"/pj renombrar Drake Draco",
		"/pj borrar Drake",
		"/pj sistema @Drake rq",
	} {
		h.Fails(chatA, bob, false, cmd, "Only Ana (the owner) or a GM can change Drake")
	}
	h.Fails(chatA, bob, false, "/pj usar Drake", "Drake belongs to Ana")
	out := h.OK(chatA, ana, false, "/pj")
	contains(t, out, "fuerza 4")
	lacks(t, out, "Draco", "9")

	// A chat admin may.
	contains(t, h.OK(chatA, admin, true, "/pj set @Drake fuerza 6"), "Drake: fuerza = 6")
	// A GM named with /gm add may too, and loses it with /gm remove.
	h.Fails(chatA, bob, false, "/gm add Bob", "Only the chat's admins and GMs")
	h.OK(chatA, bob, false, "/check @Drake fuerza", 1) // Bob is now known to the chat
	contains(t, h.OK(chatA, admin, true, "/gm add @bob"), "Bob is now a GM")
	contains(t, h.OK(chatA, ana, false, "/gm"), "Bob", "222")
	contains(t, h.OK(chatA, bob, false, "/pj set @Drake fuerza 7"), "fuerza = 7")
	contains(t, h.OK(chatA, bob, false, "/pj renombrar Drake Draco"), "Drake is now called Draco")
	contains(t, h.OK(chatA, bob, false, "/gm remove Bob"), "Bob is no longer a GM")
	h.Fails(chatA, bob, false, "/pj set @Draco fuerza 1", "Only Ana")
	contains(t, h.OK(chatA, ana, false, "/pj"), "Draco", "fuerza 7")

	// The owner deletes.
	contains(t, h.OK(chatA, ana, false, "/pj borrar draco"), "Draco was deleted")
	h.Fails(chatA, ana, false, "/pj", "no active character")
}

func TestUseSwitchesActiveCharacter(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/pj create Enyra")
	h.OK(chatA, ana, false, "/pj set fuerza 1")
	contains(t, h.OK(chatA, ana, false, "/check fuerza", 10), "= 11")
	contains(t, h.OK(chatA, ana, false, "/pj usar drake"), "now Drake")
	contains(t, h.OK(chatA, ana, false, "/check fuerza", 10), "= 14")
	out := h.OK(chatA, bob, false, "/pj lista")
	contains(t, out, "2 characters", "Drake", "Enyra", "by Ana")
	h.Fails(chatA, ana, false, "/pj renombrar Enyra drake", "already a character called drake")
}

func TestChatIsolation(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	h.OK(chatA, ana, false, "/check fuerza", 5)
	h.OK(chatA, ana, false, "/alias golpe /check fuerza")
	h.OK(chatA, admin, true, "/gm add 222")

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
			h.Fails(chatB, ana, gm, tc.cmd, tc.want)
		}
	}
	h.Fails(chatB, ana, true, "/gm remove 222", "not a named GM")
	contains(t, h.OK(chatB, ana, false, "/pj lista"), "No characters")
	contains(t, h.OK(chatB, ana, false, "/historial"), "No rolls")
	contains(t, h.OK(chatB, ana, false, "/alias"), "No saved rolls")
	contains(t, h.OK(chatB, ana, false, "/exportar"), "0 characters")
	// The same name can live in both chats, independently.
	h.OK(chatB, bob, false, "/pj crear Drake")
	h.OK(chatB, bob, false, "/pj set fuerza 1")
	contains(t, h.OK(chatA, ana, false, "/pj Drake"), "fuerza 4", "by Ana")
	contains(t, h.OK(chatB, ana, false, "/pj Drake"), "fuerza 1", "by Bob")
	// An import into B leaves A alone.
	_, rep := h.Send(chatB, bob, false, "/exportar")
	h.OK(chatB, admin, true, "/importar "+string(rep.File.Data))
	contains(t, h.OK(chatA, ana, false, "/pj"), "fuerza 4")
	contains(t, h.OK(chatA, ana, false, "/historial"), "/check fuerza")
}

func TestSpanishAndGreekReplies(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	if err := h.DB.SaveSettings(ctx, chatA, core.Settings{Lang: "es"}); err != nil {
		t.Fatal(err)
	}
	if err := h.DB.SaveSettings(ctx, chatB, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	contains(t, h.OK(chatA, ana, false, "/personaje crear Drake"), "Drake creado")
	h.Fails(chatA, bob, false, "/pj set @Drake fuerza 2", "Solo quien creó el personaje Drake (Ana) o un máster pueden cambiarlo")
	h.Fails(chatA, ana, false, "/check fuerza", "Drake no tiene el valor «fuerza». Ponlo con /pj poner fuerza VALOR.")
	contains(t, h.OK(chatA, ana, false, "/pj lista"), "1 personaje en este chat")
	contains(t, h.OK(chatB, ana, false, "/χαρακτήρας δημιουργία Δράκος"), "Ο χαρακτήρας Δράκος δημιουργήθηκε")
	h.Fails(chatB, ana, false, "/pj όρισε δύναμη", "Γράψε /pj όρισε ΟΝΟΜΑ ΤΙΜΗ")
	contains(t, h.OK(chatB, ana, false, "/ήρωας όρισε Δύναμη 3"), "Δράκος: Δύναμη = 3")
	contains(t, h.OK(chatB, ana, false, "/pj λίστα"), "1 χαρακτήρας εδώ")
}

func TestQuotas(t *testing.T) {
	lim := chattest.Limits{CharactersPerUser: 2, ValuesPerSheet: 2, NameLen: 8, ValueLen: 10}
	h := newHarness(t, lim)
	h.OK(chatA, ana, false, "/pj crear Uno")
	h.OK(chatA, ana, false, "/pj crear Dos")
	h.Fails(chatA, ana, false, "/pj crear Tres", "already have 2 characters", "/pj delete NAME")
	h.OK(chatA, bob, false, "/pj crear Tres") // the quota is per user
	h.Fails(chatA, ana, false, "/pj crear Demasiado", "too long (9 characters; at most 8)")
	h.OK(chatA, ana, false, "/pj set a 1")
	h.OK(chatA, ana, false, "/pj set b 2")
	h.OK(chatA, ana, false, "/pj set b 3") // replacing is not adding
	h.Fails(chatA, ana, false, "/pj set c 3", "already has 2 values", "/pj unset NAME")
	h.Fails(chatA, ana, false, "/pj set a 12345678901", "too long (11 characters; at most 10)")
	h.Fails(chatA, ana, false, "/pj set nombrelargo 1", "too long (11 characters; at most 8)")
	out := h.OK(chatA, ana, false, "/pj")
	contains(t, out, "a 1", "b 3")
	lacks(t, out, "c 3", "1234")
}

func TestSheetsInterface(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	h.OK(chatA, ana, false, "/pj crear Drake")
	// Dungeon Hack state is written through SetSheetText by the owner or a GM.
	if err := h.Sheets.SetSheetText(ctx, chatA, ana.ID, false, "", dungeonhack.SheetWeaponUsage, "d6"); err != nil {
		t.Fatal(err)
	}
	if err := h.Sheets.SetSheetText(ctx, chatA, bob.ID, false, "@Drake", dungeonhack.SheetWeaponUsage, "d4"); err == nil {
		t.Fatal("bob changed Ana's character")
	}
	if err := h.Sheets.SetSheetText(ctx, chatA, bob.ID, true, "@Drake", dungeonhack.SheetWeaponUsage, "d4"); err != nil {
		t.Fatal(err)
	}
	got, err := h.Sheets.SheetText(ctx, chatA, bob.ID, "Drake", "uso-arma")
	if err != nil || got != "d4" {
		t.Fatalf("SheetText = %q, %v", got, err)
	}
	// English and Greek names of the equipment find the same value.
	h.OK(chatA, ana, false, "/pj set weapon long-sword")
	for _, name := range []string{"arma", "weapon", "Όπλο"} {
		got, err := h.Sheets.SheetText(ctx, chatA, ana.ID, "", name)
		if err != nil || got != "long-sword" {
			t.Fatalf("SheetText(%s) = %q, %v", name, got, err)
		}
	}
	if _, err := h.Sheets.SheetText(ctx, chatB, ana.ID, "Drake", "arma"); err == nil {
		t.Fatal("chat B read chat A's sheet")
	}
	if strings.Contains(h.OK(chatA, ana, false, "/pj"), "d6") {
		t.Fatal("usage die not replaced")
	}
}

// Concurrent edits of one sheet (players and a Dungeon Hack command at the
// same time) never lose a value.
func TestConcurrentEditsKeepEveryValue(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				if err := h.Sheets.SetSheetText(ctx, chatA, ana.ID, false, "", "v"+itoa(i), itoa(i)); err != nil {
					t.Error(err)
				}
				return
			}
			rep, _ := h.R.DispatchWith(ctx, core.Message{Chat: chatA, From: admin, FromGM: true, Text: "/pj set @Drake v" + itoa(i) + " " + itoa(i)}, nil)
			if rep.Error {
				t.Errorf("set v%d failed", i)
			}
		}()
	}
	wg.Wait()
	out := h.OK(chatA, ana, false, "/pj")
	for i := range 12 {
		contains(t, out, "v"+itoa(i)+" "+itoa(i))
	}
}

func TestRenameDeleteAndImportKeepActiveSelectionsRight(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	// Renaming keeps the sheet and the active selection.
	h.OK(chatA, ana, false, "/pj renombrar Draco")
	contains(t, h.OK(chatA, ana, false, "/pj"), "Draco", "fuerza 4")
	contains(t, h.OK(chatA, ana, false, "/check fuerza", 1), "= 5")
	h.Fails(chatA, ana, false, "/pj Drake", "no character «Drake»", "Did you mean Draco?")
	// A GM deleting Ana's active character leaves her without one.
	contains(t, h.OK(chatA, admin, true, "/pj borrar Draco"), "Draco was deleted")
	h.Fails(chatA, ana, false, "/check fuerza", "no active character")

	// An import drops the active selections of characters it replaces.
	h.OK(chatB, bob, false, "/pj crear Solo")
	h.OK(chatA, ana, false, "/pj crear Nova")
	_, rep := h.Send(chatA, ana, false, "/exportar")
	h.OK(chatB, admin, true, "/importar --replace "+string(rep.File.Data))
	h.Fails(chatB, bob, false, "/pj", "no active character")
	contains(t, h.OK(chatB, ana, false, "/pj"), "Nova")
	contains(t, h.OK(chatB, bob, false, "/pj lista"), "1 character", "Nova")
}

// A quota of one is said in the singular.
func TestQuotaOfOneIsSingular(t *testing.T) {
	h := newHarness(t, chattest.Limits{CharactersPerUser: 1, ValuesPerSheet: 1, AliasesPerUser: 1})
	h.OK(chatA, ana, false, "/pj crear Drake")
	out := h.Fails(chatA, ana, false, "/pj crear Enyra", "You already have 1 character in this chat, the limit.")
	lacks(t, out, "1 characters")
	h.OK(chatA, ana, false, "/pj set fuerza 1")
	h.Fails(chatA, ana, false, "/pj set destreza 1", "Drake already has 1 value, the limit.")
	h.OK(chatA, ana, false, "/alias a /check fuerza")
	h.Fails(chatA, ana, false, "/alias b /check fuerza", "You already have 1 saved roll here, the limit.")
}

// Hints name commands with the prefix the user typed: "!" on Matrix.
func TestHintsUseTheTypedPrefix(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	out := h.Fails(chatC, ana, false, "!pj", "!pj create")
	lacks(t, out, "/pj")
	contains(t, h.OK(chatC, ana, false, "!pj crear Drake"), "!pj set strength 4")
	contains(t, h.OK(chatC, ana, false, "/pj"), "/pj set strength 4")
	h.Fails(chatC, ana, false, "!alias x", "!alias NAME COMMAND")
	// A sheet read by another command, which passes no prefix: "/".
	h.Fails(chatC, ana, false, "!check fuerza", "/pj set fuerza")
}

// A capital of another script that looks like a Latin one makes a
// look-alike name even where its small letter does not: Cyrillic "Мira"
// (Em) beside "Mira", Greek "Νick" (Nu) beside "Nick". Created, renamed
// to or imported, it is refused and nothing changes (issue 10).
func TestLookAlikeCapitalsRefused(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, bob, false, "/pj crear Mira")
	h.OK(chatA, ana, false, "/pj crear Nick")
	h.Fails(chatA, ana, false, "/pj crear Мira", "looks just like Mira")
	h.Fails(chatA, bob, false, "/pj crear Νick", "looks just like Nick")
	h.Fails(chatA, ana, false, "/pj renombrar Nick Мira", "looks just like Mira")
	// Its own look-alike is no other character: renaming to it is fine.
	h.OK(chatA, ana, false, "/pj renombrar Nick Νick")
	h.OK(chatA, ana, false, "/pj renombrar Νick Nick")
	out := h.OK(chatA, ana, false, "/pj lista")
	contains(t, out, "2 characters", "Mira", "Nick")
	lacks(t, out, "Мira", "Νick")

	_, rep := h.Send(chatA, admin, true, "/exportar")
	doc := strings.Replace(string(rep.File.Data), `"name":"Nick"`, `"name":"Мira"`, 1)
	h.Fails(chatA, admin, true, "/importar "+doc, "look alike")
	contains(t, h.OK(chatA, ana, false, "/pj lista"), "Nick")
}

// A value named as a word of the roll notation could never be rolled
// ("1d20+vs" reads a target, "1d20+floor" a function, "dc12" a DC): /pj
// refuses the name with its own message. Names that only start like one
// stay names (fuerza, versus, floors, dc_bonus).
func TestValueNameThatReadsAsNotation(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	for _, name := range []string{"vs", "VS", "dc", "dc12", "cd", "contra", "κατά", "εναντίον", "floor", "abs", "round", "ceil"} {
		h.Fails(chatA, ana, false, "/pj set "+name+" 4", "«"+name+"» is a word of the roll notation")
	}
	for _, name := range []string{"versus", "floors", "dc_bonus", "contraataque", "absorb"} {
		h.OK(chatA, ana, false, "/pj set "+name+" 4")
	}
	out := h.OK(chatA, ana, false, "/pj")
	lacks(t, out, "vs 4", "dc 4", "floor 4")
	contains(t, out, "versus 4", "absorb 4")
}

// A word that can be neither a number a roll takes nor a value's name
// ("45%", "4,5", a number too big to read) is answered as such, with or
// without an active character, never with "set it with /pj set 45% VALUE",
// which /pj set refuses.
func TestUnreadableValueNameInARoll(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	for _, w := range []string{"45%", "4,5", "99999999999999999999", "-99999999999999999999"} {
		out := h.Fails(chatA, ana, false, "/check "+w, "«"+w+"» is neither a number I can read nor the name of a sheet value. Write a whole number, e.g. 4")
		lacks(t, out, "/pj set", "active character")
	}
	h.OK(chatA, ana, false, "/pj create Drake")
	out := h.Fails(chatA, ana, false, "/check 45%", "«45%» is neither a number")
	lacks(t, out, "/pj set")
	// What /pj set refuses, it says so itself: the hint is never a dead end.
	h.Fails(chatA, ana, false, "/pj set 45% 3", "45%")
	// Digits are a number however many there are: never a value's name
	// that "/rq 99999999999999999999" would then read.
	for _, w := range []string{"99999999999999999999", "1-2", "-0"} {
		h.Fails(chatA, ana, false, "/pj set "+w+" 45", "«"+w+"» looks like a number or a die")
	}
	// A real value is still read, and an unknown one still named.
	h.OK(chatA, ana, false, "/pj set fuerza 4")
	contains(t, h.OK(chatA, ana, false, "/check fuerza", 10), "d20 10 + fuerza 4 = 14")
	h.Fails(chatA, ana, false, "/check sigilo", "Drake has no value «sigilo»")
	if _, err := h.Sheets.SheetText(context.Background(), chatA, ana.ID, "", "4,5"); err == nil {
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
	h := newHarness(t, chattest.Limits{})
	for _, n := range []string{".", "'", "...", ".-'"} {
		h.Fails(chatA, ana, false, "/pj create "+n, "«"+n+"» can't be a character name: use one word of letters, digits, - or _")
	}
	// Letters drawn as nothing: the name would look empty.
	// (Alone, they are no name at all: the message is dropped of them.)
	for _, n := range []string{"\u3164", "\u115f\u1160"} {
		h.Fails(chatA, ana, false, "/pj create "+n, "/pj create Drake")
	}
	h.Fails(chatA, ana, false, "/pj create Dr\uffa0ake", "can't be a character name")
	h.Fails(chatA, ana, false, "/pj create Dr\u3164ake", "can't be a character name")
	h.Fails(chatA, ana, false, "/alias at\u3164k /check fuerza", "can't be a saved roll name")
	contains(t, h.OK(chatA, ana, false, "/pj list"), "No characters")
	h.OK(chatA, ana, false, "/pj create O'Brien")
	h.Fails(chatA, ana, false, "/pj rename ...", "«...» can't be a character name")
	for _, n := range []string{"fuerza.x", "o'k", "a’b", "'"} {
		h.Fails(chatA, ana, false, "/pj set "+n+" 3", "«"+n+"» can't be a value name: use one word of letters, digits, - or _")
	}
	h.OK(chatA, ana, false, "/pj set espada-larga 3")
	out := h.OK(chatA, ana, false, "/pj")
	contains(t, out, "O'Brien", "espada-larga 3")
	lacks(t, out, "fuerza.x", "o'k")
}

// TestValueWithoutItsVerb: "/pj fuerza 4" (no verb) or "/pj βάλε δύναμη
// 4" (a verb /pj does not take) is answered with the command that does
// it, in the chat's language, not the generic /pj help; nothing changes.
func TestValueWithoutItsVerb(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	ctx := context.Background()
	for chat, lang := range map[core.ChatRef]string{chatA: "es", chatB: "el"} {
		if err := h.DB.SaveSettings(ctx, chat, core.Settings{Lang: lang}); err != nil {
			t.Fatal(err)
		}
	}
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.Fails(chatA, ana, false, "/pj fuerza 4", "¿Quieres poner un valor? Escribe /pj poner fuerza 4")
	h.Fails(chatA, ana, false, "/pj pon fuerza 4", "Escribe /pj poner fuerza 4")
	h.Fails(chatA, ana, false, "/pj @Drake pv 14/14", "Escribe /pj poner @Drake pv 14/14")
	h.OK(chatB, ana, false, "/pj δημιουργία Δράκος")
	h.Fails(chatB, ana, false, "/pj βάλε δύναμη 4", "Θέλεις να ορίσεις μια τιμή; Γράψε /pj όρισε δύναμη 4")
	h.Fails(chatB, ana, false, "/pj δύναμη 4", "Γράψε /pj όρισε δύναμη 4")
	contains(t, h.OK(chatA, ana, false, "/pj"), "Aún sin valores")
	contains(t, h.OK(chatB, ana, false, "/pj"), "Καμία τιμή ακόμη")
}

// TestValueNamedInAnotherLanguage: a stat or skill typed in another
// language than the sheet's finds the sheet's value ("/zaria
// strength+athletics" on a sheet with fuerza and atletismo; "/pj set
// strength 5" changes fuerza), and no English value is offered.
func TestValueNamedInAnotherLanguage(t *testing.T) {
	h := newHarness(t, chattest.Limits{})
	h.OK(chatA, ana, false, "/pj crear Drake")
	h.OK(chatA, ana, false, "/pj poner fuerza 3 atletismo 2")
	contains(t, h.OK(chatA, ana, false, "/check strength", 10), "= 13")
	contains(t, h.OK(chatA, ana, false, "/check αθλητισμός", 10), "= 12")
	h.OK(chatA, ana, false, "/pj set strength 5")
	out := h.OK(chatA, ana, false, "/pj")
	contains(t, out, "fuerza 5", "atletismo 2")
	lacks(t, out, "strength")
}
