package systems

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/systems/daegon"
	"zaria/core/systems/engine"
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
	// Chance is the chance of success against Target; nil when Levels
	// give it at each value of a target left out (a file's outcomes
	// that need none, Cortex's botch, still under Target).
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
	// TotalAxis: Dist's values are the check's reply.Check.Total (a
	// total, a Dungeon Hack attack's damage), so the 📊 of a roll marks its
	// result on them.
	TotalAxis bool
	// Also is the chance of each outcome of the further results that
	// some rolls lack (Year Zero's damage), apart from Outcomes.
	Also []OddsRow
	// Approx: the chances are sampled, not exact (a file's pool past the
	// engine's work budget); each percentage is written with ≈.
	Approx bool
}

// OddsRow is one row of CheckOdds: a level or an outcome and its chance.
type OddsRow struct {
	Label string // "DC 15", "D3", "+10"; an outcome's name
	Name  string // the level's name, "" when it has none
	P     *big.Rat
	dc    int // the Ζαριά's DC, to merge runs
}

// ownSystems finds a chat's own system (/sistema importar) by its
// command: the forks' service.
type ownSystems interface {
	Own(ctx context.Context, chat core.ChatRef, name string) (key string, ok bool, err error)
}

// OwnOddsSystem is the key of the chat's own system whose command or
// alias word is, and the example of its file in the chat's language;
// "" when none (or forks cannot tell): /odds then reads it as OddsOf
// reads a file system.
func OwnOddsSystem(ctx context.Context, req *command.Request, word string, forks ...Forks) (key, example string, err error) {
	if len(forks) == 0 {
		return "", "", nil
	}
	own, ok := forks[0].(ownSystems)
	if !ok {
		return "", "", nil
	}
	key, found, err := own.Own(ctx, req.Msg.Chat, word)
	if err != nil || !found {
		return "", "", err
	}
	sys, err := forks[0].System(ctx, req.Msg.Chat, key)
	if err != nil || sys == nil {
		return "", "", err
	}
	return key, sys.OddsExample(req.Lang), nil
}

// oddsWith reads a check's words and sheet values as its command does
// (sysCheck.read), and gives its odds.
func oddsWith[T any](ctx context.Context, req *command.Request, s sysCheck[T], args string, odds func(*command.Request, T) *CheckOdds) (*CheckOdds, error) {
	c, _, err := s.read(ctx, req, s.words(args).toks)
	if err != nil {
		return nil, err
	}
	return odds(req, c), nil
}

func zariaOdds(req *command.Request, c zCheck) *CheckOdds {
	co := &CheckOdds{Subject: zSubject(c.act, c.actVals)}
	if c.opposed {
		return zariaOpposedOdds(req, c.rules, c.act, c.pas, co.Subject, zSubject(c.pas, c.pasVals))
	}
	od := c.rules.Odds(c.act, c.dc)
	if c.dc == 0 {
		co.Levels = zariaLevels(req, c)
	} else {
		zariaTargetOdds(req, co, c, od)
	}
	zariaTotalDist(req, co, c, od.Totals)
	return co
}

// zariaLevels is the chance of success at each DC, runs of the same chance
// in one row.
func zariaLevels(req *command.Request, c zCheck) []OddsRow {
	var rows []OddsRow
	for dc := zaria.MinDC; dc <= zaria.MaxDC; dc++ {
		row := OddsRow{Label: req.T("odds.sys.dc", "dc", dc), P: c.rules.Chance(c.act, dc), dc: dc}
		if t, exact := c.rules.Tier(dc); exact {
			row.Name = req.T("zaria.dc." + t.Key)
		}
		rows = append(rows, row)
	}
	return mergeRuns(req, rows)
}

// zariaTargetOdds sets the chance against the check's DC and of each
// outcome, from the file's exact odds.
func zariaTargetOdds(req *command.Request, co *CheckOdds, c zCheck, od *engine.Odds) {
	t, exact := c.rules.Tier(c.dc)
	name := req.T("zaria.dc." + t.Key)
	if !exact {
		name += "+"
	}
	co.Target = req.T("odds.sys.dc", "dc", c.dc) + " · " + name
	co.Chance = od.Success
	for _, k := range []string{zaria.EpicWin, zaria.MajorWin, zaria.Success, zaria.Marginal, zaria.Failure, zaria.MajorFail, zaria.EpicFail} {
		if p := od.Outcomes[k]; p != nil && p.Sign() > 0 {
			co.Outcomes = append(co.Outcomes, OddsRow{Label: c.sc.sys.OutcomeName(k, req.Lang), P: p})
		}
	}
}

