package systems

import (
	"context"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
)

// --- /dh pen, montura, asfixia ---------------------------------------------

// dhPen is "/dh pen 17": a monster's Penetración from its level, the
// level read by dh.yaml's check pen (its words and errors), the reply
// laid out by the file (rollFile).
func dhPen(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	p, err := rules.File().ParseCheck("pen", toks)
	if err != nil {
		return nil, seedErr(req, rules.File(), err)
	}
	if p.Active.Who != "" {
		return nil, command.Errorf("dh.error.pen_usage")
	}
	rep, _, err := rollFile(req, fileCheck{key: "dh", sys: rules.File(), p: p, rules: houseRules(req, rules.File())})
	if err != nil {
		return nil, err
	}
	rep.Check.Outcome = "" // a figure, not a roll: --json gives its total alone
	return rep, nil
}

// dhMount is "/dh montura": dh.yaml's check mount, its reply laid out
// by the file (rollFile).
func dhMount(ctx context.Context, req *command.Request, rules dh.Rules, who string, toks []string) (*reply.Reply, error) {
	// No words: dh.yaml's check mount names the error of any.
	p, err := rules.File().ParseCheck("mount", toks)
	if err != nil {
		return nil, seedErr(req, rules.File(), err)
	}
	if p.Active.Who != "" {
		return nil, command.Errorf("dh.error.extra", "got", clip(strings.Join(toks, " ")))
	}
	rep, _, err := rollFile(req, fileCheck{key: "dh", sys: rules.File(), p: p, rules: houseRules(req, rules.File())})
	return rep, err
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
