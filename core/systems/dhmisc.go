package systems

import (
	"context"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
	dh "zaria/core/systems/dungeonhack"
	"zaria/core/systems/engine"
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

// dhAsphyxia is "/dh asfixia 13" or "/dh asfixia 2 cota de anillas":
// dh.yaml's check drown, the round read by the file, the armour typed or
// the sheet's found here, the reply laid out by the file.
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
	pr := engine.Params{Inputs: map[string]int{"round": p.Active.Inputs["round"]}}
	// Heavy armour sinks its wearer (docs/dungeonhack.md#underwater): named, or from the sheet.
	if len(toks) > 1 {
		a, err := findArmour(req, rules, strings.Join(toks[1:], " "))
		if err != nil {
			return nil, err
		}
		pr.Inputs["armour"] = a.Row
	} else if name, ok, err := sheetOpt(ctx, req, who, sheetArmour); err != nil {
		return nil, err
	} else if ok {
		if a, err := findArmour(req, rules, name); err == nil {
			pr.Inputs["armour"] = a.Row
		}
	}
	res, err := rules.File().Roll("drown", pr, req.Rand)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	ck := newCheck("dh", "", nil)
	if err := layoutLines(req, rules.File(), res, &engine.Parsed{Check: "drown"}, pr, [2]map[string][]string{}, ck, rep); err != nil {
		return nil, err
	}
	_, pen := rules.Asphyxia(pr.Inputs["round"])
	ck.Total = intp(-pen)
	rep.Check = ck
	return rep, nil
}
