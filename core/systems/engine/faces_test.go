package engine

import (
	"math/big"
	"strings"
	"testing"

	"zaria/core/dice"
)

// damage is a file whose dice's faces come from the inputs: n dice of s
// faces against k armour dice of a faces, summed; the damage never below 0.
const damage = `system: dmg
title: {es: Daño, el: Ζημιά, en: Damage}
command: dmg
inputs:
  - {key: n, type: number, min: 1, max: 10, names: {es: dados, el: ζάρια, en: dice}}
  - {key: s, type: number, min: 2, max: 20, names: {es: caras, el: έδρες, en: faces}}
  - {key: k, type: number, min: 0, max: 10, names: {es: armadura, el: πανοπλία, en: armour}}
  - {key: a, type: number, min: 2, max: 12, default: 6, names: {es: dado de armadura, el: ζάρι πανοπλίας, en: armour die}}
outcomes:
  - {key: hit, success: true, names: {es: daño, el: ζημιά, en: damage}}
  - {key: none, success: false, names: {es: nada, el: τίποτα, en: none}}
checks:
  - key: attack
    names: {es: ataque, el: επίθεση, en: attack}
    inputs: [n, s, k, a]
    steps:
      - {roll: d, dice: n, FACES}
      - {roll: b, dice: k, faces_of: a}
      - {let: total, is: "max(0, d.sum - b.sum)"}
    total: total
    result:
      on: total
      bands:
        - {above: "0", outcome: hit}
        - {outcome: none}
vectors:
  - {name: d8 vs 2d6, inputs: {n: "1", s: "8", k: "2"}, dice: [8, 3, 4], expect: {total: "1", outcome: hit}}
  - {name: d12 vs d4, inputs: {n: "1", s: "12", k: "1", a: "4"}, dice: [3, 4], expect: {total: "0", outcome: none}}
  - {name: d8 vs 1d6 chance, inputs: {n: "1", s: "8", k: "1"}, expect: {chance: 9/16}}
`

// A pool's faces may come from the inputs (faces_of): each size its own
// die, rolled with its faces (as zaria roll --dice checks them), and its
// exact odds.
func TestFacesOf(t *testing.T) {
	s, err := Load([]byte(strings.Replace(damage, "FACES", `faces_of: s`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Roll("attack", Params{Inputs: map[string]int{"n": 2, "s": 10, "k": 1, "a": 4}}, dice.NewScripted([]int{10, 9, 4}))
	if err != nil || r.Total.Cmp(big.NewRat(15, 1)) != 0 || len(r.Sides) != 3 || r.Sides[0] != 10 || r.Sides[2] != 4 {
		t.Fatalf("%+v %v", r, err)
	}
	// Faces outside 2..1,000 when rolled: the faces limit, no die drawn.
	if _, err := s.Roll("attack", Params{Inputs: map[string]int{"n": 1, "s": 1, "k": 0}}, dice.NewScripted([]int{1})); err == nil || !strings.Contains(err.Error(), "faces") {
		t.Errorf("a d1: %v", err)
	}
	for _, c := range []struct{ edit, want string }{
		{`faces_of: s, faces: 6`, "faces or faces_of, not both"},
		{`faces_of: s, explode: {on: [2], times: 1}`, "does not explode"},
		{`faces_of: "n + zz"`, "zz"},
	} {
		if _, err := Load([]byte(strings.Replace(damage, "FACES", c.edit, 1))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.edit, err, c.want)
		}
	}
	// Faces read from the dice are refused: a pool's size is known before it is rolled.
	dyn := strings.Replace(strings.Replace(damage, "FACES", "faces: 6", 1), "faces_of: a", "faces_of: d.sum", 1)
	if _, err := Load([]byte(dyn)); err == nil || !strings.Contains(err.Error(), "not the dice") {
		t.Errorf("faces from the dice: %v", err)
	}
}

// A check whose rolls outnumber an int64 (10d20 against ten d12: 20¹⁰ ×
// 12¹⁰ ≈ 6·10²³) still has exact odds: its damage's distribution sums to
// 1, and P(no damage) is the convolution's, computed here apart.
func TestWideOddsExact(t *testing.T) {
	s, err := Load([]byte(strings.Replace(damage, "FACES", `faces_of: s`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	od, err := s.Odds("attack", Params{Inputs: map[string]int{"n": 10, "s": 20, "k": 10, "a": 12}})
	if err != nil || !od.Exact {
		t.Fatalf("%v exact=%v", err, od != nil && od.Exact)
	}
	sum := new(big.Rat)
	for _, tp := range od.Totals {
		sum.Add(sum, tp.P)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("the distribution sums to %s", sum.RatString())
	}
	ways := func(n, s int) []*big.Int { // ways n dice of s faces sum to x
		c := []*big.Int{big.NewInt(1)}
		for range n {
			next := make([]*big.Int, len(c)+s)
			for i := range next {
				next[i] = new(big.Int)
			}
			for x, k := range c {
				for f := 1; f <= s; f++ {
					next[x+f].Add(next[x+f], k)
				}
			}
			c = next
		}
		return c
	}
	d, b := ways(10, 20), ways(10, 12)
	none := new(big.Int)
	for x, cd := range d {
		for y := x; y < len(b); y++ {
			none.Add(none, new(big.Int).Mul(cd, b[y]))
		}
	}
	den := new(big.Int).Mul(new(big.Int).Exp(big.NewInt(20), big.NewInt(10), nil), new(big.Int).Exp(big.NewInt(12), big.NewInt(10), nil))
	want := new(big.Rat).SetFrac(none, den)
	if got := od.Outcomes["none"]; got == nil || got.Cmp(want) != 0 {
		t.Errorf("P(none) = %v, want %s", got, want.RatString())
	}
}
