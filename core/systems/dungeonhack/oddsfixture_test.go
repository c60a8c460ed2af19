package dungeonhack

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"zaria/core/systems/engine"
)

var updateOdds = flag.Bool("update-odds", false, "rewrite testdata/odds_fixture.txt from the current code")

// ratList is a distribution as "lo: p1 p2 …" (rationals).
func distLine(a Attack) string {
	lo, p := Book().Damage(a)
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", lo)
	for _, q := range p {
		b.WriteString(" " + q.RatString())
	}
	return b.String()
}

// oddsLines are the exact odds of every weapon against every armour (and
// none), under both DB house rules (suma, mayor) and both DB dice (d6,
// d4), with a bonus, a shield and a lowered Penetración; a sweep of typed
// attacks; the largest attack; the monster Penetración of every level in
// both roundings; the usage die, repair and mount chances.
func oddsLines() []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	modes := []struct {
		name string
		m    Absorb
	}{{"suma", Sum}, {"mayor", Highest}}
	armours := append([]Armour{{Key: "ninguna"}}, Book().Armours()...)
	for _, w := range Book().Weapons() {
		for _, ar := range armours {
			for _, md := range modes {
				for _, faces := range []int{6, 4} {
					for _, v := range []struct{ bonus, static, pen int }{{0, 0, w.Pen}, {2, 1, w.Pen}, {-1, 0, max(w.Pen-1, 0)}} {
						a := Attack{DmgN: w.DmgN, DmgS: w.DmgS, Bonus: v.bonus, Pen: v.pen, DB: ar.DB, DBFaces: faces, Static: v.static, Mode: md.m}
						if a.DmgN == 0 {
							a.DmgS = 0
						}
						add("dh %s vs %s %s d%d bonus%+d static%d pen%d above=%s atleast3=%s dist %s", w.Key, ar.Key, md.name, faces, v.bonus, v.static, v.pen,
							Book().AbovePen(a).RatString(), AtLeast(a, 3).RatString(), distLine(a))
					}
				}
			}
		}
	}
	for _, n := range []int{1, 2, 3, 5} {
		for _, s := range []int{2, 3, 6, 10, 20} {
			for _, pen := range []int{0, 2, 5} {
				for _, db := range []int{0, 1, 4, 7} {
					for _, faces := range []int{8, 10, 12} {
						for _, md := range modes {
							a := Attack{DmgN: n, DmgS: s, Bonus: -3, Pen: pen, DB: db, DBFaces: faces, Static: 2, Mode: md.m}
							add("dh %dd%d-3 pen%d vs %ddb d%d +2 %s above=%s dist %s", n, s, pen, db, faces, md.name, Book().AbovePen(a).RatString(), distLine(a))
						}
					}
				}
			}
		}
	}
	for _, md := range modes {
		a := Attack{DmgN: MaxDamageDice, DmgS: MaxDamageSide, Bonus: MaxBonus, Pen: 2, DB: MaxDB, DBFaces: 12, Static: MaxStatic, Mode: md.m}
		add("dh largest %s above=%s dist %s", md.name, Book().AbovePen(a).RatString(), distLine(a))
	}
	for lvl := MinLevel; lvl <= MaxLevel; lvl++ {
		add("dh pen level %d redondeo %d techo %d", lvl, Book().MonsterPen(lvl, Round), Book().MonsterPen(lvl, Ceil))
	}
	for _, d := range UsageChain {
		add("dh usage d%d holds %s", d, Book().UsageHolds(d).RatString())
	}
	for intact := 0; intact <= 6; intact++ {
		for broken := 1; broken <= 4; broken++ {
			for _, f := range []int{4, 6, 8, 10, 12} {
				add("dh repair %d+%d d%d all %s", intact, broken, f, Book().RepairAll(intact, broken, f).RatString())
			}
		}
	}
	mount, _, err := Book().File().Chance("mount", engine.Params{})
	if err != nil {
		panic(err)
	}
	add("dh mount %s", mount.RatString())
	return out
}

// TestOddsFixture compares the exact odds with those recorded from the
// Go code before Dungeon Hack became a file (testdata/odds_fixture.txt):
// every rational must be equal. Run with -update-odds only to record.
func TestOddsFixture(t *testing.T) {
	got := strings.Join(oddsLines(), "\n") + "\n"
	const path = "testdata/odds_fixture.txt"
	if *updateOdds {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	if len(g) != len(w) {
		t.Fatalf("%d lines, the fixture has %d", len(g), len(w))
	}
	bad := 0
	for i := range g {
		if g[i] != w[i] {
			if bad++; bad <= 10 {
				t.Errorf("line %d: got %q, recorded %q", i+1, g[i], w[i])
			}
		}
	}
}
