package zaria

import (
	"math/big"
	"strconv"
	"testing"

	"zaria/core/dice"
	"zaria/core/systems/systemstest"
)

func TestNamedDCsMatchRules(t *testing.T) {
	i := 0
	for _, fs := range systemstest.TSV(t, "testdata/named_dcs.tsv") {
		dc, _ := strconv.Atoi(fs[0])
		if i >= len(NamedDCs) || NamedDCs[i].DC != dc {
			t.Fatalf("row %d: table has %v, the rules have DC %d", i, NamedDCs, dc)
		}
		i++
	}
	if i != len(NamedDCs) {
		t.Fatalf("the rules have %d named DCs, table %d", i, len(NamedDCs))
	}
}

func TestTier(t *testing.T) {
	for _, c := range []struct {
		dc, tier int
		exact    bool
	}{{5, 5, true}, {12, 10, false}, {15, 15, true}, {29, 25, false}, {30, 30, true}} {
		n, ex := Rules{}.Tier(c.dc)
		if n.DC != c.tier || ex != c.exact {
			t.Errorf("Tier(%d) = %d,%v want %d,%v", c.dc, n.DC, ex, c.tier, c.exact)
		}
	}
}

// The test vectors Z1–Z10 of the rules (docs/zaria.md), replayed through scripted dice.
func TestVectors(t *testing.T) {
	cases := []struct {
		name    string
		rules   Rules
		side    Side
		dc      int
		dice    []int
		total2  int
		outcome string
	}{
		{"Z1", Rules{}, Side{Mod: 6}, 15, []int{3, 8}, 22, Failure},
		{"Z2", Rules{}, Side{Mod: 4}, 5, []int{1, 1}, 10, EpicFail},
		{"Z3", Rules{}, Side{Mod: 2}, 20, []int{10, 10}, 24, EpicWin},
		{"Z4", Rules{}, Side{Mod: 4}, 5, []int{1, 2}, 10, Marginal},
		{"Z5a", Rules{}, Side{Mod: 8}, 12, []int{4, 4}, 24, Marginal},
		{"Z5b", Rules{}, Side{Mod: 8}, 12, []int{5, 5}, 26, Success},
		{"Z5c", Rules{}, Side{Mod: 8}, 12, []int{9, 9}, 34, MajorWin},
		{"Z6 floor", Rules{}, Side{Mod: 3}, 12, []int{4, 5}, 14, MajorFail},
		{"Z6 exact", Rules{Mode: Exact}, Side{Mod: 3}, 12, []int{4, 5}, 15, Failure},
		{"Z7 floor", Rules{}, Side{Mod: 1}, 10, []int{9, 10}, 20, Marginal},
		{"Z7 high", Rules{Mode: High}, Side{Mod: 1}, 10, []int{9, 10}, 22, Success},
		{"Z8", Rules{}, Side{Mod: 6, NPC: true}, 12, []int{3}, 18, Failure},
		{"NPC 1 no epic", Rules{}, Side{Mod: 6, NPC: true}, 5, []int{1}, 14, Success},
		{"NPC 1 epic option", Rules{NPCEpics: true}, Side{Mod: 6, NPC: true}, 5, []int{1}, 14, EpicFail},
		{"NPC 10 epic option", Rules{NPCEpics: true}, Side{Mod: 1, NPC: true}, 30, []int{10}, 22, EpicWin},
	}
	for _, c := range cases {
		src := dice.NewScripted(c.dice)
		r := c.rules.Check(src, c.side, c.dc)
		if src.Err() != nil || src.Used() != len(c.dice) {
			t.Fatalf("%s: used %d dice, err %v", c.name, src.Used(), src.Err())
		}
		if r.Total2 != c.total2 || r.Outcome != c.outcome {
			t.Errorf("%s: total2 %d outcome %s, want %d %s", c.name, r.Total2, r.Outcome, c.total2, c.outcome)
		}
	}
}

func TestMajorWinLevel(t *testing.T) {
	r := Rules{}.Check(dice.NewScripted([]int{9, 9}), Side{Mod: 8}, 12) // 17 vs 12: m 5
	if r.Level != 1 {
		t.Errorf("level %d, want 1", r.Level)
	}
	r = Rules{}.Check(dice.NewScripted([]int{10, 9}), Side{Mod: 20}, 5) // 29 vs 5: m 24
	if r.Level != 4 {
		t.Errorf("level %d, want 4", r.Level)
	}
}

