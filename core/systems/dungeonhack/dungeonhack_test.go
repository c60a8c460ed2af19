package dungeonhack

import (
	"bufio"
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"zaria/core/dice"
	"zaria/core/systems/engine"
)

// mdRows reads the data rows of the markdown tables in a file copied from
// docs/dungeonhack.md, cells trimmed.
func mdRows(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		out = append(out, cells)
	}
	return out
}

func cleanName(s string) string {
	for _, m := range []string{" (new)", " **", " *", " †", " ‡"} {
		s = strings.ReplaceAll(s, m, "")
	}
	return s
}

func die(t *testing.T, s string) (n, sides int) {
	if s == "–" {
		return 0, 0
	}
	a, b, ok := strings.Cut(s, "d")
	if !ok {
		t.Fatalf("die %q", s)
	}
	if a == "" {
		a = "1"
	}
	n, _ = strconv.Atoi(a)
	sides, _ = strconv.Atoi(b)
	return n, sides
}

func TestWeaponsMatchRules(t *testing.T) {
	var got []Weapon
	for _, r := range mdRows(t, "testdata/weapons.md") {
		switch {
		case r[0] == "group" || r[0] == "arma":
			continue // headers
		case len(r) == 7: // group | arma | daño | pen. | resist. | precio | note
			n, s := die(t, r[2])
			_, res := die(t, r[4])
			pen, _ := strconv.Atoi(r[3])
			got = append(got, Weapon{Name: cleanName(r[1]), Group: r[0], DmgN: n, DmgS: s, Pen: pen, Resist: res})
		case len(r) == 8: // arma | alcance | daño | pen. | resist. | munición | precio | note
			n, s := die(t, r[2])
			_, res := die(t, r[4])
			pen, _ := strconv.Atoi(r[3])
			got = append(got, Weapon{Name: cleanName(r[0]), Group: "distancia", DmgN: n, DmgS: s, Pen: pen, Resist: res})
		default:
			t.Fatalf("row %v", r)
		}
	}
	if len(got) != len(Book().Weapons()) {
		t.Fatalf("testdata has %d weapons, the table %d", len(got), len(Book().Weapons()))
	}
	for i, w := range got {
		x := Book().Weapons()[i]
		x.Key, x.Names = "", engine.Names{}
		if x != w {
			t.Errorf("row %d: table %+v, testdata %+v", i, x, w)
		}
	}
}

func TestArmoursMatchRules(t *testing.T) {
	var got []Armour
	for _, r := range mdRows(t, "testdata/armour.md") {
		row, err := strconv.Atoi(r[0])
		if err != nil {
			if r[0] == "DB" { // the absorption conversion
				for i, d := range []int{4, 6, 8, 10, 12, 20} {
					v, _ := strconv.Atoi(r[i+1])
					// The file's table absorption_db, which "absd8" reads (dh.yaml's db lookup).
					if c, _ := Book().File().Cell("absorption_db", d, 0); c == nil || int(c.Num().Int64()) != v {
						db := -1
						if c != nil {
							db = int(c.Num().Int64())
						}
						t.Errorf("absorción d%d: %d, testdata %d", d, db, v)
					}
				}
			}
			continue
		}
		db, _ := strconv.Atoi(r[2])
		_, res := die(t, r[3])
		got = append(got, Armour{Row: row, Name: r[1], DB: db, Resist: res})
	}
	if len(got) != len(Book().Armours()) {
		t.Fatalf("testdata has %d armours, the table %d", len(got), len(Book().Armours()))
	}
	for i, a := range got {
		x := Book().Armours()[i]
		x.Key, x.Names, x.Sinks, x.SwimDisadvantage = "", engine.Names{}, false, false // the testdata's columns are these four
		if x != a {
			t.Errorf("row %d: table %+v, testdata %+v", i, x, a)
		}
	}
}

func TestKeysUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range Book().Weapons() {
		if seen[w.Key] {
			t.Errorf("duplicate %s", w.Key)
		}
		seen[w.Key] = true
	}
	for _, a := range Book().Armours() {
		if seen[a.Key] {
			t.Errorf("duplicate %s", a.Key)
		}
		seen[a.Key] = true
	}
}

