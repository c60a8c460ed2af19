package engine

import (
	"math/big"
	"strings"
	"testing"

	"zaria/core/dice"
)

// FuzzSystemFile feeds hostile files to the loader: it must refuse them
// or load them, never panic or run away; a file that loads answers a
// check's words, rolls, and gives odds that add up to 1.
func FuzzSystemFile(f *testing.F) {
	for _, k := range Shipped() {
		b, _ := ShippedSource(k)
		f.Add(b, "4+2 dc15")
		f.Add(b, "sigilo fuerza 2s -1i dc99999999999999999999 vs @x muy dificl")
	}
	f.Add([]byte(base), "2 tn12")
	f.Add([]byte(withReply(baseLayout)), "-3 tn12")
	f.Add([]byte(hitsFile), "twin +1 blades edge+2 2d8 vs μικρό θυρεό old8 ar+1 d4 3ar")
	if b, ok := ShippedSource("dh"); ok {
		f.Add(b, "espada larga 2d8 pen+2 n17 +3 carga vs coraza 3db absd8 d4 +1")
		f.Add(b, "pen-99999999999999999999 +99999999999999999999 vs d99999999999999999999 absd5 db+7")
	}
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"), "")
	f.Add([]byte(strings.Repeat("- ", 5000)), "x")
	f.Add([]byte("system: x\nchecks: [{steps: [{roll: p, dice: '999999999', faces: 1000}]}]"), "")
	f.Add([]byte(strings.Replace(base, "d.sum + bonus", "d.sum / 0 + 99999999999 * 99999999999", 1)), "1")
	f.Add([]byte(strings.Replace(base, `faces: 20}`, `faces: 20, explode: {on: [20], times: 10}}`, 1)), "1 tn 30")
	f.Fuzz(func(t *testing.T, src []byte, words string) {
		s, err := Load(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("not an *Error: %T %v", err, err)
			}
			return
		}
		// Each side of each check as a sub-command reads it: a value or
		// a ParseError, and what a named value gives within its table.
		left, right, _ := strings.Cut(words, " vs ")
		for _, c := range s.File.Checks {
			for i, ws := range []string{left, right} {
				if sd, err := s.ParseSide(c.Key, i == 1, strings.Fields(ws)); err == nil {
					for k, v := range sd.Inputs {
						s.Give(sd, k, v)
					}
				} else if _, ok := err.(*ParseError); !ok {
					t.Fatalf("ParseSide %s: not a ParseError: %v", c.Key, err)
				}
			}
		}
		p, err := s.Parse(strings.Fields(words))
		if err != nil {
			return
		}
		if _, err := s.Resolve(&p.Active, func(string) (int, error) { return 1, nil }); err != nil {
			return
		}
		pr := Params{Inputs: p.Active.Inputs}
		if p.Passive != nil {
			if _, err := s.Resolve(p.Passive, func(string) (int, error) { return 1, nil }); err != nil {
				return
			}
			pr.Passive = p.Passive.Inputs
		}
		res, err := s.Roll(p.Check, pr, dice.Seeded(1))
		if err != nil {
			return
		}
		// A file's layout writes any roll of it (layout.go).
		s.Layout(res, p, pr, ReplyIn{Lang: "el", T: func(k string, _ map[string]any) string { return k },
			Chance: func() string { return "1 %" }, ChanceRat: func() *big.Rat { return big.NewRat(1, 2) },
			Percent: func(r *big.Rat) string { return r.RatString() }})
		s.JSONOutcome(res, pr)
		od, err := s.Odds(p.Check, pr)
		if err != nil {
			return
		}
		sum := new(big.Rat)
		for _, q := range od.Outcomes {
			sum.Add(sum, q)
		}
		if od.Exact && sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("outcomes add up to %s", sum.RatString())
		}
	})
}
