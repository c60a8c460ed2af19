package engine

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The odds walked by runs of the last pool's rolls (sym.go) are those of
// the walk roll by roll, rational for rational: every shipped file's
// checks, at its vectors' inputs and at random ones (seeded), with every
// house rule's choices.
func TestRunsEqualTheWalk(t *testing.T) {
	for _, key := range Shipped() {
		src, _ := ShippedSource(key)
		t.Run(key, func(t *testing.T) { runsAgree(t, src, 40) })
	}
}

// The same over a file written to reach every rule of sym.go: fractions
// of t (unknown: walked roll by roll), slopes below 0 and equal slopes,
// ==, !=, roundings of fractions, abs, min and max (a table's "-"), if,
// possible, not, or, a table, count_while, overrides, bands, a further
// result, a success expression, a total, a let that reads a second
// reading of the pool, a pool of several dice read by sum, a pool after
// the d100 whose size and lets read it (RQ's opposed roll).
func TestRunsEqualTheWalkEveryRule(t *testing.T) {
	runsAgree(t, []byte(everyRule), 400)
}

// runsAgree compares the two walks over the vectors' inputs and n random
// ones per check.
func runsAgree(t *testing.T, src []byte, n int) {
	t.Helper()
	fast, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := Load(src)
	slow.stepwise = true
	rng := rand.New(rand.NewPCG(7, 40))
	cases := 0
	for _, c := range fast.checks {
		var prs []Params
		for _, v := range fast.File.Vectors {
			if v.Check != "" && v.Check != c.def.Key || v.Check == "" && c != fast.checks[0] {
				continue
			}
			in, _ := fast.vectorInputs(v.Inputs)
			pas, _ := fast.vectorInputs(v.Passive)
			prs = append(prs, Params{Inputs: in, Passive: pas, Rules: v.Rules})
		}
		for range n {
			pr := Params{Inputs: randomInputs(rng, fast, c), Rules: map[string]string{}}
			if c.opposed {
				pr.Passive = randomInputs(rng, fast, c)
			}
			for _, h := range fast.File.HouseRules {
				pr.Rules[h.Key] = h.Choices[rng.IntN(len(h.Choices))].Key
			}
			prs = append(prs, pr)
		}
		for _, pr := range prs {
			for _, totals := range []bool{false, true} {
				a, errA := fast.computeOdds(c, pr, totals)
				b, errB := slow.computeOdds(c, pr, totals)
				if (errA == nil) != (errB == nil) {
					t.Fatalf("%s %v: runs %v, roll by roll %v", c.def.Key, pr, errA, errB)
				}
				if errA != nil {
					continue
				}
				if got, want := oddsText(a), oddsText(b); got != want {
					t.Fatalf("%s %v totals %v:\nruns         %s\nroll by roll %s", c.def.Key, pr, totals, got, want)
				}
				cases++
			}
		}
	}
	if cases == 0 {
		t.Fatal("no odds compared")
	}
}

// randomInputs gives each input of c a value in its range (or around
// it), or leaves it out now and then.
func randomInputs(rng *rand.Rand, s *System, c *check) map[string]int {
	m := map[string]int{}
	for _, k := range c.inputs {
		in := s.inputs[k]
		if rng.IntN(8) == 0 {
			continue
		}
		lo, hi := -30, 130
		switch {
		case in.Type == "flag":
			lo, hi = 0, 1
		case in.Min != nil:
			lo, hi = *in.Min, *in.Max
		case len(in.Parts) > 0:
			lo, hi = 0, 0
			for _, p := range in.Parts {
				lo, hi = lo+p.Min, hi+p.Max
			}
		}
		if hi-lo > 100_000 {
			lo, hi = -200, 200
		}
		m[k] = lo + rng.IntN(hi-lo+1)
	}
	return m
}

// oddsText is every rational of od, in order.
func oddsText(od *Odds) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exact %v success %s |", od.Exact, od.Success.RatString())
	rats := func(m map[string]*big.Rat) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%s", k, m[k].RatString())
		}
	}
	rats(od.Outcomes)
	also := make([]string, 0, len(od.Also))
	for k := range od.Also {
		also = append(also, k)
	}
	sort.Strings(also)
	for _, k := range also {
		fmt.Fprintf(&b, " | %s:", k)
		rats(od.Also[k])
	}
	b.WriteString(" | totals")
	for _, tp := range od.Totals {
		fmt.Fprintf(&b, " %s:%s", tp.Total.RatString(), tp.P.RatString())
	}
	return b.String()
}

