package roll

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// TestAdvantageWords: ventaja, adv, πλεονέκτημα… after a roll with one
// d20 roll it twice and keep the higher (or lower); the reply says so
// under the head, and the exact odds count it (issue 26, item 4).
func TestAdvantageWords(t *testing.T) {
	r := newRouter(t, nil)
	cases := []struct {
		lang, in string
		dice     []int
		want     string
	}{
		{"es", "/tirar 1d20+5 ventaja", []int{3, 17}, "🎲 2d20kh1+5\nVentaja: 2d20kh1, el mayor de dos d20\n[(3), 17] + 5 = 22"},
		{"es", "/tirar 1d20+5 Desventaja", []int{3, 17}, "🎲 2d20kl1+5\nDesventaja: 2d20kl1, el menor de dos d20\n[3, (17)] + 5 = 8"},
		{"el", "!ρίξε 1δ20+2 πλεονέκτημα", []int{9, 4}, "🎲 2d20kh1+2\nΠλεονέκτημα: 2d20kh1, το μεγαλύτερο από δύο d20\n[9, (4)] + 2 = 11"},
		{"el", "!ρίξε d20 ΜΕΙΟΝΕΚΤΗΜΑ", []int{9, 4}, "🎲 2d20kl1\nΜειονέκτημα: 2d20kl1, το μικρότερο από δύο d20\n[(9), 4] = 4"},
		{"en", "/roll 1d20+5 adv vs 15 ?", []int{3, 12}, "🎲 2d20kh1+5\nAdvantage: 2d20kh1, the higher of two d20\n[(3), 12] + 5 = 17\n🎯 Against 15: ✅ Success\n📊 Chance: 79.75% · mean 18.83"},
		{"en", "/roll 1d20r1+1d4 disadvantage # sneak", []int{5, 1, 7, 2}, "🎲 2d20kl1r1+1d4 · sneak\nDisadvantage: 2d20kl1, the lower of two d20\n[5, (1↻7)] + [2] = 7"},
		{"en", "/roll d20 dis", []int{5, 6}, "🎲 2d20kl1\nDisadvantage: 2d20kl1, the lower of two d20\n[5, (6)] = 5"},
	}
	for _, c := range cases {
		rep := run(t, r, c.lang, c.in, c.dice...)
		if got := plain(rep); got != c.want || rep.Error {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
	errs := []struct{ lang, in, want string }{
		{"es", "/tirar 3d6 ventaja", "⚠️ «ventaja» convierte un d20 en 2d20kh1 (ventaja) o 2d20kl1 (desventaja), y «3d6» no tira ningún d20. Prueba: /tirar 1d20+5 ventaja, o escríbelo: /tirar 2d20kh1+5"},
		{"en", "/roll 2d20+5 adv", "⚠️ «adv» turns one d20 into 2d20kh1 (advantage) or 2d20kl1 (disadvantage), and «2d20+5» rolls 2 d20. Try: /roll 1d20+5 adv, or write it: /roll 2d20kh1+5"},
		{"el", "!ρίξε 1d20+1d20 πλεονέκτημα", "⚠️ Το «πλεονέκτημα» μετατρέπει ένα d20 σε 2d20kh1 (πλεονέκτημα) ή σε 2d20kl1 (μειονέκτημα), ενώ το «1d20+1d20» ρίχνει 2 d20. Δοκίμασε: !ρίξε 1d20+5 πλεονέκτημα, ή γράψ' το: !ρίξε 2d20kh1+5"},
		{"es", "/tirar 1d20kh1 ventaja", "⚠️ «1d20kh1» ya se queda con unos dados o los descarta, así que «ventaja» no puede añadirle un d20. Escribe la tirada entera: /tirar 2d20kh1+5"},
	}
	for _, c := range errs {
		rep := run(t, r, c.lang, c.in)
		if got := plain(rep); got != c.want || !rep.Error {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
	// a name that happens to be "adv" stays a name where it is part of the sum
	rep := run(t, newRouter(t, sheets{".adv": 2}), "en", "/roll 1d20 + adv", 10)
	if got := plain(rep); got != "🎲 1d20 + adv\n[10] + adv (2) = 12" {
		t.Errorf("1d20 + adv: %q", got)
	}
}

// TestAdvantageOdds: /odds 1d20+5 ventaja is the distribution of
// 2d20kh1+5, said so under its head.
func TestAdvantageOdds(t *testing.T) {
	r := oddsRouter(t)
	rep := run(t, r, "es", "/probabilidad 1d20+5 ventaja | 1d20+5")
	got := plain(rep)
	for _, want := range []string{"📊 A 2d20kh1+5\nVentaja: 2d20kh1, el mayor de dos d20\nMedia 18,83", "📊 B 1d20+5\nMedia 15,5"} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant %q", got, want)
		}
	}
}

// TestDivisionRoundingShown: a bare / that drops a fraction says so, with
// the fraction; a whole division says nothing (issue 24: Roll20 keeps
// the fraction, zaria rounds down and shows it).
func TestDivisionRoundingShown(t *testing.T) {
	r := newRouter(t, nil)
	for _, c := range []struct{ lang, in, want string }{
		{"es", "/tirar 7/2", "🎲 7/2\n7 / 2 = 3\n➗ 7 / 2 = 3,5 → 3: una división redondea hacia abajo (round( ) redondea al más cercano, ceil( ) hacia arriba)"},
		{"en", "/roll -7/2", "🎲 −7/2\n−7 / 2 = −4\n➗ −7 / 2 = −3.5 → −4: a division rounds down (round( ) rounds, ceil( ) rounds up)"},
		{"el", "/roll 10/3", "🎲 10/3\n10 / 3 = 3\n➗ 10 / 3 = ≈3,33 → 3: η διαίρεση στρογγυλεύει προς τα κάτω (το round( ) στο πλησιέστερο, το ceil( ) προς τα πάνω)"},
		{"en", "/roll 8/2", "🎲 8/2\n8 / 2 = 4"},
		{"en", "/roll round(7/2)", "🎲 round(7/2)\nround(7 / 2) = 4"},
	} {
		rep := run(t, r, c.lang, c.in)
		if got := plain(rep); got != c.want || rep.Error {
			t.Errorf("%s %q:\n%s\nwant\n%s", c.lang, c.in, got, c.want)
		}
	}
}

// TestMarksInEveryFormat: cs/cf marks, min/max marks and ≥ reach the
// text of every platform (plain for the console, HTML for Telegram and
// Matrix), and the exact odds of a marked roll are those of the roll
// without the marks.
func TestMarksInEveryFormat(t *testing.T) {
	r := newRouter(t, nil)
	rep := run(t, r, "en", "/roll 2d20cs>19cf1+1d6min3 ?", 20, 1, 2)
	want := "🎲 2d20cs≥19cf1+1d6min3\n[20★, 1💀] + [3↑] = 24"
	if got := plain(rep); !strings.HasPrefix(got, want) {
		t.Errorf("plain:\n%s\nwant\n%s", got, want)
	}
	if got := reply.HTML(rep, "\n"); !strings.Contains(got, "[20★, 1💀] + [3↑] = <b>24</b>") || !strings.Contains(got, "<code>2d20cs≥19cf1+1d6min3</code>") {
		t.Errorf("HTML:\n%s", got)
	}
	plainOdds := plain(run(t, r, "en", "/roll 2d20+1d6min3 ?", 20, 1, 2))
	if a, b := lastLine(plain(rep)), lastLine(plainOdds); a != b {
		t.Errorf("odds with marks %q, without %q", a, b)
	}
}

func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }
