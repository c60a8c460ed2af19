package systems

import (
	"context"
	"fmt"
	"math/big"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/daegon"
)

// defaultDaegonD is the difficulty of "/daegon 7" with none given: "media".
const defaultDaegonD = 2

// optDaegon00 is the house rule of how "00" reads (docs/daegon.md): cien
// (00 = 100, the default) or cero (00 = 0).
const optDaegon00 = "daegon_00"

// daegonReading is how the chat reads "00": its /ajustes choice, else
// the default of the file rules roll by (a fork's may differ).
func daegonReading(req *command.Request, rules daegon.Rules) daegon.Reading {
	if houseRule(req, rules.File(), optDaegon00) == "cero" {
		return daegon.Zero
	}
	return daegon.Hundred
}

// kwDaegonD is a difficulty "d" typed without its number: "/daegon 7 d".
var kwDaegonD = keyword{is: func(w string) bool {
	k := fold.Key(w)
	return k == "d" || k == "δ"
}, sample: sampleText("3"), glued: true}

// dgCheck is a Daegon check with its NH read: a test against a
// difficulty, or an opposed roll.
type dgCheck struct {
	act, pas           int    // NH
	actSkill, pasSkill string // the sheet values' names, "" for a number
	opposed            bool
	d                  int          // 0: none given
	rules              daegon.Rules // the book's, or the chat's fork's
}

// daegonCmd is /daegon's steps (sysCheck): the words read from the
// file's inputs (readSeed); forks (nil: none) gives a chat's fork of
// Daegon.
func daegonCmd(forks Forks) sysCheck[dgCheck] {
	read := func(ctx context.Context, req *command.Request, toks []string) (dgCheck, string, error) {
		sc, who, err := readSeed(ctx, req, "daegon", nil, toks)
		if err != nil {
			return dgCheck{}, who, err
		}
		act := sc.p.Active.Inputs
		c := dgCheck{act: act["nh"], actSkill: sc.skill(false, "nh"), d: act["d"], opposed: sc.p.Passive != nil, rules: daegon.Book()}
		if c.opposed {
			c.pas, c.pasSkill = sc.p.Passive.Inputs["nh"], sc.skill(true, "nh")
		}
		if forks == nil {
			return c, who, nil
		}
		sys, err := forks.System(ctx, req.Msg.Chat, "daegon")
		c.rules = daegon.Of(sys)
		return c, who, err
	}
	return sysCheck[dgCheck]{
		needs: []keyword{kwVs(sampleText("7")), kwDaegonD},
		read:  read,
		roll:  noErr(rollDaegon),
	}
}

func rollDaegon(req *command.Request, c dgCheck) *reply.Reply {
	if c.opposed {
		return daegonOpposed(req, c.rules, c.act, c.pas, c.actSkill, c.pasSkill)
	}
	return daegonTest(req, c.rules, c.act, c.d, c.actSkill)
}

// nhLabel is "6 (competente)" or "sigilo 6 (competente)"; 13–15 have no
// name in the seed.
func nhLabel(req *command.Request, nh int, skill string) string {
	s := fmt.Sprint(nh)
	if nh <= 12 {
		s = fmt.Sprintf("%d (%s)", nh, req.T(fmt.Sprintf("daegon.nh.%d", (nh+1)/2)))
	}
	if skill != "" {
		s = skill + " " + s
	}
	return s
}

func dgPct(req *command.Request, p int) string {
	if p == daegon.Impossible {
		return "–"
	}
	return req.Percent(big.NewRat(int64(p), 100))
}

// dgVerdict is "Éxito +1", "Fallo" or "Imposible", and its outcome key.
func dgVerdict(req *command.Request, rules daegon.Rules, r daegon.Result) (string, string) {
	switch {
	case r.Pct == daegon.Impossible:
		return req.T("daegon.outcome.impossible"), "impossible"
	case r.Level == daegon.Fail:
		return dgOutcome(req, rules, "failure"), "failure"
	case r.Level == 0:
		return dgOutcome(req, rules, "success"), "success"
	}
	return dgOutcome(req, rules, "success") + fmt.Sprintf(" +%d", r.Level), "success"
}