func coraza() Attack {
	w, _ := WeaponByKey("espada-larga")
	a, _ := ArmourByKey("coraza")
	return Attack{DmgN: w.DmgN, DmgS: w.DmgS, Pen: w.Pen, DB: a.DB, DBFaces: 6}
}

// The test vectors H1–H14 of the rules (docs/dungeonhack.md).
func TestAttackVectors(t *testing.T) {
	cases := []struct {
		name  string
		a     Attack
		dice  []int
		final int
	}{
		{"H1", coraza(), []int{6, 1, 2, 1}, 2},
		{"H2", coraza(), []int{3, 2, 2, 3}, 1},
		{"H3 no armour", Attack{DmgN: 1, DmgS: 6, Pen: 3}, []int{1}, 3},
		{"H6", Attack{DmgN: 1, DmgS: 6, Pen: 2, DB: 1, DBFaces: 6, Static: 1}, []int{5, 3}, 2},
		{"mayor", Attack{DmgN: 1, DmgS: 8, Pen: 1, DB: 3, DBFaces: 6, Mode: Highest}, []int{8, 1, 2, 1}, 6},
		{"2d8+2", Attack{DmgN: 2, DmgS: 8, Bonus: 2, Pen: 2, DB: 2, DBFaces: 4}, []int{8, 7, 1, 1}, 15},
	}
	for _, c := range cases {
		src := dice.NewScripted(c.dice)
		r := Book().ResolveAttack(src, c.a)
		if src.Err() != nil || src.Used() != len(c.dice) || r.Final != c.final {
			t.Errorf("%s: %+v used %d err %v, want %d", c.name, r, src.Used(), src.Err(), c.final)
		}
	}
	// H4, H5: breaking a DB.
	if Book().BreakDamage(Book().MonsterPen(17, Round)) != 2 || Book().BreakDamage(0) != 0 {
		t.Errorf("H4/H5")
	}
}

func TestMonsterPen(t *testing.T) {
	// H7 and the table of §2.7.
	for _, c := range []struct{ level, round, ceil int }{{1, 0, 0}, {3, 0, 0}, {8, 0, 1}, {9, 1, 1}, {17, 2, 2}, {21, 3, 3}, {15, 2, 2}, {27, 4, 4}} {
		if Book().MonsterPen(c.level, Round) != c.round || Book().MonsterPen(c.level, Ceil) != c.ceil {
			t.Errorf("level %d: %d %d, want %d %d", c.level, Book().MonsterPen(c.level, Round), Book().MonsterPen(c.level, Ceil), c.round, c.ceil)
		}
	}
	bands := []struct{ lo, hi, pen int }{{1, 8, 0}, {9, 14, 1}, {15, 20, 2}, {21, 26, 3}, {27, 32, 4}}
	differ := []int{}
	for _, b := range bands {
		for l := b.lo; l <= b.hi; l++ {
			if Book().MonsterPen(l, Round) != b.pen {
				t.Errorf("level %d: %d, table %d", l, Book().MonsterPen(l, Round), b.pen)
			}
			if Book().MonsterPen(l, Ceil) != Book().MonsterPen(l, Round) {
				differ = append(differ, l)
			}
		}
	}
	if fmt.Sprint(differ) != "[7 8 13 14 19 20 25 26 31 32]" {
		t.Errorf("ceiling differs at %v", differ)
	}
}

func TestUsage(t *testing.T) {
	// H10.
	if u := Book().UsageCheck(dice.NewScripted([]int{2}), 8); u.After != 6 {
		t.Errorf("H10 2: %+v", u)
	}
	if u := Book().UsageCheck(dice.NewScripted([]int{5}), 8); u.After != 8 {
		t.Errorf("H10 5: %+v", u)
	}
	// H11: a d4 rolling 1 is exhausted.
	if u := Book().UsageCheck(dice.NewScripted([]int{1}), 4); u.After != 0 {
		t.Errorf("H11: %+v", u)
	}
	for d, want := range map[int]string{4: "1/2", 6: "2/3", 8: "3/4", 10: "4/5", 12: "5/6"} {
		if Book().UsageHolds(d).RatString() != want {
			t.Errorf("d%d holds %s", d, Book().UsageHolds(d).RatString())
		}
	}
	// Expected checks until destruction: d4 2, d6 5, d8 9, d10 14, d12 20.
	exp := new(big.Rat)
	for _, d := range []int{4, 6, 8, 10, 12} {
		exp.Add(exp, big.NewRat(int64(d), 2))
		want := map[int]int64{4: 2, 6: 5, 8: 9, 10: 14, 12: 20}[d]
		if exp.Cmp(big.NewRat(want, 1)) != 0 {
			t.Errorf("d%d: expected checks %s, want %d", d, exp.RatString(), want)
		}
	}
}

