package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"zaria/internal/cputime"
)

// cold runs f, a check's odds computed anew, reporting the CPU time of
// the benchmark's thread per operation (cpu-µs/op): on a shared, loaded
// machine the wall time (ns/op) counts the waiting too.
func cold(b *testing.B, f func() error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := cputime.Thread()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	if c1, ok2 := cputime.Thread(); ok && ok2 {
		b.ReportMetric(float64(c1-c0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	}
}

func BenchmarkDaegonChance(b *testing.B) {
	s := MustBuiltin("daegon")
	pr := Params{Inputs: map[string]int{"nh": 7, "d": 3}}
	for b.Loop() {
		if _, _, err := s.Chance("test", pr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDaegonOpposedChance(b *testing.B) {
	s := MustBuiltin("daegon")
	pr := Params{Inputs: map[string]int{"nh": 12}, Passive: map[string]int{"nh": 7}}
	for b.Loop() {
		if _, _, err := s.Chance("opposed", pr); err != nil {
			b.Fatal(err)
		}
	}
}

// The odds of a check never asked before: no cache.
func BenchmarkDaegonChanceCold(b *testing.B) {
	s := MustBuiltin("daegon")
	c, _ := s.check("test")
	pr := Params{Inputs: map[string]int{"nh": 7, "d": 3}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkDaegonOpposedChanceCold(b *testing.B) {
	s := MustBuiltin("daegon")
	c, _ := s.check("opposed")
	pr := Params{Inputs: map[string]int{"nh": 12}, Passive: map[string]int{"nh": 7}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkZariaChanceCold(b *testing.B) {
	s := MustBuiltin("zaria")
	c, _ := s.check("check")
	pr := Params{Inputs: map[string]int{"mod": 6, "dc": 15}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkZariaOpposedChanceCold(b *testing.B) {
	s := MustBuiltin("zaria")
	c, _ := s.check("opposed")
	pr := Params{Inputs: map[string]int{"mod": 8}, Passive: map[string]int{"mod": 9}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkKHChanceCold(b *testing.B) {
	s := MustBuiltin("kh")
	c, _ := s.check("test")
	pr := Params{Inputs: map[string]int{"cap": 6, "s": 2, "i": 1, "dc": 17}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkKHChanceLargestCold(b *testing.B) {
	s := MustBuiltin("kh")
	c, _ := s.check("test")
	pr := Params{Inputs: map[string]int{"cap": 20, "s": 5, "i": 5, "dc": 40}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkRQChancesCold(b *testing.B) {
	s := MustBuiltin("rq")
	c, _ := s.check("roll")
	pr := Params{Inputs: map[string]int{"skill": -5}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

func BenchmarkRQOppChancesCold(b *testing.B) {
	s := MustBuiltin("rq")
	c, _ := s.check("opposed")
	pr := Params{Inputs: map[string]int{"off": 60, "def": 45}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

// Dungeon Hack's attack, espada larga vs coraza (bench/compare's row):
// the damage dice against the armour's, the chance above the penetration.
func BenchmarkDHAttackCold(b *testing.B) {
	s := MustBuiltin("dh")
	c, _ := s.check("attack")
	pr := Params{Inputs: map[string]int{"dmg_s": 8, "pen": 1, "db": 3}}
	cold(b, func() error {
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

// A count-read pool (V5: 12 dice and 3 of hunger, read by count_ge(6),
// count(10) and count(1)): core/dice's FoldPool.
func BenchmarkV5ChanceCold(b *testing.B) {
	s := MustBuiltin("v5")
	c, _ := s.check("test")
	pr := Params{Inputs: map[string]int{"pool": 15, "hunger": 3, "diff": 6}}
	cold(b, func() error {
		forgetPools(c)
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

// Exploding dice read by sum (Savage Worlds' d12 and Wild Die, aces to
// the file's depth): core/dice's bounded explosion.
func BenchmarkSWChanceCold(b *testing.B) {
	s := MustBuiltin("sw")
	c, _ := s.check("trait")
	pr := Params{Inputs: map[string]int{"die": 12, "mod": 1, "target": 6, "extra": 0}}
	cold(b, func() error {
		forgetPools(c)
		_, err := s.computeOdds(c, pr, false)
		return err
	})
}

// The largest exact pools, past 10^15 rolls (wide.go), computed anew:
// Shadowrun's 32 d6 read by count_ge(5), count(1) and size (6^32 rolls,
// FoldPool in big integers), L5R's 10 d10 exploding 5 times read by
// sum_highest(N) (10^60 rolls: HighestK; 10k10 by SumPool).
func BenchmarkWidePoolCold(b *testing.B) {
	for _, c := range []struct{ file, check, words string }{
		{"sr5", "test", "32 t10"}, {"l5r", "roll", "10k5 tn40"}, {"l5r", "roll", "10k9 tn60"}, {"l5r", "roll", "10k10 tn60"},
	} {
		b.Run(c.file+" "+c.words, func(b *testing.B) {
			src, err := os.ReadFile(filepath.Join("testdata", "outsider", c.file+".yaml"))
			if err != nil {
				b.Fatal(err)
			}
			s, err := Load(src)
			if err != nil {
				b.Fatal(err)
			}
			p, err := s.ParseWords(strings.Fields(c.words))
			if err != nil {
				b.Fatal(err)
			}
			ch, _ := s.check(c.check)
			pr := s.Params(p)
			cold(b, func() error {
				forgetPools(ch)
				od, err := s.computeOdds(ch, pr, false)
				if err == nil && !od.Exact {
					b.Fatal("sampled")
				}
				return err
			})
		})
	}
}

// forgetPools empties the check's pools' distributions found so far.
func forgetPools(c *check) {
	for _, st := range c.steps {
		if st.roll != nil {
			st.roll.mu.Lock()
			st.roll.memo = map[int]*poolDist{}
			st.roll.mu.Unlock()
		}
	}
}
