package engine

import (
	"math/big"
	"strconv"
)

// num is an exact value of a check: a rational with int64 parts, or
// "impossible" (a table's "-" cell, an input not given). Arithmetic on an
// impossible value is impossible; a comparison with one is false. Files'
// limits keep every value far from overflow (inputs ±1,000,000, at most
// 64 dice of 1,000 faces).
type num struct {
	n, d int64 // d > 0, gcd(n, d) = 1
	imp  bool
}

var impossible = num{imp: true}

func integer(n int64) num { return num{n: n, d: 1} }

func boolean(b bool) num {
	if b {
		return num{n: 1, d: 1}
	}
	return num{n: 0, d: 1}
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func ratio(n, d int64) num {
	if d == 0 {
		return impossible
	}
	if d < 0 {
		n, d = -n, -d
	}
	if d == 1 {
		return num{n: n, d: 1}
	}
	g := gcd(n, d)
	return num{n: n / g, d: d / g}
}

func (a num) add(b num) num {
	if a.imp || b.imp {
		return impossible
	}
	if a.d == 1 && b.d == 1 {
		return num{n: a.n + b.n, d: 1}
	}
	return ratio(a.n*b.d+b.n*a.d, a.d*b.d)
}

func (a num) neg() num {
	if a.imp {
		return a
	}
	return num{n: -a.n, d: a.d}
}

func (a num) mul(b num) num {
	if a.imp || b.imp {
		return impossible
	}
	if a.d == 1 && b.d == 1 {
		return num{n: a.n * b.n, d: 1}
	}
	return ratio(a.n*b.n, a.d*b.d)
}

func (a num) div(b num) num {
	if a.imp || b.imp || b.n == 0 {
		return impossible
	}
	return ratio(a.n*b.d, a.d*b.n)
}

// cmp compares two possible values: −1, 0 or +1.
func (a num) cmp(b num) int {
	l, r := a.n*b.d, b.n*a.d
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

func (a num) truth() bool { return !a.imp && a.n != 0 }

func floorDiv(n, d int64) int64 {
	q := n / d
	if (n%d != 0) && ((n < 0) != (d < 0)) {
		q--
	}
	return q
}

// round applies a named rounding (docs/systems-format.md#rounding).
func (a num) round(mode string) num {
	if a.imp || a.d == 1 {
		return a
	}
	switch mode {
	case "floor":
		return integer(floorDiv(a.n, a.d))
	case "ceil":
		return integer(-floorDiv(-a.n, a.d))
	case "half_up":
		return integer(floorDiv(2*a.n+a.d, 2*a.d))
	case "half_down":
		return integer(-floorDiv(-2*a.n+a.d, 2*a.d))
	case "trunc":
		return integer(a.n / a.d)
	}
	// half_even
	f := floorDiv(a.n, a.d)
	rem := ratio(a.n-f*a.d, a.d)
	switch rem.cmp(ratio(1, 2)) {
	case -1:
		return integer(f)
	case 1:
		return integer(f + 1)
	}
	if f%2 == 0 {
		return integer(f)
	}
	return integer(f + 1)
}

func (a num) isInt() bool { return !a.imp && a.d == 1 }

func (a num) String() string {
	if a.imp {
		return "-"
	}
	if a.d == 1 {
		return strconv.FormatInt(a.n, 10)
	}
	return strconv.FormatInt(a.n, 10) + "/" + strconv.FormatInt(a.d, 10)
}

// Rat returns the value as a big.Rat (nil when impossible).
func (a num) Rat() *big.Rat {
	if a.imp {
		return nil
	}
	return big.NewRat(a.n, a.d)
}

// parseNum reads "7", "-3", "15/2" or "7.5".
func parseNum(s string) (num, bool) {
	if r, ok := new(big.Rat).SetString(s); ok && r.Num().IsInt64() && r.Denom().IsInt64() {
		n, d := r.Num().Int64(), r.Denom().Int64()
		if n > 1e12 || n < -1e12 || d > 1e12 {
			return num{}, false
		}
		return ratio(n, d), true
	}
	return num{}, false
}
