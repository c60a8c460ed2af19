package systems

import (
	"context"
	"fmt"
	"strconv"

	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems/rq"
)

// rqSpec is what the words gave: an opposed roll or not, whether the
// skill (the offensive value) is a characteristic × multiplier, the sheet
// key it was read from, and the difficulty.
type rqSpec struct {
	opposed bool
	offChar bool
	offKey  string // "" for a number or a characteristic
	diff    int
	diffSet bool
}

func rqDiffKey(v int) string {
	for _, d := range rq.Difficulties {
		if d.Value == v {
			return "rq.diff." + d.Key
		}
	}
	return ""
}

// rqCheck is a RuneQuest roll with its values read: a skill against a
// difficulty, or an offensive against a defensive value.
type rqCheck struct {
	sp       rqSpec
	off, def int    // the values used as skills
	offText  string // how each was written: "45", "c14×5", "espadas 60"
	defText  string
	rules    rq.Rules // the book's, or the chat's fork's
	who      string   // the roller's character ("": the active one), whose sheet a success marks
}

// rqCmd is /rq's steps (sysCheck): the words read from the file's
// inputs (readSeed); forks (nil: none) gives a chat's fork of RQ.
func rqCmd(forks Forks) sysCheck[rqCheck] {
	read := func(ctx context.Context, req *command.Request, toks []string) (rqCheck, string, error) {
		c, who, err := readRQ(ctx, req, toks)
		c.rules = rq.Book()
		if err != nil || forks == nil {
			return c, who, err
		}
		sys, err := forks.System(ctx, req.Msg.Chat, "rq")
		c.rules = rq.Of(sys)
		return c, who, err
	}
	return sysCheck[rqCheck]{
		needs: []keyword{kwVs(sampleText("45"))},
		read:  read,
		roll:  rollRQ,
	}
}

// readRQ reads the skill and the difficulty, or the offensive and the
// defensive values (the defender's from its own character's sheet when
// one is named), each a value and how it was written ("45", "14×5",
// "espadas 60").
func readRQ(ctx context.Context, req *command.Request, toks []string) (rqCheck, string, error) {
	sc, who, err := readSeed(ctx, req, "rq", nil, toks)
	if err != nil {
		return rqCheck{}, who, err
	}
	act := sc.p.Active
	text := func(labels map[string][]string, in string, v int) string {
		if l := labels[in]; len(l) == 1 {
			return l[0]
		}
		return strconv.Itoa(v)
	}
	off := "skill"
	if sc.p.Passive != nil {
		off = "off"
	}
	_, diffSet := act.Inputs["diff"]
	c := rqCheck{who: who, sp: rqSpec{opposed: sc.p.Passive != nil, diff: act.Inputs["diff"], diffSet: diffSet}}
	if ts := act.Terms[off]; len(ts) == 1 {
		c.sp.offChar = ts[0].Times > 0
		if !c.sp.offChar {
			c.sp.offKey = ts[0].Key
		}
	}
	c.off, c.offText = act.Inputs[off], text(sc.labels[0], off, act.Inputs[off])
	if pas := sc.p.Passive; pas != nil {
		c.def, c.defText = pas.Inputs["def"], text(sc.labels[1], "def", pas.Inputs["def"])
	}
	return c, who, nil
}

// rollRQ rolls, and keeps the mark the file declares for a success on
// the skill read from the sheet («marcará la habilidad para poder
// mejorarla más tarde»); a skill typed as a number keeps the reminder.
func rollRQ(ctx context.Context, req *command.Request, c rqCheck) (*reply.Reply, error) {
	check, on, rep := "roll", "skill", (*reply.Reply)(nil)
	if c.sp.opposed {
		check, on, rep = "opposed", "off", rqOpposed(req, c)
	} else {
		rep = rqSimple(req, c)
	}
	read := map[string]string{}
	if !c.sp.offChar {
		read[on] = c.sp.offKey
	}
	lines, err := markSheet(ctx, req, "rq", check, rep.Check.Outcome, c.who, read)
	if err != nil {
		return nil, err
	}
	placeMarks(rep, "✏️ "+req.T("rq.reminder.mark"), true, lines)
	return rep, nil
}

func rqRoll(r int) string { return fmt.Sprintf("🎲 %02d", r) }