// A d100 check (rq) goes by runs: a handful of leaves instead of 100. A
// pool read two ways at once by what follows it (everyRule's sum: its
// sum and its highest die, and a count and sum of the granting pool) has
// no reading that orders its rolls alone: it is walked roll by roll.
func TestRunsOrFallBack(t *testing.T) {
	// leaves walks check key; keys are its pools' runKey.
	leaves := func(s *System, key string, in map[string]int, runs bool) (n int, keys []int) {
		c, _ := s.check(key)
		e, _ := s.sides(c, Params{Inputs: in})
		w := newWalker(c, e)
		if runs {
			w.same = sameOdds
		}
		w.walk(e, 0, 1, 1, func(*env, int64, int64) { n++ })
		for _, ps := range w.steps {
			if ps.roll != nil {
				keys = append(keys, ps.runKey)
			}
		}
		return n, keys
	}
	if n, k := leaves(MustBuiltin("rq"), "roll", map[string]int{"skill": -5}, true); n != 5 || fmt.Sprint(k) != "[1]" {
		t.Fatalf("rq 45: %d leaves, pools ordered by %v, want 5 (critical, success, failure, fumble, 100) by [1] (the first reading)", n, k)
	}
	s, err := Load([]byte(everyRule))
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]int{"a": 0, "b": 0, "n": 2}
	want, _ := leaves(s, "sum", in, false)
	if n, k := leaves(s, "sum", in, true); n != want || fmt.Sprint(k) != "[-1 -1]" || n < 56 {
		t.Fatalf("sum: %d leaves, pools ordered by %v; want %d (as roll by roll), [-1 -1] (none)", n, k, want)
	}
}

