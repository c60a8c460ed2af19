package daegon

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"zaria/core/dice"
)

// readTable reads a table of the seed copied into testdata: the first field of
// a row is its number, the rest are cells ("-" = 0).
func readTable(t *testing.T, path string) map[int][]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int][]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(strings.ReplaceAll(sc.Text(), ":", " "))
		if len(fs) == 0 {
			continue
		}
		row, err := strconv.Atoi(fs[0])
		if err != nil {
			continue // header or comment
		}
		for _, c := range fs[1:] {
			v := 0
			if c != "-" {
				v, err = strconv.Atoi(c)
				if err != nil {
					t.Fatalf("%s row %d: %q", path, row, c)
				}
			}
			out[row] = append(out[row], v)
		}
	}
	return out
}

func TestPCTMatchesRules(t *testing.T) {
	rows := readTable(t, "testdata/pct.txt")
	if len(rows) != MaxNH {
		t.Fatalf("%d rows", len(rows))
	}
	for nh := MinNH; nh <= MaxNH; nh++ {
		if len(rows[nh]) != MaxD {
			t.Fatalf("row %d has %d cells", nh, len(rows[nh]))
		}
		for d := MinD; d <= MaxD; d++ {
			if Pct(nh, d) != rows[nh][d-1] {
				t.Errorf("PCT[%d][%d] = %d, table %d", nh, d, Pct(nh, d), rows[nh][d-1])
			}
		}
	}
}

// The cross-check formulas of the table (docs/daegon.md).
func TestPCTFormulas(t *testing.T) {
	for nh := MinNH; nh <= MaxNH; nh++ {
		for d := MinD; d <= MaxD; d++ {
			f := map[int]int{1: 20 + 10*nh, 2: 11 + 9*nh, 3: 2 + 8*nh, 4: 7 * (nh - 1), 5: 6*nh - 16, 6: 5 * (nh - 5), 7: 5 * (nh - 7)}[d]
			if f > 100 {
				f = 100
			}
			if f < 0 {
				f = 0
			}
			if nh == 1 && d == 4 {
				f = 1
			}
			if Pct(nh, d) != f {
				t.Errorf("PCT[%d][%d] = %d, formula %d", nh, d, Pct(nh, d), f)
			}
		}
	}
}

func TestCMPMatchesRules(t *testing.T) {
	rows := readTable(t, "testdata/cmp.txt")
	for opp := MinNH; opp <= MaxNH; opp++ {
		for own := MinNH; own <= MaxNH; own++ {
			if Difficulty(own, opp) != rows[opp][own-1] {
				t.Errorf("CMP opp %d own %d = %d, table %d", opp, own, Difficulty(own, opp), rows[opp][own-1])
			}
			diff := own - opp
			band := 6
			switch {
			case diff >= 9:
				band = 1
			case diff >= 4:
				band = 2
			case diff >= -3:
				band = 3
			case diff >= -8:
				band = 4
			case diff >= -13:
				band = 5
			}
			if Difficulty(own, opp) != band {
				t.Errorf("CMP opp %d own %d = %d, band rule %d", opp, own, Difficulty(own, opp), band)
			}
		}
	}
}

// faces turns a roll 00..100 into the two d10 faces (a 0 is the face 10;
// 100 is 00).
func faces(roll int) []int {
	f := func(d int) int {
		if d == 0 {
			return 10
		}
		return d
	}
	roll %= 100
	return []int{f(roll / 10), f(roll % 10)}
}