// rqRanges is "crít. ≤7 · pifia ≥99".
func rqRanges(req *command.Request, crit, fumble int) string {
	c := req.T("rq.no_crit")
	if crit > 0 {
		c = req.T("rq.crit", "n", fmt.Sprintf("%02d", crit))
	}
	f := req.T("rq.no_fumble")
	if fumble > 0 {
		f = req.T("rq.fumble", "n", fmt.Sprintf("%02d", fumble))
		if fumble == 100 {
			f = req.T("rq.fumble", "n", "00")
		}
	}
	return c + " · " + f
}

// rqOutcome is an outcome's name: the chat's fork's when it renames it.
func rqOutcome(req *command.Request, rc rqCheck, o string) string {
	if n, ok := rc.rules.Renamed(o, req.Lang); ok {
		return n
	}
	return req.T("rq.outcome." + o)
}

func rqOddsLine(req *command.Request, key string, o rq.Odds) reply.Line {
	return reply.Line{reply.T("📊 " + req.T(key, "pct", req.Percent(o.Success), "crit", req.Percent(o.Critical), "fumble", req.Percent(o.Fumble)))}
}

func rqSimple(req *command.Request, rc rqCheck) *reply.Reply {
	sp, v, vText := rc.sp, rc.off, rc.offText
	c := 50 + v + sp.diff
	r := rc.rules.Check(req.Rand, c)
	calc := "50 + " + vText
	switch {
	case sp.diff > 0:
		calc += " + " + strconv.Itoa(sp.diff)
	case sp.diff < 0:
		calc += " − " + strconv.Itoa(-sp.diff)
	case sp.diffSet:
		calc += " + 0"
	}
	if k := rqDiffKey(sp.diff); k != "" && sp.diffSet {
		calc += " " + req.T(k)
	}
	rep := &reply.Reply{}
	rep.Add(reply.B(rqRoll(r.Roll)), reply.T(" "+req.T("rq.vs", "chance", num(c), "calc", calc)))
	rep.Add(reply.B(rqOutcome(req, rc, r.Outcome)), reply.T(" · "+rqRanges(req, rc.rules.CritMax(c), rc.rules.FumbleMin(c))))
	if !sp.diffSet {
		rep.Add(reply.I(req.T("rq.default_diff")))
	}
	if rq.Succeeded(r.Outcome) && !sp.offChar {
		rep.Add(reply.I("✏️ " + req.T("rq.reminder.mark")))
	}
	ck := newCheck("rq", r.Outcome, []int{r.Roll}, 100)
	ck.Total = intp(r.Roll)
	odds := rc.rules.Chances(c)
	setChance(ck, odds.Success)
	rep.Check = ck
	return rep.Add(rqOddsLine(req, "rq.odds", odds)...)
}

func rqOpposed(req *command.Request, rc rqCheck) *reply.Reply {
	sp, offText, defText := rc.sp, rc.offText, rc.defText
	c := rq.OppChance(rc.off, rc.def)
	o := rc.rules.Oppose(req.Rand, c)
	rep := &reply.Reply{}
	rep.Add(reply.B(rqRoll(o.Roll)), reply.T(" "+req.T("rq.vs", "chance", num(c), "calc", "50 + "+offText+" − "+defText)))
	rep.Add(reply.T(rqRanges(req, rc.rules.OppCrit(c), rc.rules.OppFumbleMin(c))))
	dice := []int{o.Roll}
	if o.D4 > 0 {
		dice = append(dice, o.D4)
		parity := "rq.d4.odd"
		if o.D4%2 == 0 {
			parity = "rq.d4.even"
		}
		rep.Add(reply.T(req.T("rq.d4", "d4", o.D4, "parity", req.T(parity), "roll", rqOutcome(req, rc, o.Roll0))))
	}
	rep.Add(reply.T(req.T("rq.offensive")+": "), reply.B(rqOutcome(req, rc, o.Off)), reply.T(" · "+req.T("rq.defensive")+": "), reply.B(rqOutcome(req, rc, o.Def)))
	if o.OffensiveWins && !sp.offChar {
		rep.Add(reply.I("✏️ " + req.T("rq.reminder.mark")))
	}
	ck := newCheck("rq", o.Off, dice, 100, 4)
	ck.Total = intp(o.Roll)
	ck.Winner = "passive"
	if o.OffensiveWins {
		ck.Winner = "active"
	}
	odds := rc.rules.OppChances(c)
	setChance(ck, odds.Success)
	rep.Check = ck
	return rep.Add(rqOddsLine(req, "rq.odds_opposed", odds)...)
}
