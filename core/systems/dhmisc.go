package systems

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
)

// --- /dh pen, montura, asfixia ---------------------------------------------

// dhPen is "/dh pen 17": a monster's Penetración from its level, the
// level read by dh.yaml's check pen (its words and errors).
func dhPen(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	p, err := rules.File().ParseCheck("pen", toks)
	if err != nil {
		return nil, seedErr(req, rules.File(), err)
	}
	if p.Active.Who != "" {
		return nil, command.Errorf("dh.error.pen_usage")
	}
	level := p.Active.Inputs["level"]
	mode := dhPenMode(req, rules)
	pen := rules.MonsterPen(level, mode)
	other, otherKey := rules.MonsterPen(level, dh.Ceil), "option.dh_pen.techo"
	if mode == dh.Ceil {
		other, otherKey = rules.MonsterPen(level, dh.Round), "option.dh_pen.redondeo"
	}
	rep := &reply.Reply{}
	rep.Add(reply.T(req.T("dh.pen.level", "level", level)+" "), reply.B(req.T("dh.pen.value", "pen", pen)))
	if other != pen {
		rep.Add(reply.I(req.T("dh.pen.other", "mode", req.T(otherKey), "pen", other)))
	}
	rep.Add(reply.I(req.T("dh.pen.gm")))
	ck := newCheck("dh", "", nil)
	ck.Total = intp(pen)
	rep.Check = ck
	return rep, nil
}

func dhMount(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	// No words: dh.yaml's check mount names the error of any.
	if p, err := rules.File().ParseCheck("mount", toks); err != nil {
		return nil, seedErr(req, rules.File(), err)
	} else if p.Active.Who != "" {
		return nil, command.Errorf("dh.error.extra", "got", clip(strings.Join(toks, " ")))
	}
	roll, mount := rules.MountCheck(req.Rand)
	rep := &reply.Reply{}
	verdict, outcome := req.T("dh.mount.rider"), "failure"
	if mount {
		verdict, outcome = req.T("dh.mount.mount"), "success"
	}
	rep.Add(reply.T(fmt.Sprintf("🐎 🎲 d20 → %d (%d+): ", roll, dh.MountThreshold)), reply.B(verdict))
	ck := newCheck("dh", outcome, []int{roll}, 20)
	ck.Total = intp(roll)
	p := rules.MountChance()
	setChance(ck, p)
	rep.Check = ck
	return rep.Add(oddsLine(req, "dh.odds.mount", p)...), nil
}

func dhAsphyxia(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	// The first word is the round, read by dh.yaml's check drown (its
	// range and errors); an armour's name may follow.
	p, err := rules.File().ParseCheck("drown", toks[:min(1, len(toks))])
	if err != nil {
		return nil, seedErr(req, rules.File(), err)
	}
	if p.Active.Who != "" {
		return nil, command.Errorf("dh.error.asphyxia_usage")
	}
	round := p.Active.Inputs["round"]
	need, pen := rules.Asphyxia(round)
	rep := &reply.Reply{}
	if !need {
		rep.Add(reply.T("🌊 " + req.T("dh.asphyxia.none", "round", round)))
	} else {
		rep.Add(reply.T("🌊 "+req.T("dh.asphyxia.roll", "round", round)+" "), reply.B(req.T("dh.asphyxia.penalty", "pen", "−"+strconv.Itoa(pen))))
		rep.Add(reply.T(req.T("dh.asphyxia.damage")))
	}
	// Heavy armour sinks its wearer (docs/dungeonhack.md#underwater): named, or from the sheet.
	var armour dh.Armour
	hasArmour := false
	if len(toks) > 1 {
		a, err := findArmour(req, rules, strings.Join(toks[1:], " "))
		if err != nil {
			return nil, err
		}
		armour, hasArmour = a, true
	} else if name, ok, err := sheetOpt(ctx, req, who, sheetArmour); err != nil {
		return nil, err
	} else if ok {
		if a, err := findArmour(req, rules, name); err == nil {
			armour, hasArmour = a, true
		}
	}
	switch {
	case hasArmour && armour.SwimDisadvantage:
		rep.Add(reply.I(req.T("dh.asphyxia.sinks_dis", "armour", capFirst(dhArmourName(req, armour)))))
	case hasArmour && armour.Sinks:
		rep.Add(reply.I(req.T("dh.asphyxia.sinks", "armour", capFirst(dhArmourName(req, armour)))))
	}
	ck := newCheck("dh", "", nil)
	ck.Total = intp(-pen)
	rep.Check = ck
	return rep, nil
}
