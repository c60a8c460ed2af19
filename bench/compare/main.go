// Command compare times zaria's dice core side by side with the JavaScript
// engines people use today (@dice-roller/rpg-dice-roller and bcdice), on the
// same expressions, in the same run, and prints a table of operations per
// second with zaria's ratio to each. It also times the exact odds of each of
// the five game systems. Run it with `make bench-compare` (bench/compare/run.sh
// installs the pinned engines into a temporary folder first).
//
//	go run -tags goolm ./bench/compare --node-script /tmp/x/engines.mjs
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core/dice"
	"zaria/core/systems/daegon"
	"zaria/core/systems/dungeonhack"
	"zaria/core/systems/engine"
	"zaria/core/systems/kh"
	"zaria/core/systems/rq"
	"zaria/core/systems/zaria"
)

// The shared expressions, in the order of issue 7.
var exprs = []string{"2d6+3", "4d6kh3", "1d100", "10d6", "4d6!", "8d10>=7", "1d100<=45"}

// Targets of issue 7: zaria must be at least this many times faster.
var targets = map[string]float64{"rpg-dice-roller": 20, "bcdice": 500}

func main() {
	script := flag.String("node-script", "", "engines.mjs in a folder with node_modules installed; empty: zaria only")
	ms := flag.Int("ms", 2000, "milliseconds per case for the JavaScript engines")
	runs := flag.Int("runs", 3, "rounds; every engine keeps its best figure per expression (noise on a shared machine only slows things down)")
	oddsOnly := flag.Bool("odds-only", false, "only the exact-odds table (to compare two builds run by turns)")
	match := flag.String("odds-match", "", "only the exact-odds rows whose name holds this")
	flag.Parse()
	if *oddsOnly {
		oddsTable(*match)
		return
	}

	// Rounds alternate the engines, so a busy moment of the machine hits
	// each of them; each keeps its best round, the same rule for all.
	zariaOps := map[string]float64{}
	var js map[string]map[string]float64
	versions := map[string]string{}
	for round := 0; round < *runs; round++ {
		for _, e := range exprs {
			zariaOps[e] = max(zariaOps[e], opsPerSec(rollCase(e)))
		}
		if *script == "" {
			continue
		}
		got, v, err := runNode(*script, *ms)
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(1)
		}
		versions = v
		if js == nil {
			js = got
			continue
		}
		for en, m := range got {
			for e, ops := range m {
				js[en][e] = max(js[en][e], ops)
			}
		}
	}

	fmt.Printf("parse + roll + result, operations per second, best of %d rounds (%s)\n\n", *runs, time.Now().UTC().Format("2006-01-02"))
	engines := []string{"rpg-dice-roller", "bcdice"}
	fmt.Printf("%-12s %14s", "expression", "zaria")
	for _, en := range engines {
		if js != nil {
			fmt.Printf(" %16s %8s", en+" "+versions[en], "ratio")
		}
	}
	fmt.Println()
	failed := false
	for _, e := range exprs {
		fmt.Printf("%-12s %14s", e, human(zariaOps[e]))
		for _, en := range engines {
			if js == nil {
				continue
			}
			other := js[en][e]
			ratio := zariaOps[e] / other
			mark := ""
			if ratio < targets[en] {
				mark, failed = " (<"+strconv.Itoa(int(targets[en]))+"×)", true
			}
			fmt.Printf(" %16s %7.0f×%s", human(other), ratio, mark)
		}
		fmt.Println()
	}
	if js != nil {
		fmt.Printf("\ntargets: ≥%.0f× rpg-dice-roller, ≥%.0f× bcdice on every expression: ", targets["rpg-dice-roller"], targets["bcdice"])
		if failed {
			fmt.Println("NOT MET")
		} else {
			fmt.Println("met")
		}
	}

	oddsTable(*match)
	if failed {
		os.Exit(1)
	}
}

// oddsTable times the exact odds of each of oddsCases whose name holds
// match.
func oddsTable(match string) {
	fmt.Printf("\nexact odds, time per computation (wall clock, and CPU time of the process)\n\n")
	for _, c := range oddsCases() {
		if !strings.Contains(c.name, match) {
			continue
		}
		var cpu time.Duration // of the last, longest round of the benchmark
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			c0, ok := cpuNow()
			for b.Loop() {
				c.fn()
			}
			if c1, ok2 := cpuNow(); ok && ok2 {
				cpu = (c1 - c0) / time.Duration(b.N)
			}
		})
		fmt.Printf("%-44s %10s %10s cpu %8d allocs %10d B\n", c.name, time.Duration(r.NsPerOp()).String(), cpu.String(), r.AllocsPerOp(), r.AllocedBytesPerOp())
	}
}

// rollCase is zaria's parse+roll+result for one expression. 1d100<=45 is
// RuneQuest's check (bcdice runs it through its RuneQuest system): zaria
// parses it and resolves it with its RQ rules (criticals and fumbles).
func rollCase(e string) func(src dice.Source) int64 {
	if e == "1d100<=45" {
		return func(src dice.Source) int64 {
			x, err := dice.Parse(e)
			if err != nil {
				panic(err)
			}
			_ = x
			// A chance of 45: 50 + a skill of −5 (rq.yaml's check roll).
			res, err := rq.Book().File().Roll("roll", engine.Params{Inputs: map[string]int{"skill": 45 - 50}}, src)
			if err != nil {
				panic(err)
			}
			if res.Success {
				return 1
			}
			return 0
		}
	}
	return func(src dice.Source) int64 {
		x, err := dice.Parse(e)
		if err != nil {
			panic(err)
		}
		res, err := x.Roll(src, nil)
		if err != nil {
			panic(err)
		}
		return res.Total()
	}
}

