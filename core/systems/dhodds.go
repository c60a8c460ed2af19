package systems

import (
	"cmp"
	"context"
	"math/big"

	"zaria/core/command"
	dh "zaria/core/systems/dungeonhack"
)

// dhOdds is "/odds dh ataque espada-larga vs coraza": the attack read as
// /dh ataque reads it (readAttack: sheets, "@Drake", the chat's house
// rules), the chance its reply states (damage above the Penetración) and
// the distribution of its damage, from package dungeonhack's own exact
// functions. The other sub-commands state their one chance in their reply
// and have nothing to draw.
func dhOdds(ctx context.Context, req *command.Request, args string, forks Forks) (*CheckOdds, error) {
	s := dhCmd(forks)
	in := s.words(args)
	// "vs" with nothing after it: the example to type is "/odds dh …"
	// when typed as /odds (and "/dh …" for a roll's 📊).
	typed := *req
	if req.Name != "dh" {
		typed.Alias = cmp.Or(req.Alias, req.Name) + " dh"
	}
	if err := missingValue(&typed, in.toks, s.needs...); err != nil {
		return nil, err
	}
	c, _, err := s.read(ctx, req, in.toks)
	if err != nil {
		return nil, err
	}
	if !c.attack {
		return nil, command.Errorf("odds.dh.only_attack", "cmd", req.TypedPrefix()+"odds dh "+req.T("odds.dh.example"))
	}
	at, err := readAttack(ctx, req, c.rules, c.who, c.toks)
	if ue, ok := command.AsUserError(err); ok && req.Name != "dh" {
		switch ue.Key {
		case "dh.error.no_weapon", "dh.error.twice": // their example is an attack: "/odds dh attack …"
			if ue.Args == nil {
				ue.Args = map[string]any{}
			}
			ue.Args["pre"] = req.TypedPrefix() + cmp.Or(req.Alias, req.Name) + " "
		}
	}
	if err != nil {
		return nil, err
	}
	return attackOdds(req, c.rules, at)
}

// attackOdds is the odds of an attack: above the Penetración or only it
// (none at all when it is 0), and the damage from the lowest to the
// highest, the target at one above the Penetración (or the lowest damage,
// when every hit deals more).
func attackOdds(req *command.Request, rules dh.Rules, at dhAttackRead) (*CheckOdds, error) {
	a := at.a
	head, err := at.head(req, rules)
	if err != nil {
		return nil, err
	}
	above := rules.AbovePen(a)
	co := &CheckOdds{Subject: head, Target: req.T("odds.dh.target"), Chance: above,
		XLabel: req.T("odds.dh.x_damage"), TotalAxis: true}
	floor := req.T("odds.dh.only_pen", "pen", a.Pen)
	if a.Pen == 0 {
		floor = req.T("odds.dh.none")
	}
	for _, r := range []OddsRow{
		{Label: req.T("odds.dh.above", "pen", a.Pen), P: above},
		{Label: floor, P: new(big.Rat).Sub(big.NewRat(1, 1), above)},
	} {
		if r.P.Sign() > 0 {
			co.Outcomes = append(co.Outcomes, r)
		}
	}
	// One damage only (no die to roll, or armour that always stops all
	// but the Penetración) is no distribution to draw.
	if lo, dist := rules.Damage(a); len(dist) > 1 {
		co.Dist, co.DistMin = dist, int64(lo)
		t := int64(max(a.Pen+1, lo))
		co.DistTarget = &t
	}
	return co, nil
}
