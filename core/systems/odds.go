package systems

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/daegon"
	"zaria/core/systems/kh"
	"zaria/core/systems/rq"
	"zaria/core/systems/zaria"
)

// CheckOdds is a system check as /odds shows it (core/roll/oddssystems.go):
// without a target, the chance of success at each difficulty level of the
// system; with one, the chance of that check and of each outcome. Every
// figure is exact, from the system's own probability functions.
type CheckOdds struct {
	// Subject is what is rolled, resolved: "4 + 2", "fuerza 4 + 2", "NH 6".
	Subject string
	// Levels is the chance of success at each difficulty level (no target).
	Levels []OddsRow
	// Target names the target ("DC 15 · medium"); "" without one.
	Target string
	// Chance is the chance of success against Target.
	Chance *big.Rat
	// Outcomes is the chance of each outcome against Target.
	Outcomes []OddsRow
	// Dist is the exact distribution of the number a check compares with
	// its target (a total, a level of success): Dist[i] = P(value =
	// DistMin+i). Nil when there is none worth drawing (a uniform d100).
	Dist    []*big.Rat
	DistMin int64
	// DistTarget is the target on Dist's scale, when there is one.
	DistTarget *int64
	// XLabel is the localized name of Dist's values.
	XLabel string
}

// OddsRow is one row of CheckOdds: a level or an outcome and its chance.
type OddsRow struct {
	Label string // "DC 15", "D3", "+10"; an outcome's name
	Name  string // the level's name, "" when it has none
	P     *big.Rat
	dc    int // the Ζαριά's DC, to merge runs
}

// OddsSystem returns the system a word of /odds names ("zaria", "daegon",
// "rq", "kh"), or "" when it names none. The systems' command names and
// aliases are accepted, in any case and without accents.
func OddsSystem(word string) string {
	switch fold.Key(word) {
	case "zaria", "z", "ζαρια", "ζ":
		return "zaria"
	case "daegon", "dg", "νταεγκον":
		return "daegon"
	case "rq", "runequest":
		return "rq"
	case "kh", "kingdomhearts":
		return "kh"
	}
	return ""
}

// OddsOf computes the CheckOdds of a check of system typed as args, read
// as the system's own command reads them (sheet values, "@Drake", named
// difficulties in es, el and en). An opposed check ("4+2 vs 3+3") gives
// the chance that the active side wins.
func OddsOf(ctx context.Context, req *command.Request, system, args string) (co *CheckOdds, err error) {
	defer func() { err = oddsHinted(req, err) }()
	if system == "zaria" {
		args = plusSpaces.ReplaceAllString(args, "+")
	}
	in := tokenize(args)
	switch system {
	case "zaria":
		return zariaOdds(ctx, req, in)
	case "daegon":
		return daegonOdds(ctx, req, in)
	case "rq":
		return rqOdds(ctx, req, in)
	case "kh":
		return khOdds(ctx, req, in)
	}
	return nil, fmt.Errorf("odds: unknown system %q", system)
}

