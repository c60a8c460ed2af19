package systems_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"zaria/core/systems/daegon"
	"zaria/core/systems/kh"
	"zaria/core/systems/rq"
	"zaria/core/systems/zaria"
)

var updateOdds = flag.Bool("update-odds", false, "rewrite testdata/odds_fixture.txt from the current code")

// oddsLines computes the exact odds of every check the systems' public
// functions answer, over whole ranges (not only the examples of docs/
// zaria.md, daegon.md, rq.md and kh.md, which they include: Ζαριά 4+0 vs 10 = 9/20, Daegon 12 vs 7 =
// 229/250, RQ chance 45, KH 6 +2s +1i vs 17 = 79763/279936, …).
func oddsLines() []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	modes := []struct {
		name string
		m    zaria.Mode
	}{{"media_baja", zaria.Low}, {"media_exacta", zaria.Exact}, {"media_alta", zaria.High}}
	for _, md := range modes {
		for _, npcEpic := range []bool{false, true} {
			r := zaria.Rules{Mode: md.m, NPCEpics: npcEpic}
			for _, npc := range []bool{false, true} {
				for mod := 1; mod <= 20; mod++ {
					for dc := 5; dc <= 30; dc++ {
						add("zaria %s epic=%v npc=%v %d dc%d %s", md.name, npcEpic, npc, mod, dc, r.Chance(zaria.Side{Mod: mod, NPC: npc}, dc).RatString())
					}
				}
			}
			for am := 1; am <= 20; am++ {
				for _, an := range []bool{false, true} {
					for _, pm := range []int{1, 8, 12, 20} {
						for _, pn := range []bool{false, true} {
							a, p := zaria.Side{Mod: am, NPC: an}, zaria.Side{Mod: pm, NPC: pn}
							add("zaria %s epic=%v opposed %v vs %v %s", md.name, npcEpic, a, p, r.OpposedChance(a, p).RatString())
						}
					}
				}
			}
		}
	}
	for _, rd := range []daegon.Reading{daegon.Hundred, daegon.Zero} {
		for nh := daegon.MinNH; nh <= daegon.MaxNH; nh++ {
			for d := daegon.MinD; d <= daegon.MaxD; d++ {
				add("daegon %d nh%d d%d %s", rd, nh, d, daegon.Book().Chance(nh, d, rd).RatString())
			}
			for p := daegon.MinNH; p <= daegon.MaxNH; p++ {
				add("daegon %d opposed %d vs %d %s", rd, nh, p, daegon.Book().OpposedChance(nh, p, rd).RatString())
			}
		}
	}
	for c := -160; c <= 160; c++ {
		o := rq.Book().Chances(c)
		add("rq %d %s %s %s", c, o.Success.RatString(), o.Critical.RatString(), o.Fumble.RatString())
		o = rq.Book().OppChances(c)
		add("rq opposed %d %s %s %s", c, o.Success.RatString(), o.Critical.RatString(), o.Fumble.RatString())
	}
	for _, in := range []kh.Input{{Cap: 6, Heartless: 2, Nobody: 1}, {Cap: 3}, {Cap: 4, Heartless: 1}, {Cap: 5, Nobody: 2}, {Cap: 2, Heartless: 3, Nobody: 3}} {
		for dc := 4; dc <= 30; dc++ {
			add("kh %+v dc%d %s", in, dc, kh.Of(nil).Chance(in, dc).RatString())
		}
	}
	return out
}

// TestOddsFixture compares the exact odds with those recorded from the
// systems' Go code before they became files (testdata/odds_fixture.txt):
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
