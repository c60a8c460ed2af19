package engine

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"zaria/core/dice"
)

// pathSource plays a prefix of faces, then 1s, recording every draw's
// number of sides: the odometer of enumerate walks every sequence of
// draws a check can make, however many dice its earlier dice ask for.
type pathSource struct {
	prefix []int
	faces  []int
	sides  []int
}

func (p *pathSource) IntN(n int) int {
	v := 1
	if i := len(p.faces); i < len(p.prefix) {
		v = p.prefix[i]
	}
	p.faces = append(p.faces, v)
	p.sides = append(p.sides, n)
	return v - 1
}

// enumerate rolls check key of s with every sequence of faces, calling
// visit with the result, the faces and the sequence's chance.
func enumerate(t *testing.T, s *System, key string, pr Params, visit func(r *Result, faces []int, p *big.Rat)) int {
	t.Helper()
	var prefix []int
	n := 0
	for {
		src := &pathSource{prefix: prefix}
		r, err := s.Roll(key, pr, src)
		if err != nil {
			t.Fatal(err)
		}
		p := big.NewRat(1, 1)
		for _, sd := range src.sides {
			p.Mul(p, big.NewRat(1, int64(sd)))
		}
		visit(r, src.faces, p)
		n++
		// The next sequence: the last draw below its top face goes up,
		// everything after it is drawn anew.
		i := len(src.faces) - 1
		for i >= 0 && src.faces[i] == src.sides[i] {
			i--
		}
		if i < 0 {
			return n
		}
		prefix = append(append([]int(nil), src.faces[:i]...), src.faces[i]+1)
	}
}

// bruteCheck enumerates every roll of a check, asks oracle (the rules
// written out in Go, apart from the file) for each roll's outcome, and
// compares the enumeration's chances with the engine's exact odds:
// every outcome's and the success's.
func bruteCheck(t *testing.T, sysKey string, cases []map[string]int, oracle func(in map[string]int, faces []int) (outcome string, success bool)) {
	t.Helper()
	s, err := Builtin(sysKey)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range cases {
		pr := Params{Inputs: in}
		outs := map[string]*big.Rat{}
		succ := new(big.Rat)
		seqs := enumerate(t, s, "", pr, func(r *Result, faces []int, p *big.Rat) {
			o, ok := oracle(in, faces)
			if o != r.Outcome || ok != r.Success {
				t.Fatalf("%s %v %v: the file says %s (success %v), the rules %s (%v)", sysKey, in, faces, r.Outcome, r.Success, o, ok)
			}
			if outs[o] == nil {
				outs[o] = new(big.Rat)
			}
			outs[o].Add(outs[o], p)
			if ok {
				succ.Add(succ, p)
			}
		})
		od, err := s.Odds("", pr)
		if err != nil {
			t.Fatal(err)
		}
		if !od.Exact {
			t.Errorf("%s %v: odds not exact", sysKey, in)
		}
		if od.Success.Cmp(succ) != 0 {
			t.Errorf("%s %v: chance %s, enumerated %s (%d sequences)", sysKey, in, od.Success.RatString(), succ.RatString(), seqs)
		}
		for k, p := range outs {
			if q := od.Outcomes[k]; q == nil || q.Cmp(p) != 0 {
				t.Errorf("%s %v: %q %v, enumerated %s", sysKey, in, k, q, p.RatString())
			}
		}
		if len(od.Outcomes) != len(outs) {
			t.Errorf("%s %v: outcomes %v, enumerated %v", sysKey, in, od.Outcomes, outs)
		}
	}
}

// Call of Cthulhu 7e (docs/coc.md): every roll of the units die and up to
// three tens dice, read as the Keeper Rulebook reads them.
func TestCoCOddsBruteForce(t *testing.T) {
	var cases []map[string]int
	for _, skill := range []int{1, 45, 49, 50, 65, 100} {
		for _, bp := range [][2]int{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 1}} {
			cases = append(cases, map[string]int{"skill": skill, "bonus": bp[0], "penalty": bp[1], "level": 1})
		}
	}
	for _, bp := range [][2]int{{0, 0}, {1, 0}, {0, 1}} {
		for level := 2; level <= 3; level++ {
			cases = append(cases, map[string]int{"skill": 65, "bonus": bp[0], "penalty": bp[1], "level": level})
		}
	}
	bruteCheck(t, "coc", cases, func(in map[string]int, f []int) (string, bool) {
		u := f[0] % 10
		val := func(t int) int {
			if t%10 == 0 && u == 0 {
				return 100
			}
			return (t%10)*10 + u
		}
		r := val(f[1])
		for _, t := range f[2:] {
			if in["bonus"] > in["penalty"] {
				r = min(r, val(t))
			} else {
				r = max(r, val(t))
			}
		}
		sk := in["skill"]
		reached := 0
		switch {
		case r == 1 || r <= sk/5:
			reached = 3
		case r <= sk/2:
			reached = 2
		case r <= sk && r < 100:
			reached = 1
		}
		ok := reached >= in["level"]
		switch {
		case r == 1:
			return "critical", ok
		case r == 100 || (r >= 96 && sk < 50 && r > sk):
			return "fumble", ok
		}
		return [...]string{"failure", "success", "hard", "extreme"}[reached], ok
	})
}