func zariaOdds(ctx context.Context, req *command.Request, in input) (*CheckOdds, error) {
	sp, who, err := parseWho(in.toks, "zaria.error.usage", func(t []string) (zSpec, error) { return parseZaria(req, t) })
	if err != nil {
		return nil, err
	}
	rules := zariaRules(req)
	side, vals, err := resolveZSide(ctx, req, who, sp.act)
	if err != nil {
		return nil, err
	}
	co := &CheckOdds{Subject: zSubject(side, vals)}
	if sp.opposed {
		pas, pasVals, err := resolveZSide(ctx, req, cmp.Or(sp.pasWho, who), sp.pas)
		if err != nil {
			return nil, err
		}
		return zariaOpposedOdds(req, rules, side, pas, co.Subject, zSubject(pas, pasVals)), nil
	}
	all := rules.Outcomes(side)
	n := int64(len(all))
	if sp.dc == 0 {
		for dc := zaria.MinDC; dc <= zaria.MaxDC; dc++ {
			row := OddsRow{Label: req.T("odds.sys.dc", "dc", dc), P: rules.Chance(side, dc), dc: dc}
			if t, exact := zaria.Tier(dc); exact {
				row.Name = req.T("zaria.dc." + t.Key)
			}
			co.Levels = append(co.Levels, row)
		}
		co.Levels = mergeRuns(req, co.Levels)
	} else {
		t, exact := zaria.Tier(sp.dc)
		name := req.T("zaria.dc." + t.Key)
		if !exact {
			name += "+"
		}
		co.Target = req.T("odds.sys.dc", "dc", sp.dc) + " · " + name
		co.Chance = rules.Chance(side, sp.dc)
		counts := map[string]int64{}
		for _, o := range all {
			out, _, _ := zaria.Verdict(zaria.Roll{Total2: o[0], Epic: o[1]}, sp.dc)
			counts[out]++
		}
		for _, k := range []string{zaria.EpicWin, zaria.MajorWin, zaria.Success, zaria.Marginal, zaria.Failure, zaria.MajorFail, zaria.EpicFail} {
			if counts[k] > 0 {
				co.Outcomes = append(co.Outcomes, OddsRow{Label: req.T("zaria.outcome." + k), P: big.NewRat(counts[k], n)})
			}
		}
	}
	// The total's distribution; in halves when media_exacta keeps them.
	scale := 2
	co.XLabel = req.T("odds.sys.x_total")
	if rules.Mode == zaria.Exact {
		scale = 1
		co.XLabel = req.T("odds.sys.x_double")
	}
	lo, hi := all[0][0], all[0][0]
	for _, o := range all {
		lo, hi = min(lo, o[0]), max(hi, o[0])
	}
	c := make([]int64, (hi-lo)/scale+1)
	for _, o := range all {
		c[(o[0]-lo)/scale]++
	}
	co.DistMin = int64(lo / scale)
	for _, k := range c {
		co.Dist = append(co.Dist, big.NewRat(k, n))
	}
	if sp.dc != 0 {
		t := int64(sp.dc * 2 / scale)
		co.DistTarget = &t
	}
	return co, nil
}

func daegonOdds(ctx context.Context, req *command.Request, in input) (*CheckOdds, error) {
	sp, who, err := parseWho(in.toks, "daegon.error.usage", func(t []string) (dgSpec, error) { return parseDaegon(req, t) })
	if err != nil {
		return nil, err
	}
	nh, err := daegonNH(ctx, req, who, sp.act)
	if err != nil {
		return nil, err
	}
	rd := daegonReading(req)
	co := &CheckOdds{Subject: req.T("odds.sys.nh", "nh", nhLabel(req, nh, sp.act.name))}
	if sp.opposed {
		pas, err := daegonNH(ctx, req, cmp.Or(sp.pasWho, who), sp.pas)
		if err != nil {
			return nil, err
		}
		da, dp := daegon.Difficulty(nh, pas), daegon.Difficulty(pas, nh)
		co.Subject += " · D" + strconv.Itoa(da)
		pasText := req.T("odds.sys.nh", "nh", nhLabel(req, pas, sp.pas.name)) + " · D" + strconv.Itoa(dp)
		opposedRows(req, co, pasText, daegon.OpposedChance(nh, pas, rd))
		return co, nil
	}
	if sp.d == 0 {
		for d := daegon.MinD; d <= daegon.MaxD; d++ {
			co.Levels = append(co.Levels, OddsRow{Label: "D" + strconv.Itoa(d), Name: req.T(fmt.Sprintf("daegon.d.%d", d)), P: daegon.Chance(nh, d, rd)})
		}
		return co, nil
	}
	co.Target = "D" + strconv.Itoa(sp.d) + " · " + req.T(fmt.Sprintf("daegon.d.%d", sp.d))
	co.Chance = daegon.Chance(nh, sp.d, rd)
	// Levels of success −1 (failure) … 6 over the 100 rolls.
	var c [daegon.MaxD + 1]int64
	lo, hi := 1, 100
	if rd == daegon.Zero {
		lo, hi = 0, 99
	}
	for r := lo; r <= hi; r++ {
		c[daegon.Level(nh, sp.d, r)+1]++
	}
	top := 0
	for l, k := range c {
		if k > 0 {
			top = l
		}
	}
	for l := 0; l <= top; l++ {
		p := big.NewRat(c[l], 100)
		co.Dist = append(co.Dist, p)
		if c[l] == 0 {
			continue
		}
		label := req.T("daegon.outcome.failure")
		switch {
		case daegon.Pct(nh, sp.d) == daegon.Impossible:
			label = req.T("daegon.outcome.impossible")
		case l == 1:
			label = req.T("daegon.outcome.success")
		case l > 1:
			label = req.T("daegon.outcome.success") + fmt.Sprintf(" +%d", l-1)
		}
		co.Outcomes = append(co.Outcomes, OddsRow{Label: label, P: p})
	}
	co.DistMin = -1
	co.XLabel = req.T("odds.sys.x_level")
	return co, nil
}

