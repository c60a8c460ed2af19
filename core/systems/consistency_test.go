package systems_test

import (
	"math/big"
	"testing"
)

// Every face combination through the chat command: the share of answers
// that succeed is exactly the chance the same command reports, with the
// chat's house rules applied to both.
func TestReportedChanceMatchesEveryRoll(t *testing.T) {
	b := newBot(t, nil)
	type roll struct {
		text  string
		dice  [][]int // the faces of each die, in order
		win   func(outcome, winner string, total *int) bool
		rules map[string]string
	}
	d := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	success := func(o, w string, _ *int) bool {
		switch o {
		case "success", "critical", "marginal", "major_success", "epic_win":
			return true
		}
		return false
	}
	activeWins := func(_, w string, _ *int) bool { return w == "active" }
	cases := []roll{
		{text: "/zaria 4+2 dc15", dice: [][]int{d(10), d(10)}, win: success},
		{text: "/zaria 3 dc12", dice: [][]int{d(10), d(10)}, win: success, rules: map[string]string{"zaria": "media_exacta"}},
		{text: "/zaria 7+5 dc20", dice: [][]int{d(10), d(10)}, win: success, rules: map[string]string{"zaria": "media_alta"}},
		{text: "/zaria npc 6 dc12", dice: [][]int{d(10)}, win: success, rules: map[string]string{"zaria_pnj_epico": "si"}},
		{text: "/zaria 5+3 vs npc 8", dice: [][]int{d(10), d(10), d(10)}, win: activeWins},
		{text: "/daegon 6 d3", dice: [][]int{d(10), d(10)}, win: success},
		{text: "/daegon 1 d4", dice: [][]int{d(10), d(10)}, win: success},
		{text: "/rq 45 normal", dice: [][]int{d(100)}, win: success},
		{text: "/rq 70 +0", dice: [][]int{d(100)}, win: success},
		{text: "/rq 60 vs 45", dice: [][]int{d(100), {2}}, win: activeWins},
		{text: "/dh uso d8", dice: [][]int{d(8)}, win: success},
		{text: "/dh montura", dice: [][]int{d(20)}, win: success},
		{text: "/dh ataque espada-larga vs coraza", dice: [][]int{d(8), d(6), d(6), d(6)}, win: func(_, _ string, tot *int) bool { return *tot > 1 }},
		{text: "/dh ataque espada-larga vs coraza", dice: [][]int{d(8), d(4), d(4), d(4)}, win: func(_, _ string, tot *int) bool { return *tot > 1 }, rules: map[string]string{"dh_blindaje": "mayor", "dh_dado": "d4"}},
	}
	for _, c := range cases {
		for k := range map[string]bool{"zaria": true, "zaria_pnj_epico": true, "dh_blindaje": true, "dh_dado": true} {
			b.set(k, "")
		}
		for k, v := range c.rules {
			b.set(k, v)
		}
		wins, total := 0, 0
		reported := ""
		faces := make([]int, len(c.dice))
		var walk func(i int)
		walk = func(i int) {
			if i == len(c.dice) {
				rep := b.rollSome("es", c.text, false, faces...)
				if rep.Error || rep.Check == nil {
					t.Fatalf("%s %v: %s", c.text, faces, text(rep))
				}
				if reported == "" {
					reported = rep.Check.ChanceExact
				} else if reported != rep.Check.ChanceExact {
					t.Fatalf("%s: the chance changed with the dice", c.text)
				}
				total++
				if c.win(rep.Check.Outcome, rep.Check.Winner, rep.Check.Total) {
					wins++
				}
				return
			}
			for _, f := range c.dice[i] {
				faces[i] = f
				walk(i + 1)
			}
		}
		walk(0)
		want, _ := new(big.Rat).SetString(reported)
		if got := big.NewRat(int64(wins), int64(total)); got.Cmp(want) != 0 {
			t.Errorf("%s %v: %d of %d rolls succeed (%s), the reply says %s", c.text, c.rules, wins, total, got.RatString(), reported)
		}
	}
}