// dgOutcome is an outcome's name: the catalog's, or the chat's fork's
// where it renamed it.
func dgOutcome(req *command.Request, rules daegon.Rules, outcome string) string {
	if n, ok := rules.Renamed(outcome, req.Lang); ok {
		return n
	}
	return req.T("daegon.outcome." + outcome)
}

// d10Face is the face a digit was read from: the "0" is the face 10.
func d10Face(digit int) int {
	if digit == 0 {
		return 10
	}
	return digit
}

// dgRollText is "🎲 49", "🎲 07", or "🎲 00 = 100" when two zeros read as 100.
func dgRollText(r daegon.Result) string {
	if r.Value == 100 {
		return "🎲 00 = 100"
	}
	return fmt.Sprintf("🎲 %02d", r.Value)
}

func daegonTest(req *command.Request, rules daegon.Rules, nh, d int, skill string) *reply.Reply {
	defaulted := d == 0
	if defaulted {
		d = defaultDaegonD
	}
	rd := daegonReading(req, rules)
	r := rules.Test(req.Rand, nh, d, rd)
	verdict, outcome := dgVerdict(req, rules, r)
	rep := &reply.Reply{}
	rep.Add(reply.T(dgRollText(r)+" · "+req.T("daegon.test", "nh", nhLabel(req, nh, skill), "d", d, "dname", req.T(fmt.Sprintf("daegon.d.%d", d)), "pct", dgPct(req, r.Pct))), reply.T(" → "), reply.B(verdict))
	if defaulted {
		rep.Add(reply.I(req.T("daegon.default_d", "d", d, "dname", req.T(fmt.Sprintf("daegon.d.%d", d)))))
	}
	ck := newCheck("daegon", outcome, []int{d10Face(r.Tens), d10Face(r.Units)}, 10)
	ck.Total = intp(r.Value)
	ck.Level = intp(r.Level)
	p := rules.Chance(nh, d, rd)
	setChance(ck, p)
	rep.Check = ck
	line := oddsLine(req, "sys.odds.chance", p)
	if real := req.Percent(p); r.Pct != daegon.Impossible && real != dgPct(req, r.Pct) {
		line = reply.Line{reply.T("📊 " + req.T("daegon.odds_real", "pct", real, "nominal", dgPct(req, r.Pct)))}
	}
	return rep.Add(line...)
}

func daegonOpposed(req *command.Request, rules daegon.Rules, act, pas int, actSkill, pasSkill string) *reply.Reply {
	rd := daegonReading(req, rules)
	o := rules.Oppose(req.Rand, act, pas, rd)
	rep := &reply.Reply{}
	for _, s := range []struct {
		label, skill string
		r            daegon.Result
	}{{req.T("sys.active"), actSkill, o.Active}, {req.T("sys.passive"), pasSkill, o.Passive}} {
		verdict, _ := dgVerdict(req, rules, s.r)
		rep.Add(reply.T(s.label+" "+nhLabel(req, s.r.NH, s.skill)+" · D"+fmt.Sprint(s.r.D)+" ("+dgPct(req, s.r.Pct)+") · "+dgRollText(s.r)+" → "), reply.B(verdict))
	}
	key, outcome, winner := "sys.winner.active", "success", "active"
	if !o.ActiveWins {
		outcome, winner = "failure", "passive"
		switch {
		case o.Active.Level == daegon.Fail && o.Passive.Level == daegon.Fail:
			key = "daegon.winner.both_fail"
		case o.Active.Level == o.Passive.Level:
			key = "daegon.winner.tie"
		default:
			key = "sys.winner.passive"
		}
	}
	rep.Add(reply.B(req.T(key)))
	ck := newCheck("daegon", outcome, []int{d10Face(o.Active.Tens), d10Face(o.Active.Units), d10Face(o.Passive.Tens), d10Face(o.Passive.Units)}, 10)
	ck.Winner = winner
	ck.Total = intp(o.Active.Value)
	ck.Level = intp(o.Active.Level)
	p := rules.OpposedChance(act, pas, rd)
	setChance(ck, p)
	rep.Check = ck
	return rep.Add(oddsLine(req, "sys.odds.active_wins", p)...)
}