func rqOdds(ctx context.Context, req *command.Request, in input) (*CheckOdds, error) {
	sp, who, err := parseWho(in.toks, "rq.error.usage", func(t []string) (rqSpec, error) { return parseRQ(req, t) })
	if err != nil {
		return nil, err
	}
	if sp.opposed {
		off, offText, def, defText, err := rqSides(ctx, req, sp, who)
		if err != nil {
			return nil, err
		}
		c := rq.OppChance(off, def)
		co := &CheckOdds{Subject: "50 + " + offText + " − " + defText + " → " + strconv.Itoa(c)}
		rqOutcomes(req, co, rq.OppChances(c))
		co.Target = req.T("rq.offensive")
		return co, nil
	}
	v, vText, err := rqValue(ctx, req, who, sp.off, rq.CharMult)
	if err != nil {
		return nil, err
	}
	co := &CheckOdds{Subject: "50 + " + vText}
	if !sp.diffSet {
		for _, d := range rq.Difficulties {
			co.Levels = append(co.Levels, OddsRow{Label: signedNum(d.Value), Name: req.T("rq.diff." + d.Key), P: rq.Chances(50 + v + d.Value).Success})
		}
		return co, nil
	}
	c := 50 + v + sp.diff
	co.Target = signedNum(sp.diff)
	if k := rqDiffKey(sp.diff); k != "" {
		co.Target += " · " + req.T(k)
	}
	co.Target += " → " + strconv.Itoa(c)
	rqOutcomes(req, co, rq.Chances(c))
	return co, nil
}

// rqOutcomes sets the chance of success and of each outcome of a roll.
func rqOutcomes(req *command.Request, co *CheckOdds, o rq.Odds) {
	co.Chance = o.Success
	fail := new(big.Rat).Sub(big.NewRat(1, 1), o.Success)
	fail.Sub(fail, o.Fumble)
	for _, r := range []OddsRow{
		{Label: req.T("rq.outcome.critical"), P: o.Critical},
		{Label: req.T("rq.outcome.success"), P: new(big.Rat).Sub(o.Success, o.Critical)},
		{Label: req.T("rq.outcome.failure"), P: fail},
		{Label: req.T("rq.outcome.fumble"), P: o.Fumble},
	} {
		if r.P.Sign() > 0 {
			co.Outcomes = append(co.Outcomes, r)
		}
	}
}

func signedNum(v int) string {
	switch {
	case v > 0:
		return "+" + strconv.Itoa(v)
	case v < 0:
		return "−" + strconv.Itoa(-v)
	}
	return "0"
}

func khOdds(ctx context.Context, req *command.Request, in input) (*CheckOdds, error) {
	sp, who, err := parseWho(in.toks, "kh.error.usage", func(t []string) (khSpec, error) { return parseKH(req, t) })
	if err != nil {
		return nil, err
	}
	capv, err := khCap(ctx, req, sp, who)
	if err != nil {
		return nil, err
	}
	if sp.specialty != "" {
		v, err := req.SheetText(ctx, who, sp.specialty)
		if err != nil {
			return nil, err
		}
		if err := khSpecialty(&sp, v); err != nil {
			return nil, err
		}
	}
	pool := kh.Input{Cap: capv, Heartless: sp.s, Nobody: sp.i}
	subj := strconv.Itoa(capv)
	if sp.cap.name != "" {
		subj = sp.cap.name + " " + subj
	}
	if sp.s > 0 {
		subj += " · " + strconv.Itoa(sp.s) + "s"
	}
	if sp.i > 0 {
		subj += " · " + strconv.Itoa(sp.i) + "i"
	}
	co := &CheckOdds{Subject: subj, XLabel: req.T("odds.sys.x_total")}
	if sp.dc == 0 {
		for _, t := range kh.Tiers {
			co.Levels = append(co.Levels, OddsRow{Label: req.T("odds.sys.dc", "dc", t.From), Name: req.T("kh.tier." + t.Key), P: kh.Chance(pool, t.From)})
		}
	} else {
		co.Target = req.T("odds.sys.dc", "dc", sp.dc) + " · " + req.T("kh.tier."+kh.TierOf(sp.dc).Key)
		co.Chance = kh.Chance(pool, sp.dc)
		t := int64(sp.dc)
		co.DistTarget = &t
		fail := new(big.Rat).Sub(big.NewRat(1, 1), co.Chance)
		co.Outcomes = []OddsRow{{Label: req.T("kh.outcome.success"), P: co.Chance}, {Label: req.T("kh.outcome.failure"), P: fail}}
	}
	// P(total = x) = P(total ≥ x) − P(total ≥ x+1); the lowest total is the
	// Capacidad, the complete die and each nobody die at 1; the highest,
	// every die at 6 with every extra roll.
	lo := capv + 1 + sp.i
	hi := capv + 6*(2+sp.s+sp.i)
	co.DistMin = int64(lo)
	prev := kh.Chance(pool, lo)
	for x := lo; x <= hi; x++ {
		next := kh.Chance(pool, x+1)
		co.Dist = append(co.Dist, new(big.Rat).Sub(prev, next))
		prev = next
	}
	return co, nil
}