// zariaTotalDist sets the total's distribution; in halves when
// media_exacta keeps them.
func zariaTotalDist(req *command.Request, co *CheckOdds, c zCheck, totals []engine.TotalP) {
	scale := int64(1)
	co.XLabel, co.TotalAxis = req.T("odds.sys.x_total"), true
	if c.rules.Mode == zaria.Exact {
		scale = 2
		co.XLabel, co.TotalAxis = req.T("odds.sys.x_double"), false
	}
	co.Dist, co.DistMin = scaledDist(totals, scale)
	if c.dc != 0 {
		t := int64(c.dc) * scale
		co.DistTarget = &t
	}
}

func daegonOdds(req *command.Request, c dgCheck) *CheckOdds {
	rd := daegonReading(req, c.rules)
	co := &CheckOdds{Subject: req.T("odds.sys.nh", "nh", nhLabel(req, c.act, c.actSkill))}
	switch {
	case c.opposed:
		da, dp := daegon.Difficulty(c.act, c.pas), daegon.Difficulty(c.pas, c.act)
		co.Subject += " · D" + strconv.Itoa(da)
		pasText := req.T("odds.sys.nh", "nh", nhLabel(req, c.pas, c.pasSkill)) + " · D" + strconv.Itoa(dp)
		opposedRows(req, co, pasText, c.rules.OpposedChance(c.act, c.pas, rd))
	case c.d == 0:
		for d := daegon.MinD; d <= daegon.MaxD; d++ {
			co.Levels = append(co.Levels, OddsRow{Label: "D" + strconv.Itoa(d), Name: req.T(fmt.Sprintf("daegon.d.%d", d)), P: c.rules.Chance(c.act, d, rd)})
		}
	default:
		co.Target = "D" + strconv.Itoa(c.d) + " · " + req.T(fmt.Sprintf("daegon.d.%d", c.d))
		co.Chance = c.rules.Chance(c.act, c.d, rd)
		daegonLevelDist(req, co, c.rules, c.act, c.d, rd)
	}
	return co
}

// daegonLevelDist sets the distribution of the levels of success, −1
// (failure) … 6, over the 100 rolls, and the chance of each.
func daegonLevelDist(req *command.Request, co *CheckOdds, rules daegon.Rules, nh, d int, rd daegon.Reading) {
	var c [daegon.MaxD + 1]*big.Rat
	for i := range c {
		c[i] = new(big.Rat)
	}
	for _, lp := range rules.Levels(nh, d, rd) {
		c[lp.Total.Num().Int64()+1] = lp.P
	}
	top := 0
	for l, k := range c {
		if k.Sign() > 0 {
			top = l
		}
	}
	for l := 0; l <= top; l++ {
		p := c[l]
		co.Dist = append(co.Dist, p)
		if p.Sign() == 0 {
			continue
		}
		label := rules.File().OutcomeName("failure", req.Lang)
		switch {
		case daegon.Pct(nh, d) == daegon.Impossible:
			label = req.T("daegon.outcome.impossible")
		case l == 1:
			label = rules.File().OutcomeName("success", req.Lang)
		case l > 1:
			label = rules.File().OutcomeName("success", req.Lang) + fmt.Sprintf(" +%d", l-1)
		}
		co.Outcomes = append(co.Outcomes, OddsRow{Label: label, P: p})
	}
	co.DistMin = -1
	co.XLabel = req.T("odds.sys.x_level")
}

func rqOdds(req *command.Request, rc rqCheck) *CheckOdds {
	sp := rc.sp
	if sp.opposed {
		c := rq.OppChance(rc.off, rc.def)
		co := &CheckOdds{Subject: "50 + " + rc.offText + " − " + rc.defText + " → " + strconv.Itoa(c)}
		rqOutcomes(req, co, rc, rc.rules.OppChances(c))
		co.Target = req.T("rq.offensive")
		return co
	}
	co := &CheckOdds{Subject: "50 + " + rc.offText}
	if !sp.diffSet {
		for _, d := range rq.Difficulties {
			co.Levels = append(co.Levels, OddsRow{Label: signedNum(d.Value), Name: req.T("rq.diff." + d.Key), P: rc.rules.Chances(50 + rc.off + d.Value).Success})
		}
		return co
	}
	c := 50 + rc.off + sp.diff
	co.Target = signedNum(sp.diff)
	if k := rqDiffKey(sp.diff); k != "" {
		co.Target += " · " + req.T(k)
	}
	co.Target += " → " + strconv.Itoa(c)
	rqOutcomes(req, co, rc, rc.rules.Chances(c))
	return co
}