func TestRepair(t *testing.T) {
	// H8: coraza 3 DB, 2 broken, 2d6 → 2, 4.
	r := Book().RepairWith(dice.NewScripted([]int{2, 4}), RepairParams(1, 2, 6))
	if r.Restored != 1 || r.Lost != 1 || r.NewMax != 2 {
		t.Errorf("H8: %+v", r)
	}
	// A die at the score loses its DB, one above restores it: 2 intact
	// and 2 broken (score 4) on d6 rolled 4 and 4 lose both, 5 and 6 keep both.
	if r := Book().RepairWith(dice.NewScripted([]int{4, 4}), RepairParams(2, 2, 6)); r.Restored != 0 || r.Lost != 2 || r.NewMax != 2 || r.Score != 4 {
		t.Errorf("dice at the score: %+v", r)
	}
	if r := Book().RepairWith(dice.NewScripted([]int{5, 6}), RepairParams(2, 2, 6)); r.Restored != 2 || r.Lost != 0 || r.NewMax != 4 {
		t.Errorf("dice above the score: %+v", r)
	}
	// H9: tela with its DB broken is destroyed.
	if r := Book().RepairWith(dice.NewScripted(nil), RepairParams(0, 1, 6)); !r.Destroyed {
		t.Errorf("H9: %+v", r)
	}
	// H12: a d4 can never beat 4: nothing rolled.
	src := dice.NewScripted([]int{4})
	if r := Book().RepairWith(src, RepairParams(2, 2, 4)); !r.Hopeless || src.Used() != 0 {
		t.Errorf("H12: %+v", r)
	}
	if got := Book().RepairAll(1, 2, 6).RatString(); got != "1/4" {
		t.Errorf("repair chance %s", got)
	}
	if got := Book().RepairAll(4, 1, 6).RatString(); got != "1/6" {
		t.Errorf("full plate %s", got)
	}
}

func TestMountAndAsphyxia(t *testing.T) {
	// The mount's d20 is dh.yaml's check mount (the reply laid out by the file).
	if res, err := Book().File().Roll("mount", engine.Params{}, dice.NewScripted([]int{8})); err != nil || !res.Success {
		t.Error("H13 8", err)
	}
	if res, err := Book().File().Roll("mount", engine.Params{}, dice.NewScripted([]int{7})); err != nil || res.Success {
		t.Error("H13 7", err)
	}
	if p, _, err := Book().File().Chance("mount", engine.Params{}); err != nil || p.RatString() != "13/20" {
		t.Error(p, err)
	}
	if need, pen := Book().Asphyxia(13); !need || pen != 2 {
		t.Errorf("H14: %v %d", need, pen)
	}
	if need, _ := Book().Asphyxia(10); need {
		t.Error("round 10")
	}
	if _, pen := Book().Asphyxia(11); pen != 0 {
		t.Error("round 11")
	}
}

// docs/dungeonhack.md#exact-chances.
func TestChances(t *testing.T) {
	if got := Book().AbovePen(coraza()).RatString(); got != "35/1728" {
		t.Errorf("espada larga vs coraza: %s", got)
	}
	esp, _ := WeaponByKey("espadon")
	a := Attack{DmgN: esp.DmgN, DmgS: esp.DmgS, Pen: esp.Pen, DB: 1, DBFaces: 4}
	if got := AtLeast(a, 5).RatString(); got != "11/24" {
		t.Errorf("espadón vs acolchada: %s", got)
	}
}

