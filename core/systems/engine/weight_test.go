package engine

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// A weight's rational is the exact sum of what was added, in lowest
// terms, whatever its denominators (the int64 reduction and the big
// fallback alike).
func TestWeightRatExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dens := []int64{6, 36, 216, 100, 400, 1 << 40, 3 << 40, 7 * 1e15, 1e18}
	for range 20000 {
		var w weight
		want := new(big.Rat)
		for range rng.IntN(25) + 1 {
			d := dens[rng.IntN(len(dens))]
			n := rng.Int64N(d + 1)
			w.add(n, d)
			want.Add(want, big.NewRat(n, d))
		}
		if got := w.rat(); got.Cmp(want) != 0 || got.String() != want.String() {
			t.Fatalf("sum %s, want %s", got, want)
		}
	}
}
