package dice

import "math/big"

// The exact probability of one total, for the tests (the bot reads the
// distribution whole).

// Prob returns P(total = v), exact unless Approx (nil when sampled).
func (o *Odds) Prob(v int64) *big.Rat {
	if o.dist == nil || o.Sampled {
		return nil
	}
	return o.dist.prob(v)
}
