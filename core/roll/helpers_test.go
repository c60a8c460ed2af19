package roll

import "math/big"

func bigRat(a, b int64) *big.Rat { return big.NewRat(a, b) }
