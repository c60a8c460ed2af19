package kh

import (
	"math/big"
	"strconv"
	"testing"

	"zaria/core/dice"
	"zaria/core/systems/systemstest"
)

func TestTiersMatchRules(t *testing.T) {
	i := 0
	for _, fs := range systemstest.TSV(t, "testdata/tiers.tsv") {
		from, _ := strconv.Atoi(fs[0])
		to, _ := strconv.Atoi(fs[1])
		if to == 0 {
			to = MaxDC
		}
		for dc := from; dc <= to; dc++ {
			if TierOf(dc) != Tiers[i] {
				t.Errorf("DC %d: %v, the rules say %s", dc, TierOf(dc), fs[2])
			}
		}
		i++
	}
	if i != len(Tiers) {
		t.Errorf("%d tiers in the rules, %d in the table", i, len(Tiers))
	}
	if TierOf(1).Key != "facil" {
		t.Errorf("below 4: %v", TierOf(1))
	}
}

// The test vectors K1–K8 of the rules (docs/kh.md).
func TestVectors(t *testing.T) {
	cases := []struct {
		name  string
		in    Input
		dice  []int
		total int
	}{
		{"K1", Input{6, 2, 1}, []int{4, 2, 6, 4, 3}, 17},
		{"K2", Input{6, 2, 1}, []int{4, 2, 6, 4, 2}, 16},
		{"K3", Input{3, 0, 0}, []int{6, 6}, 15},
		{"K4", Input{3, 1, 0}, []int{6, 6, 2, 5}, 16},
		{"K5", Input{4, 3, 0}, []int{5, 6, 6, 1, 6, 6}, 21},
		{"K6", Input{2, 0, 1}, []int{3, 6}, 11},
		{"K7", Input{5, 2, 0}, []int{2, 5, 4}, 7},
	}
	for _, c := range cases {
		src := dice.NewScripted(c.dice)
		total := resolve(src, c.in)
		if src.Err() != nil || src.Used() != len(c.dice) || total != c.total {
			t.Errorf("%s: total %d used %d err %v, want %d", c.name, total, src.Used(), src.Err(), c.total)
		}
	}
	// K8.
	for dc, want := range map[int]string{7: "facil", 8: "normal", 15: "dificil", 16: "muy_dificil", 23: "legendario", 24: "imposible"} {
		if TierOf(dc).Key != want {
			t.Errorf("K8 DC %d: %s", dc, TierOf(dc).Key)
		}
	}
}

// docs/kh.md#exact-chances.
func TestChances(t *testing.T) {
	for _, c := range []struct {
		in   Input
		dc   int
		want string
	}{
		{Input{6, 2, 1}, 17, "79763/279936"},
		{Input{3, 0, 0}, 8, "1/3"},
		{Input{4, 1, 0}, 12, "41/216"},
		{Input{5, 0, 2}, 16, "85/162"},
		{Input{5, 0, 0}, 1, "1"},
	} {
		if got := Of(nil).Chance(c.in, c.dc).RatString(); got != c.want {
			t.Errorf("%+v dc %d: %s, want %s", c.in, c.dc, got, c.want)
		}
	}
}

// Chance agrees with rolling every combination of faces through the
// file (resolve).
func TestChanceMatchesResolve(t *testing.T) {
	for _, in := range []Input{{3, 0, 0}, {4, 1, 0}, {2, 1, 1}, {6, 2, 1}, {1, 0, 2}} {
		totals := map[int]*big.Rat{}
		var walk func(prefix []int, p *big.Rat)
		walk = func(prefix []int, p *big.Rat) {
			src := dice.NewScripted(prefix)
			total := resolve(src, in)
			if src.Err() == nil {
				if totals[total] == nil {
					totals[total] = new(big.Rat)
				}
				totals[total].Add(totals[total], p)
				return
			}
			for f := 1; f <= 6; f++ {
				walk(append(append([]int{}, prefix...), f), new(big.Rat).Mul(p, big.NewRat(1, 6)))
			}
		}
		walk(nil, big.NewRat(1, 1))
		for dc := 1; dc <= 40; dc++ {
			want := new(big.Rat)
			for tot, p := range totals {
				if tot >= dc {
					want.Add(want, p)
				}
			}
			if got := Of(nil).Chance(in, dc); got.Cmp(want) != 0 {
				t.Fatalf("%+v dc %d: %s, enumeration %s", in, dc, got.RatString(), want.RatString())
			}
		}
	}
}

// The largest pool allowed stays exact (no overflow): the chances of all
// DCs sum to the expected total.
func TestChanceLargestPool(t *testing.T) {
	const MaxBonusDice = 10 // kh.yaml's requirement: s + i <= 10
	for _, in := range []Input{{0, MaxBonusDice, 0}, {0, 0, MaxBonusDice}, {0, 5, 5}} {
		if got := Of(nil).Chance(in, 1); got.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%+v dc 1: %s", in, got.RatString())
		}
		if got := Of(nil).Chance(in, 200); got.Sign() != 0 {
			t.Errorf("%+v dc 200: %s", in, got.RatString())
		}
		// E[total] = Σ_dc P(total ≥ dc)
		sum := new(big.Rat)
		for dc := 1; dc <= 6*(2*MaxBonusDice+2); dc++ {
			sum.Add(sum, Of(nil).Chance(in, dc))
		}
		// E = 3.5 (complete) + 3.5·(1/6 + s/6) extra + 3.5·i
		want := new(big.Rat).Mul(big.NewRat(7, 2), new(big.Rat).Add(big.NewRat(int64(7+in.Heartless), 6), big.NewRat(int64(in.Nobody), 1)))
		if sum.Cmp(want) != 0 {
			t.Errorf("%+v: mean %s, want %s", in, sum.RatString(), want.RatString())
		}
	}
}

func BenchmarkChance(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Of(nil).Chance(Input{6, 2, 1}, 17)
	}
}

func BenchmarkChanceLargest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Of(nil).Chance(Input{0, 5, 5}, 30)
	}
}

// resolve rolls a test by the book, with no DC: its total.
func resolve(src dice.Source, in Input) int {
	res, err := Of(nil).s.Roll("test", in.params(0), src)
	if err != nil {
		panic(err)
	}
	return int(res.Total.Num().Int64())
}