// The test vectors of the rules reference (docs/daegon.md), under the
// default reading (00 = 100) and the house rule daegon_00 = cero.
func TestVectors(t *testing.T) {
	if r := Book().Test(dice.NewScripted([]int{4, 9}), 1, 1, Hundred); r.Value != 49 {
		t.Errorf("D1: %d", r.Value)
	}
	if r := Book().Test(dice.NewScripted([]int{10, 10}), 1, 1, Hundred); r.Value != 100 {
		t.Errorf("D2: 00 reads %d, want 100", r.Value)
	}
	if r := Book().Test(dice.NewScripted([]int{10, 10}), 1, 1, Zero); r.Value != 0 {
		t.Errorf("D2 cero: 00 reads %d, want 0", r.Value)
	}
	cases := []struct {
		name        string
		rd          Reading
		nh, d, roll int
		level       int
	}{
		{"D3", Hundred, 6, 1, 80, 0},
		{"D4", Hundred, 6, 1, 81, Fail},
		{"D5", Hundred, 6, 3, 35, 1},
		{"D6", Hundred, 6, 3, 5, 3},
		{"D7a", Hundred, 1, 4, 100, Fail},
		{"D7b", Hundred, 1, 4, 1, 0},
		{"D7c", Hundred, 1, 4, 2, Fail},
		{"D7a cero", Zero, 1, 4, 0, 0},
		{"D7b cero", Zero, 1, 4, 1, 0},
		{"D7c cero", Zero, 1, 4, 2, Fail},
		{"D8", Hundred, 5, 6, 100, Fail},
		{"D8 cero", Zero, 5, 6, 0, Fail},
		{"D7b (00 on a 100 cell)", Hundred, 8, 1, 100, 0},
		{"D9a", Hundred, 15, 1, 99, 2},
		{"D9b", Hundred, 15, 1, 98, 3},
		{"D10a", Hundred, 8, 7, 5, 0},
		{"D10b", Hundred, 8, 7, 6, Fail},
	}
	for _, c := range cases {
		src := dice.NewScripted(faces(c.roll))
		r := Book().Test(src, c.nh, c.d, c.rd)
		if src.Err() != nil || r.Value != c.roll || r.Level != c.level {
			t.Errorf("%s: roll %d level %d (err %v), want %d %d", c.name, r.Value, r.Level, src.Err(), c.roll, c.level)
		}
	}
	opp := []struct {
		name       string
		a, p       int
		ra, rp     int
		da, dp     int
		la, lp     int
		activeWins bool
	}{
		{"D11", 12, 7, 98, 30, 2, 4, 1, 0, true},
		{"D12", 12, 7, 98, 26, 2, 4, 1, 1, false},
		{"D13", 6, 6, 40, 45, 3, 3, 0, 0, false},
		{"D14", 6, 6, 70, 90, 3, 3, Fail, Fail, false},
	}
	for _, rd := range []Reading{Hundred, Zero} {
		for _, c := range opp {
			src := dice.NewScripted(append(faces(c.ra), faces(c.rp)...))
			o := Book().Oppose(src, c.a, c.p, rd)
			if o.Active.D != c.da || o.Passive.D != c.dp || o.Active.Level != c.la || o.Passive.Level != c.lp || o.ActiveWins != c.activeWins {
				t.Errorf("%s (reading %d): %+v", c.name, rd, o)
			}
		}
	}
	// D15.
	if Difficulty(1, 15) != 6 || Pct(1, 6) != Impossible || Difficulty(15, 1) != 1 {
		t.Errorf("D15: %d %d %d", Difficulty(1, 15), Pct(1, 6), Difficulty(15, 1))
	}
}

// The exact probabilities of the rules reference, both readings.
func TestChances(t *testing.T) {
	for _, c := range []struct {
		got  string
		want string
	}{
		{Book().Chance(6, 1, Hundred).RatString(), "4/5"},
		{Book().Chance(6, 3, Hundred).RatString(), "1/2"},
		{Book().Chance(1, 4, Hundred).RatString(), "1/100"},
		{Book().Chance(5, 6, Hundred).RatString(), "0"},
		{Book().Chance(15, 1, Hundred).RatString(), "1"},
		{Book().OpposedChance(12, 7, Hundred).RatString(), "229/250"},
		{Book().OpposedChance(6, 6, Hundred).RatString(), "17/50"},
		{Book().Chance(6, 1, Zero).RatString(), "81/100"},
		{Book().Chance(6, 3, Zero).RatString(), "51/100"},
		{Book().Chance(1, 4, Zero).RatString(), "1/50"},
		{Book().Chance(5, 6, Zero).RatString(), "0"},
		{Book().Chance(15, 1, Zero).RatString(), "1"},
		{Book().OpposedChance(12, 7, Zero).RatString(), "9159/10000"},
		{Book().OpposedChance(6, 6, Zero).RatString(), "861/2500"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	// The chance is the table value (00 = 100), or one point more (00 = 0).
	for nh := MinNH; nh <= MaxNH; nh++ {
		for d := MinD; d <= MaxD; d++ {
			p := Pct(nh, d)
			for rd, want := range map[Reading]int64{Hundred: int64(p), Zero: int64(min(p+1, 100))} {
				if p == Impossible {
					want = 0
				}
				if c := Book().Chance(nh, d, rd); c.Num().Int64()*100/c.Denom().Int64() != want {
					t.Errorf("Book().Chance(%d,%d,%d) = %s, want %d/100", nh, d, rd, c.RatString(), want)
				}
			}
		}
	}
}

// OpposedChance equals counting all 10,000 pairs through Oppose.
func TestOpposedChanceMatchesOppose(t *testing.T) {
	for _, rd := range []Reading{Hundred, Zero} {
		for _, pair := range [][2]int{{12, 7}, {6, 6}, {1, 15}, {15, 1}, {8, 3}} {
			wins := 0
			for ra := 0; ra < 100; ra++ {
				for rp := 0; rp < 100; rp++ {
					if Book().Oppose(dice.NewScripted(append(faces(ra), faces(rp)...)), pair[0], pair[1], rd).ActiveWins {
						wins++
					}
				}
			}
			c := Book().OpposedChance(pair[0], pair[1], rd)
			if c.Num().Int64()*10000/c.Denom().Int64() != int64(wins) {
				t.Errorf("%v (reading %d): %s vs %d/10000", pair, rd, c.RatString(), wins)
			}
		}
	}
}

func BenchmarkChance(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Book().Chance(6, 3, Hundred)
	}
}

func BenchmarkOpposedChance(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Book().OpposedChance(12, 7, Hundred)
	}
}