// AtLeast agrees with resolving every combination of dice.
func TestAtLeastMatchesResolve(t *testing.T) {
	for _, a := range []Attack{
		coraza(),
		{DmgN: 2, DmgS: 6, Bonus: 1, Pen: 2, DB: 2, DBFaces: 4, Static: 1},
		{DmgN: 1, DmgS: 12, Pen: 1, DB: 3, DBFaces: 6, Mode: Highest},
		{DmgN: 1, DmgS: 4},
	} {
		n := a.DmgN + a.DB
		count := map[int]int{}
		total := 0
		faces := make([]int, n)
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				r := Book().ResolveAttack(dice.NewScripted(faces), a)
				count[r.Final]++
				total++
				return
			}
			s := a.DmgS
			if i >= a.DmgN {
				s = a.DBFaces
			}
			for f := 1; f <= s; f++ {
				faces[i] = f
				walk(i + 1)
			}
		}
		walk(0)
		for x := 0; x <= 30; x++ {
			ok := 0
			for v, c := range count {
				if v >= x {
					ok += c
				}
			}
			if got := AtLeast(a, x); got.Cmp(big.NewRat(int64(ok), int64(total))) != 0 {
				t.Fatalf("%+v ≥%d: %s, enumeration %d/%d", a, x, got.RatString(), ok, total)
			}
		}
	}
}

// Damage is the distribution of the damage over every roll of the dice,
// counted here die by die with the rule as docs/dungeonhack.md#damage
// states it (the damage dice plus modifiers, minus the DB dice, summed or
// the highest, minus the static absorption; never below the Penetración
// nor 0), not with ResolveAttack.
func TestDamageMatchesEnumeration(t *testing.T) {
	for _, a := range []Attack{
		coraza(),
		{DmgN: 2, DmgS: 6, Bonus: 1, Pen: 2, DB: 2, DBFaces: 4, Static: 1},
		{DmgN: 1, DmgS: 12, Pen: 1, DB: 3, DBFaces: 6, Mode: Highest},
		{DmgN: 1, DmgS: 4},
		{DmgN: 1, DmgS: 3, Bonus: -2, DB: 1, DBFaces: 4},
		{DmgN: 3, DmgS: 4, Pen: 5, DB: 2, DBFaces: 6, Static: 2},
		{Pen: 2, DB: 2, DBFaces: 6}, // no damage die (a battle wrap): always its Penetración
	} {
		n := a.DmgN + a.DB
		count := map[int]int64{}
		var total int64
		faces := make([]int, n)
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				raw, abs := a.Bonus, 0
				for k, f := range faces {
					switch {
					case k < a.DmgN:
						raw += f
					case a.Mode == Highest:
						abs = max(abs, f)
					default:
						abs += f
					}
				}
				d := raw - abs - a.Static
				if d < a.Pen {
					d = a.Pen
				}
				if d < 0 {
					d = 0
				}
				count[d]++
				total++
				return
			}
			s := a.DmgS
			if i >= a.DmgN {
				s = a.DBFaces
			}
			for f := 1; f <= s; f++ {
				faces[i] = f
				walk(i + 1)
			}
		}
		walk(0)
		lo, p := Book().Damage(a)
		sum := new(big.Rat)
		for i, q := range p {
			sum.Add(sum, q)
			if want := big.NewRat(count[lo+i], total); q.Cmp(want) != 0 {
				t.Errorf("%+v: P(damage = %d) = %s, enumeration %s", a, lo+i, q.RatString(), want.RatString())
			}
		}
		for d, c := range count {
			if d < lo || d >= lo+len(p) {
				t.Errorf("%+v: damage %d (%d of %d rolls) outside %d..%d", a, d, c, total, lo, lo+len(p)-1)
			}
		}
		if p[0].Sign() == 0 || p[len(p)-1].Sign() == 0 || sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%+v: from %s to %s, sum %s", a, p[0].RatString(), p[len(p)-1].RatString(), sum.RatString())
		}
	}
}

