package rq

import (
	"strconv"
	"strings"
	"testing"

	"zaria/core/dice"
	"zaria/core/systems/systemstest"
)

func rows(t *testing.T, path string) [][]string { return systemstest.TSV(t, path) }

func num(t *testing.T, s string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDifficultiesMatchRules(t *testing.T) {
	rs := rows(t, "testdata/difficulties.tsv")
	if len(rs) != len(Difficulties) {
		t.Fatalf("%d rows vs %d", len(rs), len(Difficulties))
	}
	for i, r := range rs {
		if Difficulties[i].Value != num(t, r[1]) {
			t.Errorf("row %d %s: %d, the rules say %s", i, r[0], Difficulties[i].Value, r[1])
		}
	}
}

// Every chance 1..100 against the printed simple-roll table.
func TestSimpleTableMatchesRules(t *testing.T) {
	seen := 0
	for _, r := range rows(t, "testdata/simple.tsv") {
		lo, hi, cr, fu := num(t, r[0]), num(t, r[1]), num(t, r[2]), num(t, r[3])
		for c := lo; c <= hi; c++ {
			seen++
			if Book().CritMax(c) != cr || Book().FumbleMin(c) != fu {
				t.Errorf("chance %d: crit %d fumble %d, table %d %d", c, Book().CritMax(c), Book().FumbleMin(c), cr, fu)
			}
		}
	}
	if seen != 100 {
		t.Errorf("table covers %d chances", seen)
	}
}

func TestOpposedTableMatchesRules(t *testing.T) {
	for _, r := range rows(t, "testdata/opposed.tsv") {
		lo, hi, cr, fu := num(t, r[0]), num(t, r[1]), num(t, r[2]), num(t, r[3])
		for c := lo; c <= hi; c++ {
			if Book().OppCrit(c) != cr || Book().OppFumbleMin(c) != fu {
				t.Errorf("chance %d: crit %d fumble %d, table %d %d", c, Book().OppCrit(c), Book().OppFumbleMin(c), cr, fu)
			}
		}
	}
}

// The test vectors R1–R9 of the rules (docs/rq.md).
func TestSimpleVectors(t *testing.T) {
	cases := []struct {
		name  string
		c     int
		rolls []int
		want  []string
	}{
		{"R1", 50 + 45 - 30, []int{7, 8, 65, 66, 98, 99, 100}, []string{Critical, Success, Success, Failure, Failure, Fumble, Fumble}},
		{"R2", 100, []int{10, 11, 99, 100}, []string{Critical, Success, Success, Fumble}},
		{"R3", 120, []int{12, 13, 100}, []string{Critical, Success, Failure}},
		{"R4", 0, []int{1, 95, 96}, []string{Failure, Failure, Fumble}},
		{"R5", -40, []int{1, 96}, []string{Failure, Fumble}},
		// The 100 % cap on the failure chance: 94 and 95 are no fumbles at −40.
		{"R5 cap", -40, []int{94, 95}, []string{Failure, Failure}},
		{"R5 cap −100", -100, []int{95, 96}, []string{Failure, Fumble}},
		{"R6", 5, []int{1, 5, 6, 96}, []string{Critical, Success, Failure, Fumble}},
		{"R7", 25, []int{3, 4, 96, 97}, []string{Critical, Success, Failure, Fumble}},
		{"R8", 50, []int{5, 6, 97, 98}, []string{Critical, Success, Failure, Fumble}},
		{"R9", 50 + 12*3 + 10, []int{10, 96, 97, 100}, []string{Critical, Success, Failure, Fumble}},
	}
	for _, c := range cases {
		for i, r := range c.rolls {
			src := dice.NewScripted([]int{r})
			got := Book().Check(src, c.c)
			if src.Err() != nil || got.Outcome != c.want[i] {
				t.Errorf("%s chance %d roll %d: %s, want %s", c.name, c.c, r, got.Outcome, c.want[i])
			}
		}
	}
}

// The test vectors R10–R16 of the rules (docs/rq.md#opposed-rolls).
func TestOpposedVectors(t *testing.T) {
	cases := []struct {
		name     string
		c        int
		dice     []int
		off, def string
		used     int
	}{
		{"R10 even", OppChance(60, 45), []int{5, 2}, Critical, Failure, 2},
		{"R10 odd", 65, []int{5, 3}, Success, Fumble, 2},
		{"R11 even", 65, []int{98, 4}, Fumble, Success, 2},
		{"R11 odd", 65, []int{98, 1}, Failure, Critical, 2},
		{"R12 success", 65, []int{40}, Success, Failure, 1},
		{"R12 failure", 65, []int{66}, Failure, Success, 1},
		{"R13 no crit", OppChance(20, 66), []int{1}, Success, Failure, 1},
		{"R13 fumble", 4, []int{91, 2}, Fumble, Success, 2},
		{"R14 crit", 5, []int{1, 2}, Critical, Failure, 2},
		{"R14 failure", 5, []int{91}, Failure, Success, 1},
		{"R14 fumble", 5, []int{92, 2}, Fumble, Success, 2},
		{"R15 crit", OppChance(80, 10), []int{10, 2}, Critical, Failure, 2},
		{"R15 success", 120, []int{11}, Success, Failure, 1},
		{"R15 100", 120, []int{100}, Failure, Success, 1},
	}
	for _, c := range cases {
		src := dice.NewScripted(c.dice)
		o := Book().Oppose(src, c.c)
		if src.Err() != nil || src.Used() != c.used || o.Off != c.off || o.Def != c.def {
			t.Errorf("%s: %+v (used %d, err %v), want %s/%s", c.name, o, src.Used(), src.Err(), c.off, c.def)
		}
	}
	// R16: characteristics ×5.
	if c := OppChance(14*OpposedCharMult, 12*OpposedCharMult); c != 60 || Book().OppCrit(c) != 6 || Book().OppFumbleMin(c) != 97 {
		t.Errorf("R16: chance %d crit %d fumble %d", c, Book().OppCrit(c), Book().OppFumbleMin(c))
	}
}

// docs/rq.md#exact-chances.
func TestChances(t *testing.T) {
	cases := []struct {
		o                Odds
		success, cr, fum string
	}{
		{Book().Chances(50 + 25 - 30), "9/20", "1/20", "3/100"},
		{Book().Chances(100), "99/100", "1/10", "1/100"},
		{Book().Chances(120), "99/100", "3/25", "0"},
		{Book().OppChances(OppChance(60, 45)), "13/20", "7/100", "3/100"},
	}
	for i, c := range cases {
		if c.o.Success.RatString() != c.success || c.o.Critical.RatString() != c.cr || c.o.Fumble.RatString() != c.fum {
			t.Errorf("%d: %s %s %s, want %s %s %s", i, c.o.Success.RatString(), c.o.Critical.RatString(), c.o.Fumble.RatString(), c.success, c.cr, c.fum)
		}
	}
}

func BenchmarkChances(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Book().Chances(65)
	}
}

func BenchmarkOppChances(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Book().OppChances(65)
	}
}