// mergeRuns folds three or more consecutive DCs of the same chance into
// one row, "DC 16–30", with the names of the tiers it spans, so that the
// 26 DCs of the Ζαριά fit a phone.
func mergeRuns(req *command.Request, rows []OddsRow) []OddsRow {
	var out []OddsRow
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].P.Cmp(rows[i].P) == 0 {
			j++
		}
		if j-i < 3 {
			out = append(out, rows[i:j]...)
			i = j
			continue
		}
		r := OddsRow{Label: req.T("odds.sys.dc", "dc", strconv.Itoa(rows[i].dc)+"–"+strconv.Itoa(rows[j-1].dc)), P: rows[i].P}
		var names []string
		for _, x := range rows[i:j] {
			if x.Name != "" {
				names = append(names, x.Name)
			}
		}
		r.Name = strings.Join(names, ", ")
		out = append(out, r)
		i = j
	}
	return out
}

func zSubject(s zaria.Side, vals []string) string {
	if s.NPC {
		return "NPC " + strings.Join(vals, " + ")
	}
	return strings.Join(vals, " + ")
}

// opposedRows sets the chance that the active side wins against pas.
func opposedRows(req *command.Request, co *CheckOdds, pas string, p *big.Rat) {
	co.Target = req.T("odds.sys.opposed", "pas", pas)
	co.Chance = p
	co.Outcomes = []OddsRow{
		{Label: req.T("sys.winner.active"), P: p},
		{Label: req.T("sys.winner.passive"), P: new(big.Rat).Sub(big.NewRat(1, 1), p)},
	}
}

// zariaOpposedOdds is the chance that the active side wins (epics first,
// ties to the active side) and the distribution of the margin, active
// total minus passive total, over the 100 × 100 rolls of two PCs.
func zariaOpposedOdds(req *command.Request, rules zaria.Rules, act, pas zaria.Side, actText, pasText string) *CheckOdds {
	co := &CheckOdds{Subject: actText}
	opposedRows(req, co, pasText, rules.OpposedChance(act, pas))
	as, ps := rules.Outcomes(act), rules.Outcomes(pas)
	scale := 2
	co.XLabel = req.T("odds.sys.x_margin")
	if rules.Mode == zaria.Exact {
		scale = 1
		co.XLabel = req.T("odds.sys.x_margin_double")
	}
	counts := map[int]int64{}
	lo, hi := 0, 0
	for i, a := range as {
		for j, p := range ps {
			m := (a[0] - p[0]) / scale
			counts[m]++
			if i == 0 && j == 0 || m < lo {
				lo = m
			}
			if i == 0 && j == 0 || m > hi {
				hi = m
			}
		}
	}
	n := int64(len(as) * len(ps))
	co.DistMin = int64(lo)
	for m := lo; m <= hi; m++ {
		co.Dist = append(co.Dist, big.NewRat(counts[m], n))
	}
	zero := int64(0)
	co.DistTarget = &zero
	return co
}

// oddsHinted names commands in errors as the user types them; a usage
// error shows the examples after "/odds " ("/odds daegon 7 d3").
func oddsHinted(req *command.Request, err error) error {
	if ue, ok := command.AsUserError(err); ok && strings.HasSuffix(ue.Key, ".error.usage") {
		if ue.Args == nil {
			ue.Args = map[string]any{}
		}
		ue.Args["pre"] = req.TypedPrefix() + "odds "
		ue.Args["zcmd"] = req.TypedPrefix() + "odds zaria"
	}
	return hinted(req, err)
}
