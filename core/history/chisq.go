package history

import (
	"math"
	"sort"
)

// ChiSquareSF is the survival function of the chi-square distribution with
// df degrees of freedom: the probability that a chi-square variable is at
// least x. It is the regularized upper incomplete gamma function
// Q(df/2, x/2). It returns NaN for df ≤ 0 or x < 0 or NaN input.
func ChiSquareSF(x float64, df int) float64 {
	if df <= 0 || x < 0 || math.IsNaN(x) {
		return math.NaN()
	}
	return GammaQ(float64(df)/2, x/2)
}

// GammaQ is the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0: a series for x < a+1 and
// a continued fraction (modified Lentz) otherwise, as in Numerical Recipes
// §6.2. The relative error is below 1e-12 over the range the fairness
// report uses.
func GammaQ(a, x float64) float64 {
	switch {
	case a <= 0 || x < 0 || math.IsNaN(a) || math.IsNaN(x):
		return math.NaN()
	case x == 0:
		return 1
	case math.IsInf(x, 1):
		return 0
	case x < a+1:
		return 1 - gammaPSeries(a, x)
	default:
		return gammaQFraction(a, x)
	}
}

const (
	gammaEps   = 1e-15
	gammaTiny  = 1e-300
	gammaIters = 10_000
)

// prefactor is x^a e^-x / Γ(a), computed in logs.
func prefactor(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	return math.Exp(a*math.Log(x) - x - lg)
}

// gammaPSeries is the lower regularized gamma P(a, x) by its series.
func gammaPSeries(a, x float64) float64 {
	ap := a
	del := 1 / a
	sum := del
	for range gammaIters {
		ap++
		del *= x / ap
		sum += del
		if math.Abs(del) < math.Abs(sum)*gammaEps {
			break
		}
	}
	return sum * prefactor(a, x)
}

// gammaQFraction is Q(a, x) by its continued fraction.
func gammaQFraction(a, x float64) float64 {
	b := x + 1 - a
	c := 1 / gammaTiny
	d := 1 / b
	h := d
	for i := 1; i <= gammaIters; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < gammaTiny {
			d = gammaTiny
		}
		c = b + an/c
		if math.Abs(c) < gammaTiny {
			c = gammaTiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < gammaEps {
			break
		}
	}
	return prefactor(a, x) * h
}

// Fairness is the chi-square goodness-of-fit test of one die size against
// a fair die.
type Fairness struct {
	Sides int
	N     int // dice rolled
	// Observed[f-1] = times face f came up; filled only for dice of up to
	// 12 faces (what /stats lists face by face), nil for larger ones.
	Observed []int
	// The least and the most frequent face (the smallest such face on a
	// tie) and their counts; a face never rolled counts 0.
	Low, LowCount, High, HighCount int
	Expected                       float64 // N / Sides, for every face
	ChiSq                          float64 // Σ (observed − expected)² / expected
	DF                             int     // Sides − 1
	P                              float64 // ChiSquareSF(ChiSq, DF)
	Enough                         bool    // every expected count ≥ 5, the usual validity rule
}

// FairnessOf computes the chi-square test for dice of the given size
// from face counts (other sizes and faces outside 1..sides are ignored;
// counts of one face may be split over several entries). It reads only
// the faces that came up: a face never rolled adds expected to χ²
// (Σ over unseen faces of (0 − e)²/e = unseen·e), so a d1000 rolled twice
// costs two terms, not a thousand.
func FairnessOf(sides int, counts []FaceCount) Fairness {
	f := Fairness{Sides: sides, DF: sides - 1}
	seen := map[int]int{} // face → count
	for _, c := range counts {
		if c.Sides == sides && c.Face >= 1 && c.Face <= sides && c.Count > 0 {
			seen[c.Face] += c.Count
			f.N += c.Count
		}
	}
	if sides <= 12 && sides >= 1 {
		f.Observed = make([]int, sides)
		for face, n := range seen {
			f.Observed[face-1] = n
		}
	}
	if sides < 2 || f.N == 0 {
		f.P = math.NaN()
		return f
	}
	faces := make([]int, 0, len(seen))
	for face := range seen {
		faces = append(faces, face)
	}
	sort.Ints(faces)
	f.Expected = float64(f.N) / float64(sides)
	f.High, f.HighCount = faces[0], seen[faces[0]]
	f.Low, f.LowCount = faces[0], seen[faces[0]]
	for _, face := range faces {
		o := seen[face]
		d := float64(o) - f.Expected
		f.ChiSq += d * d / f.Expected
		if o > f.HighCount {
			f.High, f.HighCount = face, o
		}
		if o < f.LowCount {
			f.Low, f.LowCount = face, o
		}
	}
	if unseen := sides - len(faces); unseen > 0 {
		f.ChiSq += float64(unseen) * f.Expected
		// The smallest face never rolled.
		low := 1
		for _, face := range faces {
			if face != low {
				break
			}
			low++
		}
		f.Low, f.LowCount = low, 0
	}
	f.P = ChiSquareSF(f.ChiSq, f.DF)
	f.Enough = f.Expected >= 5
	return f
}