func TestOpposedVectors(t *testing.T) {
	// Z9: PC 5+3 attacks, NPC 8 dodges; 10 vs 10 → the attacker wins.
	src := dice.NewScripted([]int{1, 3, 2})
	o := Rules{}.Oppose(src, Side{Mod: 8}, Side{Mod: 8, NPC: true})
	if !o.ActiveWins || o.Active.Total2 != 20 || o.Passive.Total2 != 20 || src.Used() != 3 {
		t.Errorf("Z9: %+v", o)
	}
	// Z10: PC 9 active rolls 10,10; PC 12 passive rolls 8,8 (20 > 19) → active (EPIC WIN).
	src = dice.NewScripted([]int{10, 10, 8, 8})
	o = Rules{}.Oppose(src, Side{Mod: 9}, Side{Mod: 12})
	if !o.ActiveWins || o.Active.Epic != 1 {
		t.Errorf("Z10: %+v", o)
	}
	// An epic fail loses even with the higher total.
	o = Rules{}.Oppose(dice.NewScripted([]int{1, 1, 1, 2}), Side{Mod: 20}, Side{Mod: 1})
	if o.ActiveWins {
		t.Errorf("epic fail won: %+v", o)
	}
	// The same epic on both sides is a tie: the active side wins.
	o = Rules{}.Oppose(dice.NewScripted([]int{1, 1, 1, 1}), Side{Mod: 1}, Side{Mod: 20})
	if !o.ActiveWins {
		t.Errorf("double epic fail: %+v", o)
	}
}

// docs/zaria.md#exact-chances.
func TestChances(t *testing.T) {
	cases := []struct {
		rules Rules
		side  Side
		dc    int
		want  string
	}{
		{Rules{}, Side{Mod: 4}, 10, "9/20"},
		{Rules{}, Side{Mod: 6}, 15, "3/50"},
		{Rules{}, Side{Mod: 12}, 20, "3/20"},
		{Rules{Mode: Exact}, Side{Mod: 4}, 10, "9/20"},
		{Rules{Mode: Exact}, Side{Mod: 6}, 15, "3/50"},
		{Rules{Mode: Exact}, Side{Mod: 12}, 20, "3/20"},
		{Rules{Mode: High}, Side{Mod: 4}, 10, "11/20"},
		{Rules{Mode: High}, Side{Mod: 6}, 15, "1/10"},
		{Rules{Mode: High}, Side{Mod: 12}, 20, "21/100"},
		{Rules{}, Side{Mod: 4, NPC: true}, 10, "1/2"},
		{Rules{}, Side{Mod: 6, NPC: true}, 15, "1/5"},
		{Rules{}, Side{Mod: 12, NPC: true}, 20, "3/10"},
		{Rules{}, Side{Mod: 4}, 5, "99/100"}, // "almost automatic": only 1-1 fails
	}
	for _, c := range cases {
		if got := c.rules.Chance(c.side, c.dc); got.RatString() != c.want {
			t.Errorf("%+v %+v dc %d: %s, want %s", c.rules, c.side, c.dc, got.RatString(), c.want)
		}
	}
	if got := (Rules{}).OpposedChance(Side{Mod: 8}, Side{Mod: 8, NPC: true}); got.Cmp(big.NewRat(131, 250)) != 0 {
		t.Errorf("opposed PC 5+3 vs NPC 8: %s, want 131/250", got.RatString())
	}
}

// The chance agrees with rolling every pair through Check.
func TestChanceMatchesCheck(t *testing.T) {
	for _, mode := range []Mode{Low, Exact, High} {
		r := Rules{Mode: mode}
		for mod := MinMod; mod <= MaxMod; mod += 3 {
			for dc := MinDC; dc <= MaxDC; dc++ {
				ok := 0
				for a := 1; a <= 10; a++ {
					for b := 1; b <= 10; b++ {
						if Succeeded(r.Check(dice.NewScripted([]int{a, b}), Side{Mod: mod}, dc).Outcome) {
							ok++
						}
					}
				}
				if got := r.Chance(Side{Mod: mod}, dc); got.Cmp(big.NewRat(int64(ok), 100)) != 0 {
					t.Fatalf("mode %d mod %d dc %d: %s vs %d/100", mode, mod, dc, got.RatString(), ok)
				}
			}
		}
	}
}

func BenchmarkChance(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Rules{}.Chance(Side{Mod: 6}, 15)
	}
}

func BenchmarkOpposedChance(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Rules{}.OpposedChance(Side{Mod: 8}, Side{Mod: 9})
	}
}
