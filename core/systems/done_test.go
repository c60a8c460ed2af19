package systems_test

import (
	"strings"
	"testing"
)

// The issue's "done when": the five example commands answer in es, el and
// en with the odds shown.
func TestIssueExamplesInThreeLanguages(t *testing.T) {
	b := newBot(t, nil)
	examples := []struct {
		text   string
		dice   []int
		chance string
	}{
		{"/zaria 4+2 dc15?", []int{3, 8}, "3/50"},
		{"/daegon 12 vs 7?", []int{9, 8, 3, 10}, "229/250"},
		{"/rq 45 normal?", []int{7}, "13/20"},
		{"/kh 6 +2s +1i dc17?", []int{4, 2, 6, 4, 3}, "79763/279936"},
		{"/dh ataque espada-larga vs coraza?", []int{6, 1, 2, 1}, "35/1728"},
		{"/dh ataque mayal vs coraza d4 +1?", []int{8, 1, 1, 1}, ""},
	}
	odds := map[string][]string{
		"es": {"Probabilidad", "Prob. de que gane", "Daño por encima"},
		"el": {"Πιθανότητα", "Ζημιά πάνω από"},
		"en": {"Chance", "Damage above"},
	}
	for _, lang := range []string{"es", "el", "en"} {
		for _, ex := range examples {
			rep := b.roll(lang, ex.text, ex.dice...)
			out := text(rep)
			if rep.Error || rep.Check == nil {
				t.Errorf("%s %s: %s", lang, ex.text, out)
				continue
			}
			if ex.chance != "" && rep.Check.ChanceExact != ex.chance {
				t.Errorf("%s %s: chance %s, want %s", lang, ex.text, rep.Check.ChanceExact, ex.chance)
			}
			found := false
			for _, o := range odds[lang] {
				found = found || strings.Contains(out, "📊 "+o)
			}
			if !found {
				t.Errorf("%s %s: no odds line in %q", lang, ex.text, out)
			}
			if len(bold(rep)) == 0 {
				t.Errorf("%s %s: no emphasis in %q", lang, ex.text, out)
			}
			if lines := strings.Count(out, "\n") + 1; lines > 7 {
				t.Errorf("%s %s: %d lines, too long for a phone: %q", lang, ex.text, lines, out)
			}
		}
	}
	// mayal (1d8, Pen 3) vs coraza worn by a caster (3 DB d4) and a shield +1:
	// 8 − (1+1+1+1) = 4.
	if rep := b.roll("es", "/dh ataque mayal vs coraza d4 +1", 8, 1, 1, 1); rep.Check == nil || *rep.Check.Total != 4 {
		t.Errorf("mayal: %q", text(rep))
	}
}
