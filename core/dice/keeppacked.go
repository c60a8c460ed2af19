package dice

import (
	"math"
	"math/big"
	"math/bits"
)

// The keep/drop program of keepN over packed vectors: for each count m of
// dice kept so far, the weights of every sum are the digits of one big
// number (as in convKronecker), so that a step of the program — every sum
// of a state moved by j faces and weighed by C(n−m, j)·count^j — is one
// shift, one multiplication by a small number and one addition of big
// numbers, done by math/big's word loops instead of one big-integer
// operation a sum. This is the multiset walk of Icepool (Liu, AIIDE 2022):
// one step per face, the state the dice kept so far.

type facePacked struct {
	contrib int64
	count   *big.Int
}

// packedSlot is the width of one digit, in words, for n dice whose faces'
// counts add up to a number of sumBits bits: any weight of the program
// counts ways to place some of the n dice (at most 2^n) times their faces'
// counts (at most sum^n).
func packedSlot(n, sumBits int) int {
	return (n*sumBits + n + bits.UintSize) / bits.UintSize
}

// packedKeepCost is keepPacked's work in units of WorkBudget (about 100
// ns, some 100 word operations): per face and state, about k shifts,
// products and additions of width digits.
func packedKeepCost(faces, n, k, width, denBits int) int {
	slot := packedSlot(n, denBits)
	words := float64(width) * float64(slot)
	ops := float64(faces) * float64(k*(k+3)/2) * words * float64(2+slot) / 100
	return int(min(ops, math.MaxInt32)) + 1
}

// keepPacked sets res's counts: n dice with faces in visiting order,
// the first k visited kept (see keepN).
func (oc *oddsCtx) keepPacked(faces []facePacked, n, k int, lo int64, width int, res *dist) {
	rest := make([]big.Int, len(faces)+1)
	for i := len(faces) - 1; i >= 0; i-- {
		rest[i].Add(&rest[i+1], faces[i].count)
	}
	slotBits := uint(packedSlot(n, rest[0].BitLen()) * bits.UintSize)
	state := make([]*big.Int, k)
	next := make([]*big.Int, k)
	for m := range state {
		state[m], next[m] = new(big.Int), new(big.Int)
	}
	state[0].Lsh(big.NewInt(1), uint(-lo)*slotBits) // sum 0
	var out, tmp, coef big.Int
	pow := make([]big.Int, n+1)
	restPow := make([]big.Int, n+1)
	// shift moves every digit of x by d places (d may be negative: the
	// digits that would fall off are 0, no state reaches a sum under lo).
	shift := func(z, x *big.Int, d int64) *big.Int {
		if d >= 0 {
			return z.Lsh(x, uint(d)*slotBits)
		}
		return z.Rsh(x, uint(-d)*slotBits)
	}
	for i, fc := range faces {
		powers(pow, fc.count)
		powers(restPow, &rest[i+1])
		for m := range next {
			next[m].SetInt64(0)
		}
		for m := range k {
			v := state[m]
			if v.Sign() == 0 {
				continue
			}
			// every j ≥ k−m ends the state (see keep128)
			coef.SetInt64(0)
			for j := k - m; j <= n-m; j++ {
				tmp.Mul(oc.binomial(n-m, j), &pow[j])
				tmp.Mul(&tmp, &restPow[n-m-j])
				coef.Add(&coef, &tmp)
			}
			if coef.Sign() != 0 {
				tmp.Mul(v, &coef)
				out.Add(&out, shift(&tmp, &tmp, int64(k-m)*fc.contrib))
			}
			next[m].Add(next[m], v) // j = 0
			if fc.count.Sign() == 0 {
				continue
			}
			for j := 1; j < k-m; j++ {
				coef.Mul(oc.binomial(n-m, j), &pow[j])
				tmp.Mul(v, &coef)
				next[m+j].Add(next[m+j], shift(&tmp, &tmp, int64(j)*fc.contrib))
			}
		}
		state, next = next, state
	}
	unpack(&out, int(slotBits/bits.UintSize), res.c[:width])
}

// unpack sets c[i] to digit i of x, base 2^(64·slot).
func unpack(x *big.Int, slot int, c []big.Int) {
	w := x.Bits()
	for k := range c {
		from := k * slot
		if from >= len(w) {
			c[k].SetInt64(0)
			continue
		}
		digit := make([]big.Word, min(from+slot, len(w))-from)
		copy(digit, w[from:])
		c[k].SetBits(digit)
	}
}

// powers sets p[j] to x^j for every j.
func powers(p []big.Int, x *big.Int) {
	p[0].SetInt64(1)
	for j := 1; j < len(p); j++ {
		p[j].Mul(&p[j-1], x)
	}
}
