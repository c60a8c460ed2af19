package engine

import (
	"math/big"
	"testing"
)

// The odds cache keeps its answers under oddsCacheBytes: Kingdom Hearts'
// whole distributions of the total, asked for hundreds of different
// checks, would hold far more.
func TestOddsCacheByteCap(t *testing.T) {
	src, _ := ShippedSource("kh")
	s, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	put, asked := 0, 0
	for cp := 0; cp <= 20; cp++ {
		for sd := 0; sd <= 5; sd++ {
			for in := 0; in <= 5; in++ {
				pr := Params{Inputs: map[string]int{"cap": cp, "s": sd, "i": in, "dc": 20}}
				od, err := s.Odds("test", pr)
				if err != nil {
					t.Fatal(err)
				}
				put += od.size()
				asked++
				s.cache.mu.Lock()
				sum := 0
				for k, o := range s.cache.m {
					sum += len(k) + o.size()
				}
				bytes, n := s.cache.bytes, len(s.cache.m)
				s.cache.mu.Unlock()
				if bytes != sum || bytes > oddsCacheBytes {
					t.Fatalf("after %d checks: the cache counts %d bytes, holds %d, cap %d", asked, bytes, sum, oddsCacheBytes)
				}
				if n == 0 {
					t.Fatalf("after %d checks: the last answer is not kept", asked)
				}
			}
		}
	}
	if put <= 2*oddsCacheBytes {
		t.Fatalf("the answers total %d bytes: too few to test a cap of %d", put, oddsCacheBytes)
	}
}

// An answer larger than the cap alone is not kept, and the others stay.
func TestOddsCacheTooLarge(t *testing.T) {
	var oc oddsCache
	small := &Odds{Success: big.NewRat(1, 3)}
	oc.put("a", small)
	huge := &Odds{Success: big.NewRat(1, 3)}
	for len(huge.Totals) < oddsCacheBytes/100 {
		huge.Totals = append(huge.Totals, TotalP{Total: big.NewRat(int64(len(huge.Totals)), 1), P: big.NewRat(1, 7)})
	}
	oc.put("b", huge)
	if oc.get("b") != nil || oc.get("a") != small {
		t.Fatalf("a %d-byte answer: kept %v, the small one kept %v", huge.size(), oc.get("b") != nil, oc.get("a") == small)
	}
}
