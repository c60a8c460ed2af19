package systems_test

import (
	"strings"
	"testing"
)

// The words of a Daegon, RQ or Kingdom Hearts check come in any order
// their file's inputs allow (engine.System.Parse): each shuffled
// command gives the very reply of the one in the file's order, with the
// same dice, and names what is wrong as the command always did.
func TestAnyOrderFromFiles(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Ana"
	sh.chars["ana"] = map[string]string{"fuerza": "4", "atletismo": "2"}
	sh.chars["elara"] = map[string]string{"fuerza": "7", "atletismo": "5"}
	b := newBot(t, sh)
	for _, c := range []struct {
		lang, ordered, typed string
		dice                 []int
		has                  string
	}{
		{"es", "/daegon 12 d3", "/daegon d3 12", []int{4, 5}, "45"},
		{"es", "/daegon 12 difícil", "/daegon difícil 12", []int{4, 5}, "45"},
		{"en", "/daegon 12 d 3", "/daegon d 3 12", []int{4, 5}, "45"},
		{"es", "/rq 45 difícil", "/rq difícil 45", []int{3}, "03"},
		{"el", "/rq 45 δύσκολο", "/rq δύσκολο 45", []int{3}, "03"},
		{"en", "/rq 60 vs 45", "/rq 60 vs 45", []int{30}, "30"},
		{"es", "/kh 6 2s 1i dc17", "/kh dc17 1i 2s 6", []int{4, 2, 6, 4, 3}, "17"},
		{"en", "/kh 6 2s dc17", "/kh 2s 6 dc17", []int{4, 2, 6, 3}, "17"},
		{"es", "/kh 4 muy difícil", "/kh muy difícil 4", []int{5}, "9"},
		{"es", "/kh @Elara 6 dc12", "/kh dc12 6 @Elara", []int{4}, "Elara"},
	} {
		want := text(b.roll(c.lang, c.ordered, c.dice...))
		got := text(b.roll(c.lang, c.typed, c.dice...))
		if got != want || !strings.Contains(got, c.has) {
			t.Errorf("%s %q: %q\n%q: %q (want %q in it)", c.lang, c.typed, got, c.ordered, want, c.has)
		}
	}
	run(t, b, []expect{
		{lang: "es", text: "/kh 6 dc17 18", errHas: "No entiendo «18»"},
		{lang: "es", text: "/daegon d3 25", errHas: "25"},
		{lang: "es", text: "/rq difícil 500", errHas: "500"},
	})
}
