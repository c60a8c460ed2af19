package dice

import (
	"math"
	"math/big"
)

// rolled is the distribution of a term with a rolled number of dice or
// sides, (1d4)d6 or 2d(1d6): for each number it can roll, the term with
// that number written, weighted by its chance.
func (oc *oddsCtx) rolled(d *Dice) (*dist, error) {
	var xs *dist
	var err error
	if d.CountX != nil {
		xs, err = oc.node(d.CountX)
	} else {
		xs, err = oc.node(d.SidesX)
	}
	if err != nil {
		return nil, err
	}
	type part struct {
		w *big.Int // the count of the number rolled
		d *dist
	}
	var parts []part
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	lcm := big.NewInt(1)
	for i := range xs.c {
		if xs.c[i].Sign() == 0 {
			continue
		}
		x := xs.lo + int64(i)
		dd := d.withMore()
		if d.CountX != nil { // the sides, if rolled too, in term(&dd)
			dd.CountX, dd.Count = nil, int(x)
		} else {
			dd.SidesX, dd.Sides = nil, int(x)
		}
		var t *dist
		if dd.Count == 0 {
			t = constDist(0)
		} else if t, err = oc.term(dd); err != nil {
			return nil, err
		}
		parts = append(parts, part{&xs.c[i], t})
		lo, hi = min(lo, t.lo), max(hi, t.hi())
		var g big.Int
		g.GCD(nil, nil, lcm, &t.den)
		lcm.Mul(lcm, new(big.Int).Quo(&t.den, &g))
	}
	r, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	var scale, tmp big.Int
	for _, p := range parts {
		if err := oc.spend(len(p.d.c) * weight(lcm.BitLen()+xs.den.BitLen())); err != nil {
			return nil, err
		}
		scale.Quo(lcm, &p.d.den)
		scale.Mul(&scale, p.w)
		for i := range p.d.c {
			tmp.Mul(&p.d.c[i], &scale)
			j := p.d.lo + int64(i) - lo
			r.c[j].Add(&r.c[j], &tmp)
		}
	}
	r.den.Mul(lcm, &xs.den)
	return r.trim(), nil
}

// keepSplit keeps or drops, as k says, among n dice of stop and j of
// goOn, every one of goOn ranking at least as high as every one of stop.
func (oc *oddsCtx) keepSplit(stop *dist, n int, goOn *dist, j int, k Keep, g func(int64) int64) (*dist, error) {
	desc, kept := keepOrder(k.Mode, n+j, k.N)
	fromGo := min(j, kept) // the highest first: as many as there are
	if !desc {
		fromGo = max(0, kept-n) // the lowest first: stop's, then goOn's
	}
	fromStop := kept - fromGo
	a, err := oc.keepN(stop, n, KeepHigh, fromStop, g)
	if !desc {
		a, err = oc.keepN(stop, n, KeepLow, fromStop, g)
	}
	if err != nil || j == 0 {
		return a, err
	}
	mode := KeepHigh
	if !desc {
		mode = KeepLow
	}
	b, err := oc.keepN(goOn, j, mode, fromGo, g)
	if err != nil {
		return nil, err
	}
	if fromGo == 0 {
		// no die of goOn counts, but j of them were drawn: the
		// denominator still holds their weight
		b = &dist{lo: 0, c: make([]big.Int, 1)}
		b.den.Exp(&goOn.den, big.NewInt(int64(j)), nil)
		b.c[0].Set(&b.den)
	}
	return oc.conv(a, b, 1)
}

// explodeSplit splits one die's distribution f into the faces that stop
// and those that explode again (d.Explode.If), each weighed on its own:
// sw and gw are the weights of the two parts in f.
func explodeSplit(f *dist, d *Dice) (stop, goOn *dist, sw, gw *big.Int) {
	stop = &dist{lo: f.lo, c: make([]big.Int, len(f.c))}
	goOn = &dist{lo: f.lo, c: make([]big.Int, len(f.c))}
	sw, gw = new(big.Int), new(big.Int)
	for i := range f.c {
		if d.Explode.If.Match(int(f.lo) + i) {
			goOn.c[i].Set(&f.c[i])
			gw.Add(gw, &f.c[i])
		} else {
			stop.c[i].Set(&f.c[i])
			sw.Add(sw, &f.c[i])
		}
	}
	stop.den.Set(sw)
	goOn.den.Set(gw)
	return stop, goOn, sw, gw
}