// rqOutcomes sets the chance of success and of each outcome of a roll,
// named as rc's rules name them.
func rqOutcomes(req *command.Request, co *CheckOdds, rc rqCheck, o rq.Odds) {
	co.Chance = o.Success
	fail := new(big.Rat).Sub(big.NewRat(1, 1), o.Success)
	fail.Sub(fail, o.Fumble)
	for _, r := range []OddsRow{
		{Label: rqOutcome(req, rc, "critical"), P: o.Critical},
		{Label: rqOutcome(req, rc, "success"), P: new(big.Rat).Sub(o.Success, o.Critical)},
		{Label: rqOutcome(req, rc, "failure"), P: fail},
		{Label: rqOutcome(req, rc, "fumble"), P: o.Fumble},
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

func khOdds(req *command.Request, c khCheck) *CheckOdds {
	sp, pool := c.sp, c.pool
	subj := khCapText(c)
	if sp.s > 0 {
		subj += " · " + strconv.Itoa(sp.s) + "s"
	}
	if sp.i > 0 {
		subj += " · " + strconv.Itoa(sp.i) + "i"
	}
	co := &CheckOdds{Subject: subj, XLabel: req.T("odds.sys.x_total"), TotalAxis: true}
	if sp.dc == 0 {
		for _, t := range kh.Tiers {
			co.Levels = append(co.Levels, OddsRow{Label: req.T("odds.kh.dc", "dc", t.From), Name: req.T("kh.tier." + t.Key), P: c.rules.Chance(pool, t.From)})
		}
	} else {
		co.Target = req.T("odds.kh.dc", "dc", sp.dc) + " · " + req.T("kh.tier."+kh.TierOf(sp.dc).Key)
		co.Chance = c.rules.Chance(pool, sp.dc)
		t := int64(sp.dc)
		co.DistTarget = &t
		fail := new(big.Rat).Sub(big.NewRat(1, 1), co.Chance)
		co.Outcomes = []OddsRow{{Label: c.sc.sys.OutcomeName("success", req.Lang), P: co.Chance}, {Label: c.sc.sys.OutcomeName("failure", req.Lang), P: fail}}
	}
	co.Dist, co.DistMin = scaledDist(c.rules.Totals(pool), 1)
	return co
}

// mergeRuns folds three or more consecutive DCs of the same chance into
// one row, "DC 16–30", with the names of the tiers it spans, so that the
// 26 DCs of the Ζαριά fit a phone.
func mergeRuns(req *command.Request, rows []OddsRow) []OddsRow {
	return mergeRunsBy(rows, func(r string) string { return req.T("odds.sys.dc", "dc", r) })
}

// mergeRunsBy is mergeRuns with a run's label from label ("16–30").
func mergeRunsBy(rows []OddsRow, label func(string) string) []OddsRow {
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
		r := OddsRow{Label: label(num(rows[i].dc) + "–" + num(rows[j-1].dc)), P: rows[i].P}
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

// scaledDist spreads values' chances (scale × value an integer; a value
// may repeat) over consecutive integers from the lowest: Dist and DistMin.
// A whole value of the media_baja and media_alta readings falls in one
// step; their halves, on the x_double scale, in one each.
func scaledDist(vals []engine.TotalP, scale int64) ([]*big.Rat, int64) {
	if len(vals) == 0 {
		return nil, 0
	}
	at := func(v *big.Rat) int64 {
		x := new(big.Rat).Mul(v, big.NewRat(scale, 1))
		return new(big.Int).Div(x.Num(), x.Denom()).Int64() // floor
	}
	lo, hi := at(vals[0].Total), at(vals[0].Total)
	for _, v := range vals {
		lo, hi = min(lo, at(v.Total)), max(hi, at(v.Total))
	}
	out := make([]*big.Rat, hi-lo+1)
	for i := range out {
		out[i] = new(big.Rat)
	}
	for _, v := range vals {
		out[at(v.Total)-lo].Add(out[at(v.Total)-lo], v.P)
	}
	return out, lo
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
	as, ps := rules.Odds(act, 0).Totals, rules.Odds(pas, 0).Totals
	scale := int64(1)
	co.XLabel = req.T("odds.sys.x_margin")
	if rules.Mode == zaria.Exact {
		scale = 2
		co.XLabel = req.T("odds.sys.x_margin_double")
	}
	// The sides roll apart: the margin's distribution is their difference's.
	var diff []engine.TotalP
	for _, a := range as {
		for _, p := range ps {
			diff = append(diff, engine.TotalP{Total: new(big.Rat).Sub(a.Total, p.Total), P: new(big.Rat).Mul(a.P, p.P)})
		}
	}
	co.Dist, co.DistMin = scaledDist(diff, scale)
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
