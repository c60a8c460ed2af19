package dice

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSortChangesOnlyTheOrder: s and sd change the order the dice are
// shown in and nothing else. For many seeds a sorted term rolls the same
// dice, in the same order in Result.Dice, to the same total as without the
// sort, shows the same dice, and its exact odds are the same.
func TestSortChangesOnlyTheOrder(t *testing.T) {
	for _, c := range []struct {
		plain, sorted string
		numeric       bool // every die shows a plain number: check the order
	}{
		{"8d6", "8d6s", true},
		{"8d6", "8d6sd", true},
		{"10d10", "10d10sa", true},
		{"4d6kh3", "4d6kh3sd", true},
		{"5d6dl2", "5d6dl2s", true},
		{"8d10>=7f1", "8d10>=7f1sd", true},
		{"3d6+1d4", "3d6sd+1d4s", true},
		{"20d6", "20d6s", true}, // more dice than writeSorted's stack buffer
		{"4d6!", "4d6!s", false},
		{"4d6!kh3", "4d6!kh3sd", false},
		{"3d6!!", "3d6!!sd", false},
		{"4d6r1", "4d6r1s", false},
		{"4dF", "4dFsd", false},
		{"{4d6+3d8}kh2", "{4d6sd+3d8s}kh2", true},
		{"2#4d6kh3 vs 12", "2#4d6kh3sd vs 12", true},
	} {
		ep, err := Parse(c.plain)
		if err != nil {
			t.Fatal(err)
		}
		es, err := Parse(c.sorted)
		if err != nil {
			t.Fatal(c.sorted, err)
		}
		for seed := range uint64(40) {
			rp, err1 := ep.Roll(Seeded(seed), nil)
			rs, err2 := es.Roll(Seeded(seed), nil)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !slices.Equal(rp.Totals, rs.Totals) || !slices.Equal(rp.Values(), rs.Values()) || !slices.Equal(rp.Dice, rs.Dice) {
				t.Fatalf("%s seed %d: totals %v dice %v, without the sort %v %v", c.sorted, seed, rs.Totals, rs.Values(), rp.Totals, rp.Values())
			}
			for rep := range ep.Repeat {
				plain, sorted := shownDice(show(t, rp, rep)), shownDice(show(t, rs, rep))
				if !slices.Equal(sortedCopy(plain), sortedCopy(sorted)) {
					t.Errorf("%s seed %d shows %q, without the sort %q", c.sorted, seed, show(t, rs, rep), show(t, rp, rep))
				}
				if c.numeric {
					checkShownOrder(t, c.sorted, show(t, rs, rep))
				}
			}
		}
		op, err1 := ep.Odds(nil)
		os, err2 := es.Odds(nil)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if op.Min != os.Min || op.Max != os.Max || op.Approx != os.Approx || op.Sampled != os.Sampled || op.Mean != os.Mean {
			t.Errorf("%s: odds %d..%d mean %g, without the sort %d..%d mean %g", c.sorted, os.Min, os.Max, os.Mean, op.Min, op.Max, op.Mean)
			continue
		}
		if op.Sampled { // too big to count (4d6!kh3): the same sample
			if op.Chance != os.Chance {
				t.Errorf("%s: sampled chance %g, without the sort %g", c.sorted, os.Chance, op.Chance)
			}
			continue
		}
		if op.HasChance && op.ChanceExact.Cmp(os.ChanceExact) != 0 {
			t.Errorf("%s: chance %v, without the sort %v", c.sorted, os.ChanceExact, op.ChanceExact)
		}
		for v := op.Min; v <= op.Max; v++ {
			if op.Prob(v).Cmp(os.Prob(v)) != 0 {
				t.Errorf("%s: P(%d) = %v, without the sort %v", c.sorted, v, os.Prob(v), op.Prob(v))
			}
		}
	}
	// The exact chance of a sorted advantage, against its own count.
	e, _ := Parse("2d20kh1sd vs 11 ?")
	if o, err := e.Odds(nil); err != nil || o.ChanceExact.Cmp(big.NewRat(300, 400)) != 0 {
		t.Errorf("2d20kh1sd vs 11: %v, want 3/4 (%v)", o.ChanceExact, err)
	}
}

// shownDice is every die written in a rendered roll, term after term.
func shownDice(text string) []string {
	var out []string
	for _, term := range strings.Split(text, "[")[1:] {
		body, _, _ := strings.Cut(term, "]")
		out = append(out, strings.Split(body, ", ")...)
	}
	return out
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// checkShownOrder checks that each term of text written with s (sa) or sd
// shows its dice from lowest to highest or highest to lowest. The terms are
// told apart by the notation in: text's terms come in the same order.
func checkShownOrder(t *testing.T, in, text string) {
	t.Helper()
	e, _ := Parse(in)
	terms := strings.Split(text, "[")[1:]
	if len(terms) != len(e.dice) {
		t.Fatalf("%s: %d terms shown in %q", in, len(terms), text)
	}
	for i, term := range terms {
		d := e.dice[i]
		body, _, _ := strings.Cut(term, "]")
		var vals []int
		for _, s := range strings.Split(body, ", ") {
			v, err := strconv.Atoi(strings.Trim(s, "()✓✗"))
			if err != nil {
				t.Fatalf("%s: die %q in %q", in, s, text)
			}
			vals = append(vals, v)
		}
		switch d.Sort {
		case SortAsc:
			if !slices.IsSorted(vals) {
				t.Errorf("%s shows %q: term %d is not lowest first", in, text, i+1)
			}
		case SortDesc:
			slices.Reverse(vals)
			if !slices.IsSorted(vals) {
				t.Errorf("%s shows %q: term %d is not highest first", in, text, i+1)
			}
		}
	}
}

// TestSortLeavesOtherWords: s is a sort only right after a term's dice;
// elsewhere it is still a name, and dl, d and the names starting with s
// read as before.
func TestSortLeavesOtherWords(t *testing.T) {
	for in, want := range map[string]string{
		"1d20+s":         "s",
		"1d20 + sd":      "sd",
		"1d20+sabiduría": "sabiduría",
		"s+1":            "s",
	} {
		e, err := Parse(in)
		if err != nil || len(e.names) != 1 || e.names[0].Name != want || len(e.dice) > 0 && e.dice[0].Sort != NoSort {
			t.Errorf("Parse(%q): %v, want the name %q and no sort", in, err, want)
		}
	}
	e, err := Parse("4d6dl1")
	if err != nil || e.dice[0].Keep != (Keep{DropLow, 1}) || e.dice[0].Sort != NoSort {
		t.Errorf("4d6dl1: %v %+v", err, e.dice[0])
	}
	if e, err := Parse("4d6d1"); err != nil || e.dice[0].Keep != (Keep{DropLow, 1}) { // Roll20's bare d
		t.Errorf("4d6d1: %v, want dl1", err)
	}
	if _, err := Parse("1d20 sabiduría"); codeOf(err) != CodeSyntax {
		t.Errorf("1d20 sabiduría: %v, want a syntax error as before", err)
	}
}
