package systems_test

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// TestFiveSystemsSayTheSameThings: issue 23, item 5. Daegon stated its
// chance twice ("D3 (difícil): 58 % → Fallo" and "📊 Probabilidad: 58 %"),
// "/zaria 4+2" with no DC gave no outcome and no word why while Daegon and
// RQ took a default, and "Ζαριά 6, 4 → 5" never said 5 was the average.
// Every check with a difficulty now states its chance once, on one 📊
// line; one without a difficulty either takes a default and says so
// (Daegon, RQ) or says why it has no outcome and what to type (Ζαριά, KH).
func TestFiveSystemsSayTheSameThings(t *testing.T) {
	b := newBot(t, nil)
	threes := []int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}
	for _, text := range []string{"/daegon 7 d3", "/rq 45 -30", "/zaria 4+2 dc15", "/kh 6 +2s +1i dc17", "/dh ataque espada-larga vs coraza",
		"/daegon 12 vs 7", "/rq 45 vs 30", "/zaria 4+2 vs 3+3"} {
		out := text2(b.rollSome("es", text, false, threes...))
		if n := strings.Count(out, "📊"); n != 1 {
			t.Errorf("%s: %d 📊 lines:\n%s", text, n, out)
		}
		pct := out[strings.LastIndex(out, "📊"):]
		if i := strings.IndexAny(pct, "0123456789"); i >= 0 {
			num := pct[i:]
			num = num[:strings.IndexFunc(num, func(r rune) bool { return !strings.ContainsRune("0123456789,", r) })]
			if strings.Count(out, num+" %") > 1 {
				t.Errorf("%s states its chance %s %% twice:\n%s", text, num, out)
			}
		}
	}
	for text, want := range map[string]string{
		"/daegon 7":  "Sin dificultad indicada: D2 (media).",
		"/rq 45":     "Sin dificultad indicada: algo fácil (0).",
		"/zaria 4+2": "Sin CD: compara el total con la que diga el máster, o escríbela: /zaria 4+2 dc15",
		"/kh 6 +2s":  "Sin dificultad: compara el total con la que diga el máster, o escríbela: /kh 6 +2s dc17",
	} {
		if out := text2(b.rollSome("es", text, false, threes...)); !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", text, want, out)
		}
	}
	for lang, want := range map[string]string{"es": "Ζαριά 3, 8 → media 5", "el": "Ζαριά 3, 8 → μέσος όρος 5", "en": "Ζαριά 3, 8 → average 5"} {
		if out := text2(b.roll(lang, "/zaria 4+2 dc15", 3, 8)); !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", lang, want, out)
		}
	}
}

func text2(r *reply.Reply) string { return reply.PlainText(r) }
