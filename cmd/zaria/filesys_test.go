package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The six systems shipped as files answer issue 34's table through
// zaria roll --json --dice: the dice in the table's order, the fields it
// names, the outcome's name in the chat's language in the text.
func TestFileSystemsRollJSON(t *testing.T) {
	for _, c := range []struct {
		lang, dice, cmd string
		want            map[string]any // the --json fields that must hold
		text            string         // in the reply's text
	}{
		// Call of Cthulhu: the units die, then each tens die.
		{"es", "3,4,2", "/coc 65 bono 1", map[string]any{"system": "coc", "outcome": "hard", "total": 23.0, "chance_exact": "7/8"}, "Éxito difícil"},
		{"en", "3,4,2", "/coc 65 penalty 1", map[string]any{"outcome": "success", "total": 43.0}, "Regular success"},
		{"el", "10,10", "/coc 65", map[string]any{"outcome": "fumble", "total": 100.0}, "Μοιραία αποτυχία"},
		{"es", "6,9", "/cthulhu 45", map[string]any{"outcome": "fumble", "total": 96.0}, "Pifia"},
		{"en", "1,10", "/coc 65 extreme", map[string]any{"outcome": "critical", "total": 1.0, "chance_exact": "13/100"}, "Critical"},
		{"es", "5,5", "/coc 65 difícil", map[string]any{"outcome": "success", "chance_exact": "8/25"}, "Éxito normal"},
		// Vampire V5: the last Hunger dice of the pool.
		{"es", "3,4,2,7,10,10,5", "/v5 7 hambre 2 dif 3", map[string]any{"outcome": "messy_critical", "successes": 5.0}, "Crítico sucio"},
		{"en", "7,2,1,8", "/vampire 4 hunger 2 diff 3", map[string]any{"outcome": "bestial_failure", "successes": 2.0}, "Bestial failure"},
		{"el", "2,3,5", "/v5 3 πείνα 1", map[string]any{"outcome": "total_failure", "successes": 0.0}, "Ολική αποτυχία"},
		// Warhammer: one d100, Success Levels.
		{"es", "23", "/wfrp 45", map[string]any{"outcome": "success", "level": 2.0, "total": 23.0}, "NE +2"},
		{"en", "77", "/wfrp 45 combat", map[string]any{"outcome": "fumble", "level": -3.0}, "Fumble"},
		{"el", "33", "/wfrp 45 μάχη", map[string]any{"outcome": "critical", "level": 1.0}, "Κρίσιμο χτύπημα"},
		// PbtA: two d6 and the modifier.
		{"es", "4,4", "/pbta +2", map[string]any{"outcome": "strong_hit", "total": 10.0, "chance_exact": "5/6"}, "Éxito total"},
		{"en", "3,4", "/pbta 0", map[string]any{"outcome": "weak_hit", "total": 7.0}, "Weak hit"},
		{"el", "1,5", "/pbta", map[string]any{"outcome": "miss", "total": 6.0}, "Αποτυχία"},
		// Fate: four dF (1 −, 2 blank, 3 +); the ladder in the chat's language.
		{"es", "3,3,2,2", "/fate +3 contra 2", map[string]any{"outcome": "style", "total": 5.0, "level": 3.0, "ladder": "Soberbio"}, "Éxito con estilo"},
		{"en", "1,3,2,2", "/fate +2 vs fair", map[string]any{"outcome": "tie", "total": 2.0, "ladder": "Fair"}, "Tie"},
		{"el", "1,1,2,3", "/fate +2 εναντίον 3", map[string]any{"outcome": "failure", "level": -2.0, "ladder": "Μέσο"}, "Αποτυχία"},
		{"en", "3,2,2,2", "/fate +2", map[string]any{"total": 3.0, "ladder": "Good"}, "Good"},
		// Savage Worlds: the trait die's rolls, then the Wild Die's.
		{"es", "8,3,2", "/sw d8 +1", map[string]any{"outcome": "raise", "total": 12.0, "level": 2.0}, "Éxito con aumento"},
		{"en", "1,1", "/sw d10 +2", map[string]any{"outcome": "critical_failure", "total": 3.0}, "Critical failure"},
		{"el", "1", "/sw d10 +2 κομπάρσος", map[string]any{"outcome": "failure", "total": 3.0}, "Αποτυχία"},
		{"en", "10,3", "/savage d12 vs 6", map[string]any{"outcome": "raise", "level": 1.0}, "Raise"},
	} {
		out, errs, code := zaria(t, "", env(), "roll", "--json", "--lang", c.lang, "--dice", c.dice, c.cmd)
		if code != 0 {
			t.Errorf("%s %q: exit %d: %s%s", c.lang, c.cmd, code, out, errs)
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%q: %v\n%s", c.cmd, err, out)
		}
		for k, v := range c.want {
			if obj[k] != v {
				t.Errorf("%s %q --dice %s: %s = %v, want %v\n%s", c.lang, c.cmd, c.dice, k, obj[k], v, out)
			}
		}
		if text, _ := obj["text"].(string); !strings.Contains(text, c.text) {
			t.Errorf("%s %q: text %q lacks %q", c.lang, c.cmd, text, c.text)
		}
	}
}

// A wrong word or value is named in the chat's language, with what to
// type instead, and nothing is rolled.
func TestFileSystemsBadInput(t *testing.T) {
	for _, c := range []struct{ lang, cmd, want string }{
		{"es", "/coc", "Falta «habilidad». Por ejemplo: /coc 65 bono 1"},
		{"en", "/v5 7 hunger 9", "The hunger goes from 0 to 5; you wrote hunger 9."},
		{"el", "/sw δ5", "Δεν καταλαβαίνω το «δ5»"},
		{"es", "/fate +1 contra 1 contra 2", "Has escrito «oposición» dos veces"},
		{"en", "/wfrp 200", "The target goes from 1 to 150"},
	} {
		out, errs, code := zaria(t, "", env(), "roll", "--lang", c.lang, c.cmd)
		if code == 0 || !strings.Contains(out+errs, c.want) || strings.Contains(out+errs, "🎲") {
			t.Errorf("%s %q: exit %d, %q, want %q", c.lang, c.cmd, code, out+errs, c.want)
		}
	}
}

// /odds of each file system: the exact chance of success and of each
// outcome, in the chat's language, the same figures as the check's 📊.
func TestFileSystemsOdds(t *testing.T) {
	for _, c := range []struct {
		lang, cmd string
		want      []string
	}{
		{"es", "/odds coc 65 bono 1", []string{"🎯 éxito: 87,5 %", "Éxito difícil", "Pifia"}},
		{"el", "/odds v5 7 πείνα 2", []string{"🎯 επιτυχία: 99,22 %", "Βρόμικη κρίσιμη επιτυχία"}},
		{"en", "/odds wfrp 45 combat", []string{"🎯 success: 45%", "Critical", "Fumble"}},
		{"es", "/odds pbta +1", []string{"🎯 éxito: 72,22 %", "Éxito parcial"}},
		{"en", "/odds fate +3 vs good", []string{"🎯 success: 38.27%", "Success with style"}},
		{"en", "/odds savage d6 +1", []string{"🎯 success: 88.89%", "Raise", "Critical failure"}},
	} {
		out, errs, code := zaria(t, "", env(), "roll", "--lang", c.lang, c.cmd)
		if code != 0 {
			t.Errorf("%s %q: exit %d %s%s", c.lang, c.cmd, code, out, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %q lacks %q:\n%s", c.lang, c.cmd, w, out)
			}
		}
	}
}
