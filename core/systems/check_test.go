package systems_test

import (
	"strings"
	"testing"

	"zaria/core/roll"
)

// A check and its /odds read the words and the sheets with the same code
// (the commands' read step): the same words give the same error in both,
// a misspelt Kingdom Hearts difficulty the same "did you mean".
func TestOddsReadLikeTheCheck(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Bestia"
	sh.chars["bestia"] = map[string]string{"fisico": "6", "sigilo": "30"}
	b := newBot(t, sh)
	roll.RegisterOdds(b.r)
	for _, c := range []struct{ lang, args, want string }{
		{"es", "kh 6 dificl", "¿Quisiste decir «difícil»?"},
		{"es", "kh 21 dc17", "La Capacidad va de 0 a 20; has puesto 21"},
		{"en", "daegon sigilo d3", "30"},
		{"es", "zaria 99+2 dc15", "99"},
		{"es", "rq 45 vs @Nadie espadas", "Nadie"},
	} {
		check := text(b.roll(c.lang, "/"+c.args))
		odds := b.roll(c.lang, "/odds "+c.args)
		if !odds.Error || !strings.Contains(text(odds), c.want) || !strings.Contains(check, c.want) {
			t.Errorf("%s %q: check %q, odds %q (error=%v), want both to say %q", c.lang, c.args, check, text(odds), odds.Error, c.want)
		}
	}
}