// explodeCut is where the odds of n dice that each explode again with
// chance q stop counting explosions: the last j whose P(M ≥ j), M the
// explosions of the n dice, is at least explodeTail (at most MaxDraws-n).
func (oc *oddsCtx) explodeCut(q float64, n int) int {
	if oc.cutJ > 0 {
		return oc.cutJ
	}
	jmax, tail, pj := 0, 1.0, math.Pow(1-q, float64(n))
	for j := 0; j <= MaxDraws-n; j++ {
		tail -= pj
		jmax = j
		if tail < explodeTail {
			break
		}
		pj *= q * float64(n+j) / float64(j+1)
	}
	return jmax
}

// explodeKeep is the distribution of an exploding term with keep or drop,
// where every die, an explosion's too, is kept or dropped on its own
// (Roll20's "rolls an additional die"). Every draw is an independent face;
// a term of n dice ends after n faces that do not explode, so the number
// j of faces that do is negative-binomial: P(j) = C(n+j−1, j) qʲ pⁿ.
// Given j, the dice are n faces drawn among those that stop and j among
// those that explode, and keepMixed ranks them. The sum over j is cut
// where the rest weighs less than explodeTail (Approx, as for chain).
// A penetrating die counts one less only when an explosion added it:
// penetrateKeep splits further.
func (oc *oddsCtx) explodeKeep(f *dist, d *Dice, g func(int64) int64) (*dist, error) {
	if d.Explode.Mode != Explode {
		return oc.penetrateKeep(f, d, g)
	}
	oc.approx = true
	n := d.Count
	stop, goOn, sw, gw := explodeSplit(f, d) // sw, gw: the weights of the faces that stop and explode
	cl := func(v int64) int64 { return int64(d.Clamp(int(v))) }
	stopD, err := oc.mapDist(stop.trim(), cl)
	if err != nil {
		return nil, err
	}
	q, _ := new(big.Rat).SetFrac(gw, &f.den).Float64()
	if gw.Sign() == 0 {
		return oc.keepN(stopD, n, d.Keep.Mode, d.Keep.N, g)
	}
	goD, err := oc.mapDist(goOn.trim(), cl)
	if err != nil {
		return nil, err
	}
	jmax := oc.explodeCut(q, n)
	type part struct {
		j int
		d *dist
	}
	parts := make([]part, 0, jmax+1)
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	// When every face that explodes ranks above every face that stops
	// (!, !>=5: the usual case), the dice kept are the best of each kind:
	// two keeps of one kind each, added.
	split := goD.lo >= stopD.hi()
	for j := 0; j <= jmax; j++ {
		var r *dist
		var err error
		if split {
			r, err = oc.keepSplit(stopD, n, goD, j, d.Keep, g)
		} else {
			types := []keepType{{stopD, n}}
			if j > 0 {
				types = append(types, keepType{goD, j})
			}
			r, err = oc.keepMixed(types, d.Keep.Mode, d.Keep.N, g)
		}
		if err != nil {
			return nil, err
		}
		parts = append(parts, part{j, r})
		lo, hi = min(lo, r.lo), max(hi, r.hi())
	}
	// P(j)·dist_j = C(n+j−1, j)·c_j / f.den^(n+j): over f.den^(n+jmax)
	// every part is scaled by C(n+j−1, j)·f.den^(jmax−j)·(its own
	// denominator's complement).
	res, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	res.den.Exp(&f.den, big.NewInt(int64(n+jmax)), nil)
	var scale, tmp, want big.Int
	for _, p := range parts {
		if err := oc.spend(len(p.d.c) * weight(res.den.BitLen())); err != nil {
			return nil, err
		}
		// weight of this j over res.den: C(n+j−1, j)·sw^n·gw^j·f.den^(jmax−j),
		// spread over the part's own denominator.
		want.Exp(&f.den, big.NewInt(int64(jmax-p.j)), nil)
		scale.Mul(oc.binomial(n+p.j-1, p.j), &want)
		tmp.Exp(sw, big.NewInt(int64(n)), nil)
		scale.Mul(&scale, &tmp)
		tmp.Exp(gw, big.NewInt(int64(p.j)), nil)
		scale.Mul(&scale, &tmp)
		for i := range p.d.c {
			if p.d.c[i].Sign() == 0 {
				continue
			}
			tmp.Mul(&p.d.c[i], &scale)
			tmp.Quo(&tmp, &p.d.den) // exact: p.d.den divides sw^n·gw^j
			k := p.d.lo + int64(i) - lo
			res.c[k].Add(&res.c[k], &tmp)
		}
	}
	return oc.keptCeiling(res.trim(), f, d, g), nil
}

