package engine

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"zaria/core/dice"
)

// countFile counts a pool against thresholds the chat gives: at least
// t+1 (a value of the input), exactly t, at most t−1, on d6 that explode
// once on a 6 (a die of 7..12), and on a die of the chat's faces_of.
const countFile = `
system: countx
title: {es: Umbral, el: Κατώφλι, en: Threshold}
command: cx
inputs:
  - {key: n, type: number, min: 0, max: 3, names: {es: dados, el: ζάρια, en: dice}}
  - {key: t, type: number, min: -3, max: 14, prefixes: [t], names: {es: umbral, el: κατώφλι, en: threshold}}
  - {key: f, type: number, min: 2, max: 8, default: 4, prefixes: [f], names: {es: caras, el: έδρες, en: faces}}
outcomes:
  - {key: hit, success: true, names: {es: acierto, el: επιτυχία, en: hit}}
  - {key: miss, success: false, names: {es: fallo, el: αποτυχία, en: miss}}
checks:
  - key: roll
    names: {es: tirada, el: ρίψη, en: roll}
    inputs: [n, t]
    steps:
      - {let: need, is: t + 1}
      - {roll: d, dice: n, faces: 6, explode: {on: [6], times: 1}}
      - {let: over, is: d.count_ge(need)}
      - {let: joint, is: "100 * d.count_ge(t + 1) + 10 * d.count(t) + d.count_le(t - 1)"}
    total: joint
    result:
      on: over
      bands:
        - {at_least: "1", outcome: hit}
        - {outcome: miss}
  - key: faces
    names: {es: caras, el: έδρες, en: faces}
    inputs: [n, t, f]
    steps:
      - {let: need, is: t + f / 2}
      - {roll: g, dice: n, faces_of: f}
      - {let: over, is: g.count_ge(need)}
    total: over
    result:
      on: over
      bands:
        - {at_least: "1", outcome: hit}
        - {outcome: miss}
example: {es: 2 t3, el: 2 t3, en: 2 t3}
vectors:
  - {name: threshold 3, inputs: {n: "3", t: "3"}, dice: [3, 1, 6, 5], expect: {outcome: hit, total: "111", values: {over: "1"}}}
  - {name: exploded past it, inputs: {n: "2", t: "9"}, dice: [6, 4, 5], expect: {outcome: hit, total: "101", values: {over: "1"}}}
  - {name: none over, inputs: {n: "2", t: "5"}, dice: [5, 1], expect: {outcome: miss, total: "11"}}
  - {name: faces, check: faces, inputs: {n: "2", t: "1", f: "6"}, dice: [4, 3], expect: {outcome: hit, values: {over: "1"}}}
`

// oneDie is a d6 exploding once on a 6: each value and its weight out of 36.
func oneDie() map[int]int64 {
	w := map[int]int64{}
	for v := 1; v <= 5; v++ {
		w[v] = 6
	}
	for k := 1; k <= 6; k++ {
		w[6+k] = 1
	}
	return w
}

// bruteJoint is the chance of each joint total by every sequence of n
// dice: the independent count the engine's odds must match.
func bruteJoint(n, t int) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	den := big.NewInt(1)
	for range n {
		den.Mul(den, big.NewInt(36))
	}
	var rec func(i int, d []int, w int64)
	rec = func(i int, d []int, w int64) {
		if i == n {
			ge, eq, le := 0, 0, 0
			for _, v := range d {
				if v >= t+1 {
					ge++
				}
				if v == t {
					eq++
				}
				if v <= t-1 {
					le++
				}
			}
			k := fmt.Sprint(100*ge + 10*eq + le)
			if out[k] == nil {
				out[k] = new(big.Rat)
			}
			out[k].Add(out[k], new(big.Rat).SetFrac(big.NewInt(w), den))
			return
		}
		for v, vw := range oneDie() {
			rec(i+1, append(d, v), w*vw)
		}
	}
	rec(0, nil, 1)
	return out
}

// A count whose threshold is an expression of the inputs (count_ge(t + 1),
// count(t), count_le(t − 1)) has the exact odds of every sequence of the
// pool counted against that threshold, for every threshold, those past
// the die's values included, the same System answering each in turn.
func TestCountThresholdExpressionOdds(t *testing.T) {
	s, err := Load([]byte(countFile))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= 3; n++ {
		for th := -3; th <= 14; th++ {
			od, err := s.Odds("roll", Params{Inputs: map[string]int{"n": n, "t": th}})
			if err != nil {
				t.Fatal(err)
			}
			if !od.Exact {
				t.Fatalf("%dd6 t%d: sampled", n, th)
			}
			got := map[string]string{}
			for _, tp := range od.Totals {
				got[tp.Total.RatString()] = tp.P.RatString()
			}
			want := map[string]string{}
			for k, p := range bruteJoint(n, th) {
				want[k] = p.RatString()
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%dd6 t%d: %v, every sequence gives %v", n, th, got, want)
			}
		}
	}
}

// faces_of and a threshold of the inputs together: a pool per faces and
// threshold, each with its own odds (1 − ((need−1)/f)^n of a die at
// least need).
func TestCountThresholdWithFacesOf(t *testing.T) {
	s, err := Load([]byte(countFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []int{2, 4, 6, 8} {
		for th := -1; th <= 6; th++ {
			need := th + f/2
			miss := big.NewRat(int64(min(max(need-1, 0), f)), int64(f))
			p, _, err := s.Chance("faces", Params{Inputs: map[string]int{"n": 2, "t": th, "f": f}})
			if err != nil {
				t.Fatal(err)
			}
			want := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(miss, miss))
			if p.Cmp(want) != 0 {
				t.Errorf("2d%d at least %d: %s, want %s", f, need, p.RatString(), want.RatString())
			}
		}
	}
}

// A threshold that is no whole number when rolled is refused by name; one
// that reads the dice, or a reading other than a count given an
// expression, refuses the file.
func TestCountThresholdRefused(t *testing.T) {
	half := strings.Replace(countFile, "{let: need, is: t + f / 2}", "{let: need, is: t / 2 + f / 2}", 1)
	half = strings.Replace(half, `inputs: {n: "2", t: "1", f: "6"}`, `inputs: {n: "2", t: "2", f: "6"}`, 1)
	s, err := Load([]byte(half))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Roll("faces", Params{Inputs: map[string]int{"n": 2, "t": 1, "f": 6}}, dice.NewScripted([]int{4, 3}))
	var e *Error
	if !errors.As(err, &e) || e.Key != "engine.error.count_arg" || e.Args["pool"] != "g" {
		t.Errorf("a threshold of 7/2: %v", err)
	}
	if _, err := s.Odds("faces", Params{Inputs: map[string]int{"n": 2, "t": 1, "f": 6}}); !errors.As(err, &e) || e.Key != "engine.error.count_arg" {
		t.Errorf("odds at a threshold of 7/2: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"d.count_ge(need)", "d.count_ge(d.sum)", "d.count_ge: the threshold reads the inputs, not the dice"},
		{"100 * d.count_ge(t + 1)", "100 * d.count_ge(over)", "d.count_ge: the threshold reads the inputs, not the dice"},
		{"g.count_ge(need)", "g.count_ge(d.size)", "no pool"},
		{"d.count_ge(need)", "d.die(need)", "d.die takes a whole number"},
		{"d.count_ge(need)", "d.any(t)", "d.any takes a whole number"},
	} {
		src := strings.Replace(countFile, c.from, c.to, 1)
		if src == countFile {
			t.Fatalf("%s is not in the file", c.from)
		}
		if _, err := Load([]byte(src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
}