// The largest attack's distribution is exact too: it sums to 1, from its
// Penetración to every die at its top.
func TestDamageLargest(t *testing.T) {
	a := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, Pen: 2, DB: MaxDB, DBFaces: 12, Bonus: MaxBonus}
	lo, p := Book().Damage(a)
	sum := new(big.Rat)
	for _, q := range p {
		sum.Add(sum, q)
	}
	if lo != 2 || lo+len(p)-1 != MaxDamageDice*MaxDamageSide+MaxBonus-MaxDB || sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("from %d to %d, sum %s", lo, lo+len(p)-1, sum.RatString())
	}
}

// The damage ResolveAttack rolls follows Damage: 200,000 seeded rolls of
// each attack, by chi-square over the damages expected at least 20 times
// (the rest pooled), and no damage outside the distribution.
func TestDamageAgainstSeededRolls(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 rolls per attack")
	}
	const n = 200_000
	for _, a := range []Attack{
		coraza(),
		{DmgN: 2, DmgS: 8, Pen: 2, DB: 2, DBFaces: 6},
		{DmgN: 1, DmgS: 12, Pen: 1, DB: 3, DBFaces: 6, Mode: Highest},
		{DmgN: 3, DmgS: 6, Bonus: -2, Pen: 1, DB: 4, DBFaces: 4, Static: 1},
		{DmgN: 10, DmgS: 20, Bonus: 5, Pen: 3, DB: 10, DBFaces: 12},
	} {
		lo, p := Book().Damage(a)
		src := dice.Seeded(24)
		count := map[int]int{}
		for range n {
			count[Book().ResolveAttack(src, a).Final]++
		}
		var chi, restExp float64
		restObs, df := 0, -1
		for i, q := range p {
			f, _ := q.Float64()
			exp := f * n
			if exp < 20 {
				restExp += exp
				restObs += count[lo+i]
				continue
			}
			d := float64(count[lo+i]) - exp
			chi += d * d / exp
			df++
		}
		for v, c := range count {
			if v < lo || v >= lo+len(p) {
				t.Errorf("%+v: rolled %d damage %d times, outside %d..%d", a, v, c, lo, lo+len(p)-1)
			}
		}
		if restExp >= 20 {
			d := float64(restObs) - restExp
			chi += d * d / restExp
			df++
		}
		// far beyond the 99.99th percentile of chi-square with df degrees
		if limit := float64(df) + 8*math.Sqrt(2*float64(max(df, 1))) + 20; chi > limit {
			t.Errorf("%+v: chi-square %.1f over %d degrees of freedom (limit %.1f)", a, chi, df, limit)
		}
	}
}

// The largest attack allowed stays exact: P(≥ 0) = 1.
func TestAtLeastLargest(t *testing.T) {
	a := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, DB: MaxDB, DBFaces: 12}
	if got := AtLeast(a, 0); got.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("%s", got.RatString())
	}
}

func BenchmarkAbovePen(b *testing.B) {
	b.ReportAllocs()
	a := coraza()
	for b.Loop() {
		Book().AbovePen(a)
	}
}

func BenchmarkAbovePenLargest(b *testing.B) {
	b.ReportAllocs()
	a := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, Pen: 2, DB: MaxDB, DBFaces: 12}
	for b.Loop() {
		Book().AbovePen(a)
	}
}

// BenchmarkDamageLargest: the distribution of the largest attack allowed,
// what /odds dh and the dice screen compute for it.
func BenchmarkDamageLargest(b *testing.B) {
	b.ReportAllocs()
	a := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, Pen: 2, DB: MaxDB, DBFaces: 12}
	for b.Loop() {
		Book().Damage(a)
	}
}

// BenchmarkAbovePenCold: the odds of an attack never asked before (the
// engine's odds cache bypassed), what bench/compare's cold row measures.
func BenchmarkAbovePenCold(b *testing.B) {
	b.ReportAllocs()
	pr := coraza().Params()
	pr.Fresh = true
	for b.Loop() {
		if _, _, err := Book().File().Chance("attack", pr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAbovePenLargestCold(b *testing.B) {
	b.ReportAllocs()
	pr := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, Pen: 2, DB: MaxDB, DBFaces: 12}.Params()
	pr.Fresh = true
	for b.Loop() {
		if _, _, err := Book().File().Chance("attack", pr); err != nil {
			b.Fatal(err)
		}
	}
}