// Vampire V5 (docs/v5.md): every roll of pools of 1 to 4 dice with 0 to
// 5 Hunger dice, and of 5 dice with 2.
func TestV5OddsBruteForce(t *testing.T) {
	cases := []map[string]int{{"pool": 5, "hunger": 2, "diff": 3}}
	for pool := 1; pool <= 4; pool++ {
		for hunger := 0; hunger <= 5; hunger += 2 {
			for _, diff := range []int{1, 2, 3, 5} {
				cases = append(cases, map[string]int{"pool": pool, "hunger": hunger, "diff": diff})
			}
		}
	}
	bruteCheck(t, "v5", cases, func(in map[string]int, f []int) (string, bool) {
		nh := min(in["hunger"], in["pool"])
		succ, tens, hTen, hOne := 0, 0, false, false
		for i, d := range f {
			hungerDie := i >= len(f)-nh
			if d >= 6 {
				succ++
			}
			if d == 10 {
				tens++
				hTen = hTen || hungerDie
			}
			hOne = hOne || (hungerDie && d == 1)
		}
		succ += tens / 2 * 2
		win := succ >= in["diff"]
		switch {
		case win && tens >= 2 && hTen:
			return "messy_critical", true
		case win && tens >= 2:
			return "critical", true
		case win:
			return "success", true
		case hOne:
			return "bestial_failure", false
		case succ == 0:
			return "total_failure", false
		}
		return "failure", false
	})
}

// Warhammer Fantasy 4e (docs/wfrp.md): every d100 at targets across the
// range, in and out of combat.
func TestWFRPOddsBruteForce(t *testing.T) {
	var cases []map[string]int
	for _, target := range []int{1, 4, 5, 6, 45, 95, 96, 100, 120, 150} {
		for combat := 0; combat <= 1; combat++ {
			cases = append(cases, map[string]int{"target": target, "combat": combat})
		}
	}
	bruteCheck(t, "wfrp", cases, func(in map[string]int, f []int) (string, bool) {
		r := f[0]
		ok := r <= 5 || (r <= in["target"] && r < 96)
		double := r == 100 || (r > 10 && r/10 == r%10)
		switch {
		case in["combat"] == 1 && double && ok:
			return "critical", true
		case in["combat"] == 1 && double:
			return "fumble", false
		case ok:
			return "success", true
		}
		return "failure", false
	})
}

// Powered by the Apocalypse (docs/pbta.md): every 2d6 at every modifier.
func TestPbtAOddsBruteForce(t *testing.T) {
	var cases []map[string]int
	for mod := -6; mod <= 6; mod++ {
		cases = append(cases, map[string]int{"mod": mod})
	}
	bruteCheck(t, "pbta", cases, func(in map[string]int, f []int) (string, bool) {
		switch t := f[0] + f[1] + in["mod"]; {
		case t >= 10:
			return "strong_hit", true
		case t >= 7:
			return "weak_hit", true
		}
		return "miss", false
	})
}

// Fate (docs/fate.md): every 4dF against oppositions across the ladder,
// and without one (no outcome: the total and its ladder name only).
func TestFateOddsBruteForce(t *testing.T) {
	var cases []map[string]int
	for _, skill := range []int{-4, 0, 2, 5, 10} {
		for _, opp := range []int{-4, 0, 2, 4, 12} {
			cases = append(cases, map[string]int{"skill": skill, "opp": opp})
		}
		cases = append(cases, map[string]int{"skill": skill})
	}
	bruteCheck(t, "fate", cases, func(in map[string]int, f []int) (string, bool) {
		opp, ok := in["opp"]
		if !ok {
			return "", false
		}
		t := in["skill"]
		for _, d := range f {
			t += d - 2
		}
		switch sh := t - opp; {
		case sh >= 3:
			return "style", true
		case sh >= 1:
			return "success", true
		case sh == 0:
			return "tie", false
		}
		return "failure", false
	})
}