// penetrateKeep is explodeKeep for !p, whose added dice count one less
// than their face: of the n dice rolled, a explode (binomial), and the
// chains they start add a dice that stop and m that explode again
// (negative binomial given a). Given a and m there are four kinds of
// dice, first or added, stopping or exploding, and keepMixed ranks them.
// The sum over a and m is cut as explodeKeep's is, where a+m, the faces
// that exploded, is past its cut.
func (oc *oddsCtx) penetrateKeep(f *dist, d *Dice, g func(int64) int64) (*dist, error) {
	oc.approx = true
	n := d.Count
	stop, goOn, sw, gw := explodeSplit(f, d)
	first := func(v int64) int64 { return int64(d.Clamp(int(v))) }
	added := func(v int64) int64 { return int64(d.Clamp(int(v - 1))) }
	var kinds [4]*dist // first stop, first go, added stop, added go
	for i, x := range []struct {
		d *dist
		h func(int64) int64
	}{{stop, first}, {goOn, first}, {stop, added}, {goOn, added}} {
		if x.d == goOn && gw.Sign() == 0 {
			continue
		}
		var err error
		if kinds[i], err = oc.mapDist(x.d.trim(), x.h); err != nil {
			return nil, err
		}
	}
	if gw.Sign() == 0 {
		return oc.keepN(kinds[0], n, d.Keep.Mode, d.Keep.N, g)
	}
	q, _ := new(big.Rat).SetFrac(gw, &f.den).Float64()
	jmax := oc.explodeCut(q, n)
	type part struct {
		a, m int
		d    *dist
	}
	var parts []part
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for a := 0; a <= min(n, jmax); a++ {
		for m := 0; a+m <= jmax && (a > 0 || m == 0); m++ {
			var types []keepType
			for i, c := range [4]int{n - a, a, a, m} {
				if c > 0 {
					types = append(types, keepType{kinds[i], c})
				}
			}
			r, err := oc.keepMixed(types, d.Keep.Mode, d.Keep.N, g)
			if err != nil {
				return nil, err
			}
			parts = append(parts, part{a, m, r})
			lo, hi = min(lo, r.lo), max(hi, r.hi())
		}
	}
	// P(a, m) = C(n, a)·C(a+m−1, m)·gw^(a+m)·sw^n / f.den^(n+a+m)
	res, err := newDist(lo, hi)
	if err != nil {
		return nil, err
	}
	res.den.Exp(&f.den, big.NewInt(int64(n+jmax)), nil)
	var scale, tmp big.Int
	for _, p := range parts {
		if err := oc.spend(len(p.d.c) * weight(res.den.BitLen())); err != nil {
			return nil, err
		}
		scale.Exp(&f.den, big.NewInt(int64(jmax-p.a-p.m)), nil)
		scale.Mul(&scale, oc.binomial(n, p.a))
		if p.a > 0 {
			scale.Mul(&scale, oc.binomial(p.a+p.m-1, p.m))
		}
		tmp.Exp(gw, big.NewInt(int64(p.a+p.m)), nil)
		scale.Mul(&scale, &tmp)
		tmp.Exp(sw, big.NewInt(int64(n)), nil)
		scale.Mul(&scale, &tmp)
		for i := range p.d.c {
			if p.d.c[i].Sign() == 0 {
				continue
			}
			tmp.Mul(&p.d.c[i], &scale)
			tmp.Quo(&tmp, &p.d.den) // exact: p.d.den is sw^n·gw^(a+m)
			k := p.d.lo + int64(i) - lo
			res.c[k].Add(&res.c[k], &tmp)
		}
	}
	return oc.keptCeiling(res.trim(), f, d, g), nil
}

// keptCeiling marks the odds Open when an explosion's kept dice r can go
// past r's highest total: always for a drop (the dice kept grow with the
// explosions), and for a keep of k dice when the cut left out the k
// highest faces together.
func (oc *oddsCtx) keptCeiling(r, f *dist, d *Dice, g func(int64) int64) *dist {
	if d.Keep.Mode == DropLow || d.Keep.Mode == DropHigh {
		oc.open = true
		return r
	}
	// the highest a die counts, and the highest one that stops counts
	top, topStop := int64(math.MinInt64), int64(math.MinInt64)
	for i := range f.c {
		if f.c[i].Sign() != 0 {
			v := g(int64(d.Clamp(int(f.lo) + i)))
			top = max(top, v)
			if !d.Explode.If.Match(int(f.lo) + i) {
				topStop = max(topStop, v)
			}
		}
	}
	k := int64(min(d.Keep.N, MaxDraws))
	ceiling := k * top
	if n := int64(d.Count); d.Keep.Mode == KeepLow && topStop > math.MinInt64 {
		// n dice stop: the k lowest are among them as far as they go
		ceiling = min(k, n)*topStop + max(0, k-n)*top
	}
	if r.hi() < ceiling {
		oc.open = true
	}
	return r
}