const everyRule = `system: every
title: {es: Todo, el: Όλα, en: Every}
command: every
house_rules:
  - key: cut
    names: {es: Corte, el: Κόψιμο, en: Cut}
    default: low
    choices:
      - {key: low, names: {es: bajo, el: χαμηλό, en: low}}
      - {key: high, names: {es: alto, el: ψηλό, en: high}}
inputs:
  - {key: a, type: number, min: -40, max: 140, names: {es: a, el: α, en: a}}
  - {key: b, type: number, min: -9, max: 9, names: {es: b, el: β, en: b}}
  - {key: n, type: number, min: 0, max: 4, names: {es: n, el: ν, en: n}}
tables:
  - key: steps
    rows: {from: 1, to: 7}
    cells: [[95, 80, 61, 40, 22, 9, "-"]]
outcomes:
  - {key: top, success: true, names: {es: Alto, el: Ψηλά, en: Top}}
  - {key: mid, success: true, names: {es: Medio, el: Μέση, en: Mid}}
  - {key: low, success: false, names: {es: Bajo, el: Χαμηλά, en: Low}}
  - {key: odd, success: false, names: {es: Raro, el: Περίεργο, en: Odd}}
checks:
  - key: pct
    names: {es: pct, el: pct, en: pct}
    inputs: [a, b]
    steps:
      - {roll: p, dice: "2", faces: 10}
      - let: roll
        cases:
          - {when: "cut == 'high'", is: p.d100_zero}
          - {is: p.d100}
      - {let: x, is: "roll * 14 / 7 - b * 3"}
      - {let: y, is: "if(b < 0, floor(x), if(b == 0, ceil(x), if(b < 5, half_up(x), if(b < 8, half_even(x), trunc(x - 20)))))"}
      - {let: z, is: "abs(a - 2 * roll) + min(roll, a, 60) - max(b * roll - 9, 5)"}
      - {let: lv, is: "count_while(1, 7, roll <= steps(_) + b)"}
      - {let: h, is: "floor(if(roll > a, 7 / 2, -5 / 3)) + half_even(if(roll < b * 10, 5 / 2, 3 / 2))"}
      - {let: mm, is: "min(roll + h, steps(lv + 1), 90)"}
      - let: w
        cases:
          - {when: "roll == a or roll != a + 1 and not possible(steps(lv + 1))", is: "-roll"}
          - {when: "y >= z", is: "y - z"}
          - {is: "z * 2"}
    total: w
    result:
      overrides:
        - {when: "roll == 50", outcome: odd}
        - {when: "x < -3 and lv > 2", outcome: top}
        - {when: "not possible(mm) or mm > 75 + h", outcome: low}
      on: "w - a + lv * 10"
      bands:
        - {at_least: "40", outcome: top}
        - {above: "0", outcome: mid}
        - {at_least: "-20", outcome: low}
        - {outcome: odd}
      success: "roll <= a or lv >= 3"
    also:
      - key: second
        result:
          on: "half_down(y * 2 - 3)"
          bands:
            - {above: "10", outcome: top}
            - {outcome: low}
  - key: frac
    names: {es: fracción, el: κλάσμα, en: fraction}
    inputs: [a, b]
    steps:
      - {roll: p, dice: "1", faces: 100}
      - {let: x, is: "p.sum * 3 / 7 - b"}
      - {let: y, is: "if(a > 50, floor(x), half_up(x))"}
    total: y
    result:
      on: "y - a / 3"
      bands:
        - {at_least: "10", outcome: top}
        - {outcome: low}
  - key: sum
    names: {es: suma, el: άθροισμα, en: sum}
    inputs: [a, b, n]
    steps:
      - {roll: g, dice: n, faces: 6}
      - {roll: s, dice: "3 + g.count(6)", faces: 6}
      - {let: t, is: "s.sum + g.sum - a / 10"}
      - {let: u, is: "if(s.highest == 6, 1, 0)"}
    total: t
    result:
      overrides:
        - {when: "t == b + 9", outcome: odd}
      on: "t - b * 2"
      bands:
        - {above: "14", outcome: top}
        - {at_least: "8", outcome: mid}
        - {outcome: low}
  - key: opp
    names: {es: contra, el: ενάντια, en: versus}
    inputs: [a]
    opposed:
      compare: [lv, "if(lv == 0, -roll, 0)"]
      tie: passive
    steps:
      - {roll: p, dice: "1", faces: 100}
      - {let: roll, is: p.sum}
      - {let: lv, is: "count_while(1, 7, roll <= steps(_) + (a - opp.a) / 3)"}
    result:
      overrides:
        - {when: "won and active.lv > passive.lv + 1", outcome: top}
        - {when: won, outcome: mid}
      bands:
        - {outcome: low}
  - key: chain
    names: {es: cadena, el: αλυσίδα, en: chain}
    inputs: [a, b, n]
    steps:
      - {roll: p, dice: "1", faces: 100}
      - {let: roll, is: p.sum}
      - let: first
        cases:
          - {when: "roll <= a / 4", is: "2"}
          - {when: "roll <= a", is: "1"}
          - {when: "roll >= 96", is: "-1"}
          - {is: "0"}
      - {roll: q, dice: "if(first == 2 or first == -1, 1, if(roll > 90 - b, n, 0))", faces: 6}
      - {let: even, is: "q.sum / 2 == floor(q.sum / 2)"}
      - {let: late, is: "if(b > 0, q.sum + roll, q.highest * 2)"}
    total: "if(b > 5, late, first)"
    result:
      overrides:
        - {when: "first == 2 and even", outcome: top}
        - {when: "first >= 1", outcome: mid}
        - {when: "late > 50 + b", outcome: odd}
      bands:
        - {outcome: low}
vectors:
  - {name: one, inputs: {a: "50", b: "2"}, dice: [5, 10], expect: {outcome: odd}}
`

// Walks share a check's pool of walkers and its pools' sorted tuples:
// odds computed by several goroutines at once are those computed one by
// one (run it with -race too).
func TestRunsConcurrent(t *testing.T) {
	type job struct {
		sys, check string
		in         map[string]int
	}
	var jobs []job
	for sk := -20; sk <= 40; sk += 5 {
		jobs = append(jobs, job{"rq", "roll", map[string]int{"skill": sk}}, job{"rq", "opposed", map[string]int{"off": 50 + sk, "def": 45}})
	}
	for nh := 1; nh <= 15; nh += 2 {
		jobs = append(jobs, job{"daegon", "test", map[string]int{"nh": nh, "d": 3}})
	}
	for cp := 0; cp <= 8; cp += 2 {
		jobs = append(jobs, job{"kh", "test", map[string]int{"cap": cp, "s": 2, "i": 1, "dc": 15}})
	}
	want := make([]string, len(jobs))
	for i, j := range jobs {
		od, err := MustBuiltin(j.sys).Outcomes(j.check, Params{Inputs: j.in, Fresh: true})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = oddsText(od)
	}
	errs := make(chan string, 4*len(jobs))
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for k := range jobs {
				i := (k + g*7) % len(jobs)
				od, err := MustBuiltin(jobs[i].sys).Outcomes(jobs[i].check, Params{Inputs: jobs[i].in, Fresh: true})
				if err != nil || oddsText(od) != want[i] {
					errs <- fmt.Sprintf("%v: %v %v", jobs[i], err, od)
				}
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
