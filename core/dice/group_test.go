package dice

import (
	"math/big"
	"strings"
	"testing"
)

// TestGroupRolls rolls grouped rolls with exact dice and checks what the
// user sees: every expression's total, the dropped ones in brackets, the
// counted ones marked, and with one expression the dice themselves.
func TestGroupRolls(t *testing.T) {
	cases := []scriptCase{
		// several expressions: their totals are kept, dropped or counted
		{"{3d6+3d4+5, 2d8+4}kh1", []int{1, 2, 3, 4, 1, 2, 8, 8}, "{([1, 2, 3] + [4, 1, 2] + 5 = 18), [8, 8] + 4 = 20} = 20", 20},
		{"{3d6+3d4+5, 2d8+4}kl1", []int{1, 2, 3, 4, 1, 2, 8, 8}, "{[1, 2, 3] + [4, 1, 2] + 5 = 18, ([8, 8] + 4 = 20)} = 18", 18},
		{"{1d20, 1d20}kh1 + 5", []int{3, 17}, "{([3] = 3), [17] = 17} + 5 = 22", 22},
		{"{1d20, 1d20}k + 5", []int{17, 17}, "{[17] = 17, ([17] = 17)} + 5 = 22", 22}, // ties: the earlier one is kept
		{"{1d20, 1d20}kl1", []int{17, 17}, "{[17] = 17, ([17] = 17)} = 17", 17},
		{"{1d6, 1d6, 1d6}dh1", []int{6, 2, 5}, "{([6] = 6), [2] = 2, [5] = 5} = 7", 7},
		{"{1d6, 1d6, 1d6}dl2", []int{6, 2, 5}, "{[6] = 6, ([2] = 2), ([5] = 5)} = 6", 6},
		{"{4d6, 2d10, 1d4}", []int{2, 6, 4, 2, 7, 4, 1}, "{[2, 6, 4, 2] = 14, [7, 4] = 11, [1] = 1} = 26", 26},
		{"{3d20+5, 2d10}>15", []int{1, 2, 3, 9, 9}, "{[1, 2, 3] + 5 = 11, [9, 9] = 18✓} = 1", 1},
		{"{1d20+5, 1d20+5}>=15", []int{10, 9}, "{[10] + 5 = 15✓, [9] + 5 = 14} = 1", 1},
		{"{1d20+5, 1d20+5}>15", []int{10, 11}, "{[10] + 5 = 15✓, [11] + 5 = 16✓} = 2", 2}, // Roll20: >15 is 15 or more
		{"{1d20+5, 1d20+5}>=16", []int{10, 11}, "{[10] + 5 = 15, [11] + 5 = 16✓} = 1", 1},
		{"{1d6, 1d6, 1d6}>=5f<=2", []int{1, 6, 3}, "{[1] = 1✗, [6] = 6✓, [3] = 3} = 0", 0},
		{"{1d6, 1d6, 1d6}dl1>=3f1", []int{1, 3, 6}, "{([1] = 1), [3] = 3✓, [6] = 6✓} = 2", 2},
		{"{2, 1d6}kh1", []int{1}, "{2, ([1] = 1)} = 2", 2},
		{"{1d4-5, 1d4-5}kh1", []int{1, 2}, "{([1] - 5 = -4), [2] - 5 = -3} = -3", -3},
		{"{1d20, 1d20}kh1[ventaja] + fuerza", []int{4, 9}, "{([4] = 4), [9] = 9} ventaja + fuerza (3) = 12", 12},
		{"2*{1d6, 1d6}kh1", []int{4, 2}, "2 * {[4] = 4, ([2] = 2)} = 8", 8},
		// one expression without a modifier: its total, as parentheses
		{"{2d6+3}", []int{3, 4}, "{[3, 4] + 3} = 10", 10},
		// one expression with a modifier: the individual dice
		{"{4d6+3d8}kh1", []int{1, 2, 3, 4, 5, 6, 7}, "{[(1), (2), (3), (4)] + [(5), (6), 7]} = 7", 7},
		{"{4d6+3d8}kh2", []int{6, 2, 3, 4, 5, 6, 1}, "{[6, (2), (3), (4)] + [(5), 6, (1)]} = 12", 12},
		{"{4d6sd+3d8s}kh2", []int{6, 2, 3, 4, 5, 6, 1}, "{[6, (4), (3), (2)] + [(1), (5), 6]} = 12", 12},
		{"{2d6+1d8}dl1", []int{6, 2, 3}, "{[6, (2)] + [3]} = 9", 9},
		{"{2d6+1d8+2}kh1", []int{6, 2, 3}, "{[6, (2)] + [(3)] + 2} = 8", 8},
		{"{3d20}>15", []int{16, 15, 20}, "{[16✓, 15✓, 20✓]} = 3", 3},
		{"{3d20}>=16", []int{16, 15, 20}, "{[16✓, 15, 20✓]} = 2", 2},
		{"{3d20}>=15", []int{16, 15, 20}, "{[16✓, 15✓, 20✓]} = 3", 3},
		{"{2d10+2d6}>=6f1", []int{10, 1, 6, 2}, "{[10✓, 1✗] + [6✓, 2]} = 1", 1},
		{"{3d6+1d8}kh2>=6", []int{6, 2, 5, 8}, "{[6✓, (2), (5)] + [8✓]} = 2", 2},
		{"{2d6!+1d8}kh1", []int{6, 3, 2, 8}, "{[(6!), (3), (2)] + [8]} = 8", 8}, // each die on its own, the 3 the 6 added too
		{"{1d6,1d6}kh1 vs 5", []int{2, 5}, "{([2] = 2), [5] = 5} = 5", 5},
	}
	for _, c := range cases {
		rollScripted(t, c)
	}
	// Repetitions keep their groups apart.
	e, _ := Parse("2#{1d6, 1d6}kh1")
	res, err := e.Roll(NewScripted([]int{1, 2, 6, 3}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := show(t, res, 0), show(t, res, 1); a != "{([1] = 1), [2] = 2} = 2" || b != "{[6] = 6, ([3] = 3)} = 6" {
		t.Errorf("2#: %q, %q", a, b)
	}
	// The total of a group with a success condition is a count.
	for in, counts := range map[string]bool{"{1d6,1d6}>3": true, "{3d6}>3": true, "{1d6,1d6}kh1": false, "{1d6,1d6}>3+1": false, "8d10>=7": true} {
		e, _ := Parse(in)
		if e.Counts() != counts || !e.Pool() && counts {
			t.Errorf("%s: Counts %v, Pool %v", in, e.Counts(), e.Pool())
		}
	}
}

// TestGroupErrors: every group that cannot be rolled has its own code.
func TestGroupErrors(t *testing.T) {
	parseErrors(t, []errCase{
		{"{1d6, {1d6, 1d8}kh1}", CodeGroupNested, "{"},
		{"{(1d6 + {2d6})}", CodeGroupNested, "{"},
		{"{" + strings.TrimSuffix(strings.Repeat("1d6,", MaxItems+1), ",") + "}kh1", CodeGroupTooBig, "{"},
		{"{4d6kh3+1d8}kh1", CodeGroupPerDie, "{4d6kh3+1d8}kh1"},
		{"{4d6>=5+1d8}>=5", CodeGroupPerDie, ""},
		{"{2d6*2}kh1", CodeGroupPerDie, ""},
		{"{2d6-1d4}kh1", CodeGroupPerDie, ""},
		{"{5}kh1", CodeGroupPerDie, ""},
		{"{1d6, 1d6}dl2", CodeGroupKeep, ""},
		{"{1d6, 1d6}kh0", CodeGroupKeep, ""},
		{"{1d6, 1d6}kh1kl1", CodeDuplicate, "kl"},
		{"{1d6, 1d6}>3>4", CodeDuplicate, ">"},
		{"{1d6, 1d6}f1", CodeFailureAlone, ""},
		{"{1d6, 1d6}>3f", CodeUnexpectedEnd, ""},
		{"{1d6, 1d6", CodeUnclosed, "{"},
		{"{1d6, 1d6}!", CodeSyntax, "!"},
		{"{1d6, 1d6}r1", CodeSyntax, ""},
		{"{1d6, 1d6}sd", CodeSyntax, "sd"}, // a group's totals are not sorted
		{"{1d6,}", CodeSyntax, "}"},
		{"{}", CodeSyntax, "}"},
		{"1d6, 1d6", CodeSyntax, ","},
		{"1d6}", CodeSyntax, "}"},
		{"1d20 vs {1, 2}kh1", CodeTargetDice, "{1, 2}kh1"},
		{strings.Repeat("(", MaxDepth) + "{1d6, 1d6}" + strings.Repeat(")", MaxDepth), CodeTooDeep, ""},
	})
	// The message says how many expressions were written.
	if _, err := Parse("{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}kh1"); err == nil || err.(*Error).Got != 15 || err.(*Error).Max != MaxItems {
		t.Errorf("15 expressions: %v", err)
	}
	// At the limits: MaxItems expressions, MaxDepth levels with the braces.
	for _, in := range []string{
		"{" + strings.TrimSuffix(strings.Repeat("1d6,", MaxItems), ",") + "}kh1",
		strings.Repeat("(", MaxDepth-1) + "{1d6, 1d6}" + strings.Repeat(")", MaxDepth-1),
	} {
		if _, err := Parse(in); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
	// The limits of dice apply inside groups too.
	for in, code := range map[string]string{
		"{101d6, 1d6}kh1": CodeTooManyDice,
		"{" + strings.Repeat("100d6,", 9) + "100d6, 1d6}kh1":              CodeTooManyDraws,
		"20#{" + strings.Repeat("10d6,", 4) + "11d6}kh1":                  CodeTooManyDraws,
		"{" + strings.TrimSuffix(strings.Repeat("d6+", 21), "+") + "}kh1": CodeTooManyGroups,
	} {
		if _, err := Parse(in); codeOf(err) != code {
			t.Errorf("Parse(%q) = %v, want %s", in, err, code)
		}
	}
}

// TestGroupOddsExact: the odds of grouped rolls are exact and agree with
// an enumeration of every way the dice fall.
func TestGroupOddsExact(t *testing.T) {
	for _, in := range []string{
		"{1d20, 1d20}kh1 + 5 vs 15", "{2d6, 1d12}kh1", "{2d6, 1d12}kl1", "{1d4, 1d6}", "{2d4+1, 1d8}dh1",
		"{1d4, 1d6, 2d3}kh2", "{1d4, 1d6, 1d8}dl1", "{1d4, 1d6, 1d4}dh1>=3", "{1d6, 1d8, 2}>=4f1",
		"{1d4, 1d4}kl1 + 2 vs 3", "{1d6, 1d6}dh1 * 2", "{1d4-2, 1d6-4}kh1", "{1d4+fuerza, 1d6}kh1",
		"{3d4}>=3", "{2d4+1d6}>=4f1", "{2d4+1d6}kh2", "{2d4+1d6+2}dl1", "{2d3+1d4}kh2>=3f1", "{1d4+1d6}kl1",
		"{2d4+2d4}kh3", "{1d4ro+1d6}kh1", "{4dF+1d3}kh2", "{1d6!!+1d4}kh1",
	} {
		e, err := Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		o, err := e.Odds(names)
		if err != nil || o.Sampled {
			t.Errorf("%s: %v (sampled %v)", in, err, o != nil && o.Sampled)
			continue
		}
		want, lost := bruteForce(t, in, 40)
		if !o.Approx && lost.Sign() != 0 {
			t.Fatalf("%s: brute force lost %v", in, lost)
		}
		if o.Approx { // an explosion: within what both leave out
			for v := o.Min; v <= o.Max; v++ {
				w := want[v]
				if w == nil {
					w = new(big.Rat)
				}
				d := new(big.Rat).Sub(o.Prob(v), w)
				if f, _ := d.Abs(d).Float64(); f > 1e-9 {
					t.Errorf("%s: P(%d) = %v, brute force %v", in, v, o.Prob(v), w)
				}
			}
			continue
		}
		sameProbs(t, in, o, want)
	}
	// Advantage: P(max of two d20 ≥ 10) = 1 − (9/20)² = 319/400.
	e, _ := Parse("{1d20, 1d20}kh1 + 5 vs 15 ?")
	o, err := e.Odds(nil)
	if err != nil || o.Approx || o.ChanceExact.Cmp(big.NewRat(319, 400)) != 0 {
		t.Errorf("advantage: %v %v", o.ChanceExact, err)
	}
	// Several distributions, one kept: P(max(2d6, 1d12) = 12) = 1/36 + 1/12 − 1/432.
	e, _ = Parse("{2d6, 1d12}kh1")
	o, _ = e.Odds(nil)
	if got, want := o.Prob(12), big.NewRat(1*12+1*36-1, 432); got.Cmp(want) != 0 {
		t.Errorf("{2d6, 1d12}kh1: P(12) = %v, want %v", got, want)
	}
	// Too big for exact odds: sampled, marked.
	e, _ = Parse("{" + strings.TrimSuffix(strings.Repeat("10d100,", 10), ",") + "}dl5")
	o, err = e.Odds(nil)
	if err != nil || !o.Sampled || !o.Approx {
		t.Errorf("ten 10d100 dl5: %v sampled %v", err, o != nil && o.Sampled)
	}
}