// Savage Worlds (docs/sw.md): every roll of each trait die and the Wild
// Die, aces included (to the depth the file rolls them), for Wild Cards
// and extras.
func TestSWOddsBruteForce(t *testing.T) {
	var cases []map[string]int
	for _, die := range []int{4, 6, 8, 10, 12} {
		for _, c := range [][3]int{{0, 4, 0}, {2, 6, 0}, {-2, 4, 0}, {0, 4, 1}, {1, 9, 1}} {
			cases = append(cases, map[string]int{"die": die, "mod": c[0], "target": c[1], "extra": c[2]})
		}
	}
	bruteCheck(t, "sw", cases, func(in map[string]int, f []int) (string, bool) {
		times := map[int]int{4: 10, 6: 7, 8: 5, 10: 4, 12: 4}
		// The trait die: its aces, then the roll that stopped.
		trait, i := 0, 0
		for k := 0; ; k++ {
			trait += f[i]
			i++
			if f[i-1] != in["die"] || k == times[in["die"]] {
				break
			}
		}
		best, wild := trait, 0
		if in["extra"] == 0 {
			for k := 0; ; k++ {
				wild += f[i]
				i++
				if f[i-1] != 6 || k == times[6] {
					break
				}
			}
			best = max(trait, wild)
		}
		if i != len(f) {
			t.Fatalf("sw %v %v: %d dice read", in, f, i)
		}
		total := best + in["mod"]
		switch {
		case in["extra"] == 0 && trait == 1 && wild == 1:
			return "critical_failure", false
		case total >= in["target"]+4:
			return "raise", true
		case total >= in["target"]:
			return "success", true
		}
		return "failure", false
	})
}

// Savage Worlds' aces against the open-ended exploding dice of the dice
// notation (/odds of 1d8! and 1d6!, explosions cut where the rest weighs
// under 10⁻¹²; the better of two independent dice reaches a total unless
// neither does): the chance of every total up to 41, where the file's
// aces stop, is the open-ended one, for each trait die, Wild Card or
// extra.
func TestSWAcesMatchTheConvolution(t *testing.T) {
	s, err := Builtin("sw")
	if err != nil {
		t.Fatal(err)
	}
	ace := func(faces int, target int64) *big.Rat {
		e, err := dice.Parse(fmt.Sprintf("1d%d!", faces))
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(nil)
		if err != nil || !o.HasDistribution() {
			t.Fatalf("1d%d!: %v", faces, err)
		}
		return o.AtLeast([]int64{target})[0]
	}
	one := big.NewRat(1, 1)
	for _, die := range []int{4, 6, 8, 10, 12} {
		for extra := 0; extra <= 1; extra++ {
			od, err := s.Odds("", Params{Inputs: map[string]int{"die": die, "mod": 0, "target": 4, "extra": extra}})
			if err != nil {
				t.Fatal(err)
			}
			for target := int64(2); target <= 41; target++ {
				got := new(big.Rat)
				for _, tp := range od.Totals {
					if tp.Total.Cmp(big.NewRat(target, 1)) >= 0 {
						got.Add(got, tp.P)
					}
				}
				want := ace(die, target)
				if extra == 0 {
					neither := new(big.Rat).Mul(new(big.Rat).Sub(one, want), new(big.Rat).Sub(one, ace(6, target)))
					want = new(big.Rat).Sub(one, neither)
				}
				g, _ := got.Float64()
				w, _ := want.Float64()
				if math.Abs(g-w) > 1e-12 {
					t.Errorf("d%d extra %d, total ≥ %d: engine %.15g, convolution %.15g", die, extra, target, g, w)
				}
			}
		}
	}
}

