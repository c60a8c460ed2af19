package history_test

import (
	"math"
	"testing"

	"zaria/core/history"
)

func TestFairnessNumbers(t *testing.T) {
	counts := []history.FaceCount{{Sides: 6, Face: 1, Count: 8}, {Sides: 6, Face: 2, Count: 12}, {Sides: 6, Face: 6, Count: 10},
		{Sides: 20, Face: 3, Count: 99}, {Sides: 6, Face: 7, Count: 99}}
	f := history.FairnessOf(6, counts)
	// Observed 8,12,0,0,0,10 against 5 each: (9+49+25+25+25+25)/5 = 31.6.
	if f.N != 30 || f.Expected != 5 || math.Abs(f.ChiSq-31.6) > 1e-12 || f.DF != 5 || !f.Enough {
		t.Fatalf("fairness = %+v", f)
	}
	if want := history.ChiSquareSF(31.6, 5); f.P != want {
		t.Fatalf("p = %v, want %v", f.P, want)
	}
	if f := history.FairnessOf(6, nil); !math.IsNaN(f.P) || f.Enough {
		t.Fatalf("no dice: %+v", f)
	}
}

func TestChiSquareKnownValues(t *testing.T) {
	// Critical values from standard tables (p = 0.05 and 0.01).
	for _, tc := range []struct {
		x    float64
		df   int
		want float64
	}{
		{3.841458820694124, 1, 0.05},
		{6.634896601021214, 1, 0.01},
		{5.991464547107979, 2, 0.05},
		{18.307038053275146, 10, 0.05},
		{30.14352720564616, 19, 0.05},
		{36.19086912927004, 19, 0.01},
		{0, 7, 1},
		{1e6, 3, 0},
	} {
		if got := history.ChiSquareSF(tc.x, tc.df); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("ChiSquareSF(%v, %d) = %.15g, want %v", tc.x, tc.df, got, tc.want)
		}
	}
	// Closed forms: odd df from erfc, even df from a finite Poisson sum.
	for _, x := range []float64{0.01, 0.5, 1, 2.5, 4, 7.3, 12, 25, 60, 150} {
		odd1 := math.Erfc(math.Sqrt(x / 2))
		odd3 := odd1 + math.Sqrt(2*x/math.Pi)*math.Exp(-x/2)
		for _, tc := range []struct {
			df   int
			want float64
		}{{1, odd1}, {3, odd3}, {2, evenSF(x, 1)}, {10, evenSF(x, 5)}, {40, evenSF(x, 20)}, {198, evenSF(x, 99)}} {
			got := history.ChiSquareSF(x, tc.df)
			if d := math.Abs(got - tc.want); d > 1e-12 && d > 1e-10*tc.want {
				t.Errorf("ChiSquareSF(%v, %d) = %.15g, want %.15g", x, tc.df, got, tc.want)
			}
		}
	}
	for _, bad := range []struct {
		x  float64
		df int
	}{{-1, 3}, {1, 0}, {math.NaN(), 2}} {
		if got := history.ChiSquareSF(bad.x, bad.df); !math.IsNaN(got) {
			t.Errorf("ChiSquareSF(%v, %d) = %v, want NaN", bad.x, bad.df, got)
		}
	}
	// Q(1, x) = e^-x and Q(1/2, x) = erfc(√x).
	for _, x := range []float64{0.1, 1, 3, 10} {
		if got, want := history.GammaQ(1, x), math.Exp(-x); math.Abs(got-want) > 1e-14 {
			t.Errorf("GammaQ(1, %v) = %v, want %v", x, got, want)
		}
		if got, want := history.GammaQ(0.5, x), math.Erfc(math.Sqrt(x)); math.Abs(got-want) > 1e-14 {
			t.Errorf("GammaQ(0.5, %v) = %v, want %v", x, got, want)
		}
	}
}

// evenSF is the chi-square survival function for df = 2k:
// e^(-x/2) Σ_{i<k} (x/2)^i / i!.
func evenSF(x float64, k int) float64 {
	term, sum := 1.0, 1.0
	for i := 1; i < k; i++ {
		term *= x / 2 / float64(i)
		sum += term
	}
	return math.Exp(-x/2) * sum
}
