package dice

import (
	"math"
	"math/big"
	"math/bits"
)

// Convolution by Kronecker substitution: the counts of a distribution are
// the digits of one big number in base 2^(64·w), w words a digit, wide
// enough that no digit of the product carries into the next; one
// multiplication of the two numbers (math/big's Karatsuba) then gives
// every count of the convolution at once, exactly. For the sums of many
// dice with big denominators (12d10!, 100d6) it does in a few thousand
// word operations what the cell-by-cell product does in a million
// big-integer multiplications.

// kronMinCells is the product of the lengths from which the Kronecker
// product is used for counts over 128 bits (below, cell by cell is
// as fast).
const kronMinCells = 256

// kronecker reports whether conv multiplies a and b, of la and lb counts
// with denominators of abits and bbits bits, by Kronecker substitution.
func kronecker(la, lb, abits, bbits int) bool {
	return la*lb >= kronMinCells && (abits > 64 || bbits > 64 || abits+bbits > 127)
}

// convCost is conv's work, in the units of WorkBudget (about 100 ns).
func convCost(la, lb, abits, bbits int) int {
	if !kronecker(la, lb, abits, bbits) {
		return la * lb * weight(abits+bbits)
	}
	// words of the two numbers; Karatsuba costs about n^1.58 word
	// products of n words, a unit about 50 of them.
	slot := (abits + bbits + bits.Len(uint(min(la, lb))) + 64) / 64
	n := float64((la + lb) * slot)
	return 1 + int(math.Pow(n, 1.585)/50)
}

// convKronecker sets the counts of r, sized for a ⊛ b, to a ⊛ b.
func convKronecker(a, b, r *dist) {
	// a count of r is at most (Σ a's counts)·(Σ b's counts)
	slot := (countBits(a.c) + countBits(b.c) + bits.UintSize) / bits.UintSize
	var p big.Int
	p.Mul(pack(a.c, slot), pack(b.c, slot))
	unpack(&p, slot, r.c)
}

// pack is the number whose base-2^(64·slot) digits are c.
func pack(c []big.Int, slot int) *big.Int {
	w := make([]big.Word, len(c)*slot)
	for i := range c {
		copy(w[i*slot:], c[i].Bits())
	}
	return new(big.Int).SetBits(w)
}

// countBits is the bit length of the sum of the counts c.
func countBits(c []big.Int) int {
	var sum big.Int
	for i := range c {
		sum.Add(&sum, &c[i])
	}
	return sum.BitLen()
}