// V5's pools past what brute force can roll (up to 15 dice, 10¹⁵
// sequences): the engine's successes against core/dice's FoldPool, which
// folds the same statistic face by face (6+ one, each pair of 10s two
// more), exact to the fraction.
func TestV5SuccessesMatchFoldPool(t *testing.T) {
	s, err := Builtin("v5")
	if err != nil {
		t.Fatal(err)
	}
	type acc struct{ succ, tens int64 }
	for _, pool := range []int{6, 10, 15} {
		want, err := dice.FoldPool(dice.FairDie(10), pool, acc{}, func(a acc, face int64, count int) acc {
			if face >= 6 {
				a.succ += int64(count)
			}
			if face == 10 {
				a.tens += int64(count)
			}
			return a
		}, func(a acc) int64 { return a.succ + a.tens/2*2 })
		if err != nil {
			t.Fatal(err)
		}
		od, err := s.Odds("", Params{Inputs: map[string]int{"pool": pool, "hunger": 0, "diff": 1}})
		if err != nil {
			t.Fatal(err)
		}
		if !od.Exact || len(od.Totals) == 0 {
			t.Fatalf("pool %d: exact %v, %d totals", pool, od.Exact, len(od.Totals))
		}
		den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(pool)), nil).Int64()
		counts, ok := want.Counts(den) // how many of the 10^pool rolls give each total
		if !ok {
			t.Fatalf("pool %d: FoldPool's distribution is not out of 10^%d", pool, pool)
		}
		sum := new(big.Rat)
		for _, tp := range od.Totals {
			n := tp.Total.Num().Int64()
			w := new(big.Rat)
			if i := n - want.Min(); i >= 0 && i < int64(len(counts)) {
				w.SetFrac64(counts[i], den)
			}
			if w.Cmp(tp.P) != 0 {
				t.Errorf("pool %d: %d successes %s, FoldPool %s", pool, n, tp.P.RatString(), w.RatString())
			}
			sum.Add(sum, tp.P)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("pool %d: the totals add up to %s", pool, sum.RatString())
		}
	}
}

// The page's form of each of the six file systems: every field labelled
// in the asked language, its range and its named values (the Fate ladder,
// the Call of Cthulhu levels, the Savage Worlds trait dice) localized too.
func TestSixFileSystemsForms(t *testing.T) {
	want := map[string]map[string][]string{ // system → lang → the labels of its fields
		"coc":  {"es": {"habilidad", "dados de bonificación", "dados de penalización", "nivel pedido"}, "el": {"δεξιότητα", "ζάρια μπόνους", "ζάρια ποινής", "ζητούμενο επίπεδο"}, "en": {"skill", "bonus dice", "penalty dice", "level asked"}},
		"v5":   {"es": {"reserva", "hambre", "dificultad"}, "el": {"δεξαμενή ζαριών", "πείνα", "δυσκολία"}, "en": {"pool", "hunger", "difficulty"}},
		"wfrp": {"es": {"objetivo", "combate"}, "el": {"στόχος", "μάχη"}, "en": {"target", "combat"}},
		"pbta": {"es": {"modificador"}, "el": {"τροποποιητής"}, "en": {"modifier"}},
		"fate": {"es": {"habilidad", "oposición"}, "el": {"δεξιότητα", "αντίσταση"}, "en": {"skill", "opposition"}},
		"sw":   {"es": {"modificador", "dado de rasgo", "objetivo", "extra"}, "el": {"τροποποιητής", "ζάρι γνωρίσματος", "στόχος", "κομπάρσος"}, "en": {"modifier", "trait die", "target number", "extra"}},
	}
	choice := map[string]map[string]string{"coc": {"es": "difícil", "el": "δύσκολο", "en": "hard"}, "fate": {"es": "Bueno", "el": "Καλό", "en": "Good"}, "sw": {"es": "d8", "el": "δ8", "en": "d8"}}
	for sys, langs := range want {
		s, err := Builtin(sys)
		if err != nil {
			t.Fatal(err)
		}
		for lang, labels := range langs {
			fs := s.Forms(lang)
			if len(fs) != 1 || len(fs[0].Fields) != len(labels) {
				t.Fatalf("%s %s: forms %+v", sys, lang, fs)
			}
			found := choice[sys][lang] == ""
			for i, fd := range fs[0].Fields {
				if fd.Label != labels[i] {
					t.Errorf("%s %s: field %d labelled %q, want %q", sys, lang, i, fd.Label, labels[i])
				}
				if fd.Kind == "number" && fd.Min >= fd.Max {
					t.Errorf("%s %s: %s range %d..%d", sys, lang, fd.Key, fd.Min, fd.Max)
				}
				for _, c := range fd.Choices {
					found = found || c.Label == choice[sys][lang]
				}
			}
			if !found {
				t.Errorf("%s %s: no choice %q", sys, lang, choice[sys][lang])
			}
		}
	}
}
