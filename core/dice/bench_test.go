package dice

import (
	"runtime"
	"testing"
	"time"
	"zaria/internal/cputime"
)

// BenchmarkRoll is parse + roll + render (reply spans) of one expression,
// the work of a /roll without the router.
func BenchmarkRoll(b *testing.B) {
	for _, in := range []string{"2d6+3", "4d6kh3", "8d10>=7", "4d6!", "1d100", "{1d20, 1d20}kh1+5", "{4d6+3d8}kh1"} {
		b.Run(in, func(b *testing.B) {
			src := Seeded(1)
			b.ReportAllocs()
			for b.Loop() {
				e, err := Parse(in)
				if err != nil {
					b.Fatal(err)
				}
				res, err := e.Roll(src, nil)
				if err != nil {
					b.Fatal(err)
				}
				_ = res.Spans(0, RenderOptions{})
			}
		})
	}
}

// BenchmarkOdds is parse + exact odds.
func BenchmarkOdds(b *testing.B) {
	for _, in := range []string{"3d6 dc12", "10d10kh3 dc20", "8d10>=7 vs 3", "4d6kh3", "100d6", "{1d20, 1d20}kh1+5 vs 15", "{2d6, 1d12}kh1", "{3d20+5, 2d10}>15", "{1d8, 1d10, 1d12}dl1"} {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, err := Parse(in)
				if err != nil {
					b.Fatal(err)
				}
				o, err := e.Odds(nil)
				if err != nil || o.Approx {
					b.Fatal(err, o.Approx)
				}
			}
		})
	}
}

// compareExprs are the shared expressions of bench/compare (issue 7).
var compareExprs = []string{"2d6+3", "4d6kh3", "1d100", "10d6", "4d6!", "8d10>=7", "1d100<=45"}

// BenchmarkParseRollTotal is what bench/compare times for zaria: parse,
// roll and total, with the ChaCha8 source a command uses.
func BenchmarkParseRollTotal(b *testing.B) {
	for _, in := range compareExprs {
		b.Run(in, func(b *testing.B) {
			src := NewSource()
			var sink int64
			b.ReportAllocs()
			for b.Loop() {
				e, err := Parse(in)
				if err != nil {
					b.Fatal(err)
				}
				res, err := e.Roll(src, nil)
				if err != nil {
					b.Fatal(err)
				}
				sink += res.Total()
			}
			_ = sink
		})
	}
}

// BenchmarkParse is Parse alone.
func BenchmarkParse(b *testing.B) {
	for _, in := range compareExprs {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// poolExprs are issue 40's pool table: sums of exploding dice, keep and
// drop over big pools, a big success pool, keep after explode.
var poolExprs = []string{"10d6!", "12d10!", "8d100d3", "20d10kh10", "30d6>=5", "5d10!kh3"}

// BenchmarkOddsPools is parse + odds of the pool table, with the CPU time
// of the benchmark's thread per operation (cpu-ms/op): on a shared,
// loaded machine the wall time (ns/op) counts the waiting too. Each must
// be exact (or cut under 10⁻¹²), not sampled.
func BenchmarkOddsPools(b *testing.B) {
	for _, in := range poolExprs {
		b.Run(in, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			c0, ok := cputime.Thread()
			for b.Loop() {
				e, err := Parse(in)
				if err != nil {
					b.Fatal(err)
				}
				o, err := e.Odds(nil)
				if err != nil || o.Sampled {
					b.Fatal(err, o.Sampled)
				}
			}
			if c1, ok2 := cputime.Thread(); ok && ok2 {
				b.ReportMetric(float64(c1-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
