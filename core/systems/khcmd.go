package systems

import (
	"context"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems/engine"
	"zaria/core/systems/kh"
)

// khSpec is what the words gave: the Capacidad's sheet key ("" when
// typed as a number), the bonus dice (with a specialty's), the DC.
type khSpec struct {
	capKey string
	s, i   int
	dc     int // 0: none
}

// khCheck is a Kingdom Hearts check with its dice pool read: the
// Capacidad and the bonus dice, a specialty's from the sheet.
type khCheck struct {
	sp    khSpec
	pool  kh.Input
	rules kh.Rules // the book's, or the chat's fork's
}

// khCmd is /kh's steps (sysCheck): the words read from the file's
// inputs (readSeed); forks (nil: none) gives a chat's fork of Kingdom
// Hearts.
func khCmd(forks Forks) sysCheck[khCheck] {
	read := func(ctx context.Context, req *command.Request, toks []string) (khCheck, string, error) {
		sys, err := chatSystem(ctx, req, forks, "kh")
		if err != nil {
			return khCheck{}, "", err
		}
		c, who, err := readKH(ctx, req, sys, toks)
		c.rules = kh.Of(sys)
		return c, who, err
	}
	return sysCheck[khCheck]{
		needs: []keyword{kwDC("17")},
		read:  read,
		roll:  noErr(rollKH),
	}
}

// readKH reads the Capacidad and the bonus dice, a specialty's from the
// sheet, by the chat's file sys (nil: the book's); the file's
// requirement bounds the bonus dice in all (readSeed).
func readKH(ctx context.Context, req *command.Request, sys *engine.System, toks []string) (khCheck, string, error) {
	sc, who, err := readSeed(ctx, req, "kh", sys, toks)
	if err != nil {
		return khCheck{}, who, err
	}
	in := sc.p.Active.Inputs
	sp := khSpec{capKey: sc.skill(false, "cap"), s: in["s"], i: in["i"], dc: in["dc"]}
	return khCheck{sp: sp, pool: kh.Input{Cap: in["cap"], Heartless: sp.s, Nobody: sp.i}}, who, nil
}

// khCapText is the Capacidad as typed: "5" or "fuerza 5".
func khCapText(c khCheck) string {
	if c.sp.capKey != "" {
		return c.sp.capKey + " " + strconv.Itoa(c.pool.Cap)
	}
	return strconv.Itoa(c.pool.Cap)
}

func rollKH(req *command.Request, c khCheck) *reply.Reply {
	r := c.rules.Resolve(req.Rand, c.pool, c.sp.dc)
	rep := &reply.Reply{}
	rep.Add(reply.T(khDiceText(req, r)))
	sum := []string{khCapText(c), strconv.Itoa(r.Complete)}
	for _, v := range append(append([]int{}, r.Nobody...), r.Extra...) {
		sum = append(sum, strconv.Itoa(v))
	}
	total := reply.Line{reply.T(strings.Join(sum, " + ") + " = "), reply.B(strconv.Itoa(r.Total))}
	ck := newCheck("kh", "", r.Dice(), 6)
	ck.Total = intp(r.Total)
	rep.Check = ck
	if c.sp.dc == 0 {
		return rep.Add(total...).Add(reply.I(noDCLine(req, "kh.no_dc", "dc17")))
	}
	dc := c.sp.dc
	rep.Add(append(total, reply.T(" · "+req.T("kh.dc", "dc", dc, "tier", req.T("kh.tier."+kh.TierOf(dc).Key))))...)
	ck.Outcome = r.Outcome
	rep.Add(reply.B(khOutcome(req, c.rules, r.Outcome)))
	if kh.TierOf(dc).Key == "imposible" {
		rep.Add(reply.I(req.T("kh.note.impossible")))
	}
	p := c.rules.Chance(c.pool, dc)
	setChance(ck, p)
	return rep.Add(oddsLine(req, "sys.odds.chance", p)...)
}

// khOutcome is an outcome's name: the catalog's, or the chat's fork's
// where it renamed it.
func khOutcome(req *command.Request, rules kh.Rules, outcome string) string {
	if n, ok := rules.Renamed(outcome, req.Lang); ok {
		return n
	}
	return req.T("kh.outcome." + outcome)
}

// khDiceText is "🎲 dado completo 4 · sincorazón 2, 5 (no suman) · incorpóreo 3".
func khDiceText(req *command.Request, r kh.Roll) string {
	parts := []string{"🎲 " + req.T("kh.complete", "dice", strconv.Itoa(r.Complete))}
	if len(r.Heartless) > 0 {
		parts = append(parts, req.T("kh.heartless", "dice", joinInts(r.Heartless)))
	}
	if len(r.Nobody) > 0 {
		parts = append(parts, req.T("kh.nobody", "dice", joinInts(r.Nobody)))
	}
	if len(r.Extra) > 0 {
		parts = append(parts, req.T("kh.extra", "dice", joinInts(r.Extra)))
	}
	return strings.Join(parts, " · ")
}
