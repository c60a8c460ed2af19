package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core/reply"
)

// outsider3 reads a file of the third outsider
// (core/systems/engine/testdata/outsider3).
func outsider3(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "core", "systems", "engine", "testdata", "outsider3", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// A chat's own file with a show.reply is written by its layout, as a
// shipped file's: Mörk Borg's attack writes the d20 and the ability, the
// total against the DR, the outcome, the weapon's damage on its own line
// (doubled on a crit), then the chance; --json gives the outcome, the
// total and the chance as a shipped file's roll does.
func TestOwnFileReplyLayout(t *testing.T) {
	d := newForkDesk(t)
	for _, chat := range []string{"es", "el", "en"} {
		if chat != "es" {
			d.want(d.send(chat, true, "/lang "+chat), false)
		}
		d.want(d.send(chat, true, "/sistema importar\n"+outsider3(t, "morkborg")), false, "/mb")
	}
	for _, c := range []struct {
		chat, text string
		dice       []int
		want       []string
	}{
		{"es", "/mb +2 dr14", []int{12}, []string{"🎲 12 + +2 = 14 ≥ 14\nÉxito\n📊 Probabilidad: 45 %"}},
		{"el", "/mb ataque +2 δυσκ14", []int{20, 3}, []string{"🎲 20 + +2 = 22 ≥ 14\nΚρίσιμο\n🗡 3 → 🩸 6\n📊 Πιθανότητα: 45 %"}},
		{"en", "/mb attack -1 dr12 d6", []int{5}, []string{"🎲 5 + −1 = 4 ≥ 12\nFailure\n📊 Chance: 40%"}},
	} {
		rep := d.send(c.chat, false, c.text, c.dice...)
		d.want(rep, false, c.want...)
		if rep.Check == nil || rep.Check.Chance == nil {
			t.Errorf("%s %s: no --json facts: %+v", c.chat, c.text, rep.Check)
		}
	}
	rep := d.send("en", false, "/mb attack +2 dr14", 20, 3)
	if ck := rep.Check; ck == nil || ck.Outcome != "crit" || ck.Total == nil || *ck.Total != 22 || fmt.Sprint(rep.Data["damage"]) != "6" {
		t.Errorf("--json facts: %+v %v", ck, rep.Data)
	}
	if got := reply.PlainText(rep); strings.Contains(got, "20💀 → 🗡") {
		t.Errorf("the plain look: %q", got)
	}
}

// An opposed check of a chat's own file writes each side's dice apart:
// GURPS' Quick Contest (3d6 each side), Pendragon's opposed d20.
func TestOwnFileOpposedSidesApart(t *testing.T) {
	d := newForkDesk(t)
	for _, chat := range []string{"es", "el", "en"} {
		if chat != "es" {
			d.want(d.send(chat, true, "/lang "+chat), false)
		}
		d.want(d.send(chat, true, "/sistema importar\n"+outsider3(t, "gurps")), false, "/gurps")
		d.want(d.send(chat, true, "/sistema importar\n"+outsider3(t, "pendragon")), false, "/pen")
	}
	d.want(d.send("es", false, "/gurps 12 vs 12", 3, 3, 3, 4, 4, 4), false, "🎲 3 3 3 = 9 vs 🎲 4 4 4 = 12\nGana")
	d.want(d.send("el", false, "/gurps 12 vs 12", 3, 3, 3, 4, 4, 4), false, "🎲 3 3 3 = 9 vs 🎲 4 4 4 = 12\nΝίκη")
	d.want(d.send("en", false, "/pen 12 vs 10", 5, 9), false, "🎲 5 = 5 vs 🎲 9 = 9")
	// A signed modifier typed again is named twice; a "vs" with nothing
	// after it asks for the other side's value.
	d.want(d.send("es", false, "/gurps 12 -2 -1"), true, "Has escrito «modificador» dos veces («-1»).")
	d.want(d.send("el", false, "/gurps 12 +1 −3"), true, "Έγραψες δύο φορές την τιμή «τροποποιητής» («−3»).")
	d.want(d.send("en", false, "/gurps 12 -2 -1"), true, "You wrote the modifier twice («-1»).")
	d.want(d.send("es", false, "/pen 12 vs"), true, "Falta el valor después de «vs». Escribe, por ejemplo: /pen 12 vs 12")
	d.want(d.send("el", false, "/gurps 12 -2 vs"), true, "Λείπει η τιμή μετά το «vs». Γράψε, για παράδειγμα: /gurps 12 -2 vs 12 -2")
	d.want(d.send("en", false, "/pen 12 contra"), true, "«contra» needs a value after it. Type, for example: /pen 12 contra 12")
}

// --dice counts right: too few values name how many the roll needs (a
// V5 pool of 9 dice given 7: at least 9, not 8), in the chat's
// language; values left over are ignored (a vector may list a follow-up
// die the roll did not need), by zaria roll and zaria system try alike.
func TestDiceFlagCounts(t *testing.T) {
	for _, c := range []struct{ lang, dice, text, want string }{
		{"en", "1,2,3,4,5,6,7", "/v5 9", "--dice: 7 given, but this roll needs at least 9."},
		{"en", "1,2", "/roll 4d6", "--dice: 2 given, but this roll needs at least 4."},
	} {
		out, errs, code := zaria(t, "", env(), "roll", "--lang", c.lang, "--dice", c.dice, c.text)
		if code != exitUser || !strings.Contains(errs, c.want) {
			t.Errorf("%s --dice %s %s: exit %d, %q%q, want %q", c.lang, c.dice, c.text, code, out, errs, c.want)
		}
	}
	out, errs, code := zaria(t, "", env(), "roll", "--dice", "6,6,6,1", "/roll 3d6")
	if code != 0 || !strings.Contains(out, "18") {
		t.Errorf("a die left over: exit %d, %q%q", code, out, errs)
	}
	file := filepath.Join("..", "..", "core", "systems", "engine", "testdata", "outsider3", "gurps.yaml")
	code, out, errs = runZaria(t, "system", "try", "--dice", "1,2,3,4", file, "12")
	if code != 0 {
		t.Errorf("system try with a die left over: exit %d, %q%q", code, out, errs)
	}
	code, out, errs = runZaria(t, "system", "try", "--dice", "1", file, "12")
	if code == 0 || !strings.Contains(errs, "only 1 given, the roll needs at least 3") {
		t.Errorf("system try with too few: exit %d, %q%q", code, out, errs)
	}
}

// zaria system try reads no sheet: a word the chat would read as a sheet
// key is refused, on either side, not rolled as 0.
func TestSystemTryRefusesSheetKeys(t *testing.T) {
	file := filepath.Join("..", "..", "core", "systems", "engine", "testdata", "outsider3", "gurps.yaml")
	for _, words := range []string{"foo", "12 vs foo"} {
		code, out, errs := runZaria(t, "system", "try", "--dice", "3,3,3", file, words)
		if code != exitUser || !strings.Contains(errs, "no value «foo»") || strings.Contains(out, "dice") {
			t.Errorf("%q: exit %d, %q%q", words, code, out, errs)
		}
	}
}

// An own file's examples are counted in the chat's grammar: one example,
// not "1 examples".
func TestImportOneExample(t *testing.T) {
	var kept []string
	for _, l := range strings.Split(outsider3(t, "morkborg"), "\n") {
		if strings.HasPrefix(l, "  - {name: M") && !strings.HasPrefix(l, "  - {name: M1 ") {
			continue
		}
		kept = append(kept, l)
	}
	src := strings.Join(kept, "\n")
	d := newForkDesk(t)
	for _, c := range []struct{ chat, imported, listed string }{
		{"es", "(1 ejemplo comprobado)", "archivo propio, 1 ejemplo comprobado"},
		{"el", "(1 παράδειγμα ελεγμένο)", "δικό σας αρχείο, 1 παράδειγμα ελεγμένο"},
		{"en", "(1 example checked)", "own file, 1 example checked"},
	} {
		if c.chat != "es" {
			d.want(d.send(c.chat, true, "/lang "+c.chat), false)
		}
		d.want(d.send(c.chat, true, "/sistema importar\n"+src), false, c.imported)
		d.want(d.send(c.chat, true, "/sistema"), false, c.listed)
	}
	d.want(d.send("en", true, "/sistema importar\n"+outsider3(t, "gurps")), false, "(28 examples checked)")
}

// --json of an own file's roll without a reply layout gives the check's
// facts as a shipped file's: outcome, dice, total, level, the exact
// chance (20/27: 3d6 ≤ 12; 4249/7776: oddsA.py's gurps_quick(12, 11));
// an opposed one its winner.
func TestOwnFileJSONFacts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "z.db")
	if out, errs, code := zaria(t, "", env(), "roll", "--lang", "en", "--db", db, "--user", "gm", "/sistema importar\n"+outsider3(t, "gurps")); code != 0 {
		t.Fatalf("import: %d %q%q", code, out, errs)
	}
	for _, c := range []struct{ dice, text string }{
		{"3,4,2", "/gurps 12"},
		{"3,4,2,5,5,5", "/gurps 12 vs 11"},
	} {
		out, errs, code := zaria(t, "", env(), "roll", "--json", "--db", db, "--user", "gm", "--dice", c.dice, c.text)
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
			t.Fatalf("%s: %d %v %q%q", c.text, code, err, out, errs)
		}
		want := map[string]any{"outcome": "success", "total": 9.0, "level": 3.0, "chance_exact": "20/27", "system": "gurps"}
		if strings.Contains(c.text, "vs") {
			want = map[string]any{"outcome": "win", "total": 9.0, "winner": "active", "chance_exact": "4249/7776"}
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v (%s)", c.text, k, got[k], v, out)
			}
		}
		if fmt.Sprint(got["dice"]) != "["+strings.ReplaceAll(c.dice, ",", " ")+"]" {
			t.Errorf("%s: dice %v", c.text, got["dice"])
		}
	}
}