func opsPerSec(fn func(dice.Source) int64) float64 {
	src := dice.NewSource()
	var sink int64
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			sink += fn(src)
		}
	})
	_ = sink
	return 1e9 / float64(r.NsPerOp())
}

type oddsCase struct {
	name string
	fn   func()
}

func oddsCases() []oddsCase {
	zr := zaria.Rules{}
	return []oddsCase{
		{"Ζαριά 4+2 dc15", func() { zr.Chance(zaria.Side{Mod: 6}, 15) }},
		{"Ζαριά 5+3 vs 4+4 (opposed)", func() { zr.OpposedChance(zaria.Side{Mod: 8}, zaria.Side{Mod: 8}) }},
		{"Daegon NH 7, D3", func() { daegon.Book().Chance(7, 3, daegon.Hundred) }},
		{"Daegon 12 vs 7 (opposed)", func() { daegon.Book().OpposedChance(12, 7, daegon.Hundred) }},
		{"RQ chance 45", func() { rq.Book().Chances(45) }},
		{"RQ 60 vs 45 (opposed)", func() { rq.Book().OppChances(65) }},
		{"KH 6 +2s +1i dc17", func() { kh.Of(nil).Chance(kh.Input{Cap: 6, Heartless: 2, Nobody: 1}, 17) }},
		{"Dungeon Hack espada larga vs coraza", func() {
			dungeonhack.Book().AbovePen(dungeonhack.Attack{DmgN: 1, DmgS: 8, Pen: 1, DB: 3, DBFaces: 6})
		}},
		// The same checks never asked before: the engine's odds cache
		// (core/systems/engine) keeps the last 4,096 of each system.
		{"Ζαριά 4+2 dc15 (cold)", cold("zaria", "check", engine.Params{Inputs: map[string]int{"mod": 6, "dc": 15}})},
		{"Ζαριά 5+3 vs 4+4 (cold)", cold("zaria", "opposed", engine.Params{Inputs: map[string]int{"mod": 8}, Passive: map[string]int{"mod": 8}})},
		{"Daegon NH 7, D3 (cold)", cold("daegon", "test", engine.Params{Inputs: map[string]int{"nh": 7, "d": 3}})},
		{"Daegon 12 vs 7 (cold)", cold("daegon", "opposed", engine.Params{Inputs: map[string]int{"nh": 12}, Passive: map[string]int{"nh": 7}})},
		{"RQ chance 45 (cold)", cold("rq", "roll", engine.Params{Inputs: map[string]int{"skill": -5}})},
		{"RQ 60 vs 45 (cold)", cold("rq", "opposed", engine.Params{Inputs: map[string]int{"off": 60, "def": 45}})},
		{"KH 6 +2s +1i dc17 (cold)", cold("kh", "test", engine.Params{Inputs: map[string]int{"cap": 6, "s": 2, "i": 1, "dc": 17}})},
		{"Dungeon Hack espada larga vs coraza (cold)", cold("dh", "attack", engine.Params{Inputs: map[string]int{"dmg_s": 8, "pen": 1, "db": 3}})},
		{"generic 3d6 dc12", func() { mustOdds("3d6 dc12") }},
		{"generic 10d10kh3 dc20", func() { mustOdds("10d10kh3 dc20") }},
		// issue 40's pools: exploding sums, keep and drop over big pools,
		// a success pool, keep after explode
		{"pool 10d6!", func() { mustOdds("10d6!") }},
		{"pool 12d10!", func() { mustOdds("12d10!") }},
		{"pool 8d100d3", func() { mustOdds("8d100d3") }},
		{"pool 20d10kh10", func() { mustOdds("20d10kh10") }},
		{"pool 30d6>=5", func() { mustOdds("30d6>=5") }},
		{"pool 5d10!kh3", func() { mustOdds("5d10!kh3") }},
	}
}

// cold is a check's odds computed anew each time (no odds cache).
func cold(system, check string, pr engine.Params) func() {
	s := engine.MustBuiltin(system)
	pr.Fresh = true
	return func() {
		if _, err := s.Outcomes(check, pr); err != nil {
			panic(err)
		}
	}
}

func mustOdds(e string) {
	x, err := dice.Parse(e)
	if err != nil {
		panic(err)
	}
	o, err := x.Odds(nil)
	if err != nil {
		panic(err)
	}
	if o.Sampled {
		panic(e + ": sampled, not computed")
	}
}

// runNode runs the JavaScript engines' timings.
func runNode(script string, ms int) (map[string]map[string]float64, map[string]string, error) {
	out, err := exec.Command("node", script, strconv.Itoa(ms)).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("node %s: %w", script, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, nil, fmt.Errorf("node output: %w", err)
	}
	res := map[string]map[string]float64{}
	for _, en := range []string{"rpg-dice-roller", "bcdice"} {
		m := map[string]float64{}
		if err := json.Unmarshal(raw[en], &m); err != nil {
			return nil, nil, fmt.Errorf("node output for %s: %w", en, err)
		}
		res[en] = m
	}
	versions := map[string]string{}
	_ = json.Unmarshal(raw["versions"], &versions)
	return res, versions, nil
}

func human(ops float64) string {
	switch {
	case ops >= 1e6:
		return strings.TrimSuffix(fmt.Sprintf("%.2fM", ops/1e6), ".00M")
	case ops >= 1e3:
		return fmt.Sprintf("%.1fk", ops/1e3)
	default:
		return fmt.Sprintf("%.0f", ops)
	}
}
