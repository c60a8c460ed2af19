package systems

import (
	"context"
	"regexp"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
	"zaria/core/systems/zaria"
)

// Chat options of the Ζαριά (docs/zaria.md#house-rules).
const (
	optZaria        = "zaria"           // media_baja | media_exacta | media_alta
	optZariaNPCEpic = "zaria_pnj_epico" // no | si
)

// zariaRules are the chat's house rules played by file sys (nil: the
// shipped one): a rule the chat has not set in /ajustes is the file's
// default, a fork's choice where it made one.
func zariaRules(req *command.Request, sys *engine.System) zaria.Rules {
	r := zaria.Rules{}
	switch houseRule(req, sys, optZaria) {
	case "media_exacta":
		r.Mode = zaria.Exact
	case "media_alta":
		r.Mode = zaria.High
	}
	r.NPCEpics = houseRule(req, sys, optZariaNPCEpic) == "si"
	return r.On(sys)
}

var plusSpaces = regexp.MustCompile(`\s*\+\s*`)

func isNPCWord(w string) bool {
	switch fold.Key(w) {
	case "npc", "pnj", "μπχ", "nps":
		return true
	}
	return false
}

// zCheck is a Ζαριά check with its sides read: each term's value from the
// words or the sheet, and its label as typed ("4" or "fuerza 4").
type zCheck struct {
	rules            zaria.Rules
	act, pas         zaria.Side
	actVals, pasVals []string
	opposed          bool
	dc               int      // 0: no DC given
	who              string   // the roller's character ("": the active one)
	read             []string // the active side's terms' sheet names ("" for a number)
}

// zariaCmd is /zaria's steps (sysCheck); forks (nil: none) gives a
// chat's fork of the Ζαριά.
func zariaCmd(forks Forks) sysCheck[zCheck] {
	return sysCheck[zCheck]{
		join:  true,
		needs: []keyword{kwDC("15"), kwVs(sampleText("4+4"))},
		read: func(ctx context.Context, req *command.Request, toks []string) (zCheck, string, error) {
			sys, err := chatSystem(ctx, req, forks, "zaria")
			if err != nil {
				return zCheck{}, "", err
			}
			return zariaRead(ctx, req, sys, toks)
		},
		roll: rollZariaMarked,
	}
}

// zariaRead reads the words in any order the file's inputs allow
// ("/zaria dc15 fuerza+atletismo @Elara") by the chat's file sys (nil:
// the book's; a fork's named DCs are its own): each side's stat+skill,
// from the words or the sheet, the passive side from its own character's
// sheet when one is named ("vs @Drake …").
func zariaRead(ctx context.Context, req *command.Request, sys *engine.System, toks []string) (zCheck, string, error) {
	sc, who, err := readSeed(ctx, req, "zaria", sys, toks)
	if err != nil {
		return zCheck{}, who, err
	}
	act := sc.p.Active
	c := zCheck{rules: zariaRules(req, sys), opposed: sc.p.Passive != nil, dc: act.Inputs["dc"], who: who}
	c.act, c.actVals = zaria.Side{Mod: act.Inputs["mod"], NPC: act.Inputs["npc"] == 1}, sc.labels[0]["mod"]
	for _, t := range act.Terms["mod"] {
		c.read = append(c.read, t.Key)
	}
	if pas := sc.p.Passive; pas != nil {
		c.pas, c.pasVals = zaria.Side{Mod: pas.Inputs["mod"], NPC: pas.Inputs["npc"] == 1}, sc.labels[1]["mod"]
	}
	return c, who, nil
}

// rollZariaMarked rolls, and keeps the mark the file declares for an
// EPIC WIN: a skill progression point on the skill read from the sheet
// ("/zaria fuerza+atletismo": atletismo). A stat and skill typed as one
// term name no skill, and keep the reminder only.
func rollZariaMarked(ctx context.Context, req *command.Request, c zCheck) (*reply.Reply, error) {
	rep := rollZaria(req, c)
	read := map[string]string{}
	if len(c.read) == 2 {
		read["mod.stat"], read["mod.skill"] = c.read[0], c.read[1]
	}
	check := "check"
	if c.opposed {
		check = "opposed"
	}
	lines, err := markSheet(ctx, req, "zaria", check, rep.Check.Outcome, c.who, read)
	if err != nil {
		return nil, err
	}
	placeMarks(rep, req.T("zaria.reminder.epic_win"), false, lines)
	return rep, nil
}

func rollZaria(req *command.Request, c zCheck) *reply.Reply {
	if c.opposed {
		return zariaOpposed(req, c)
	}
	return zariaCheck(req, c)
}

// zRollLines shows one side's dice and total: "🎲 Ζαριά: 3, 8 → 5" and
// "4 + 2 + 5 = 11".
func zRollLine(req *command.Request, label string, s zaria.Side, vals []string, r zaria.Roll) reply.Line {
	parts := append(make([]string, 0, len(vals)+1), vals...)
	dice := req.T("zaria.dice_pc", "dice", joinInts(r.Dice), "z", half(req.Lang, r.Z2))
	if s.NPC {
		dice = req.T("zaria.dice_npc", "dice", joinInts(r.Dice))
	}
	parts = append(parts, half(req.Lang, r.Z2))
	line := reply.Line{}
	if label != "" {
		line = append(line, reply.B(label+" "))
	}
	return append(line, reply.T("🎲 "+dice+" · "+strings.Join(parts, " + ")+" = "), reply.B(half(req.Lang, r.Total2)))
}

func zariaCheck(req *command.Request, c zCheck) *reply.Reply {
	res := zariaRoll(req, c)
	rep := &reply.Reply{}
	rep.Add(zRollLine(req, "", c.act, c.actVals, res.Roll)...)
	ck := newCheck("zaria", res.Outcome, res.Dice, 10)
	if res.Total2%2 == 0 {
		ck.Total = intp(res.Total2 / 2)
	}
	rep.Check = ck
	var odds reply.Line
	if c.dc > 0 {
		zariaVerdict(req, rep, c.rules, res, c.dc)
		p := c.rules.Chance(c.act, c.dc)
		setChance(ck, p)
		if zaria.Succeeded(res.Outcome) {
			ck.Level = intp(res.Level)
		}
		odds = oddsLine(req, "sys.odds.chance", p)
	} else {
		if res.Outcome != "" {
			rep.Add(reply.B(zOutcome(req, c.rules, res.Outcome)))
		}
		rep.Add(reply.I(noDCLine(req, "sys.no_dc", "dc15")))
	}
	if res.Outcome == zaria.EpicWin {
		rep.Add(reply.I(req.T("zaria.reminder.epic_win")))
	}
	if odds != nil {
		rep.Add(odds...)
	}
	return rep
}

// zariaRoll rolls against the DC, or, with none, only the dice and the
// total, an epic still an outcome.
func zariaRoll(req *command.Request, c zCheck) zaria.Result {
	if c.dc > 0 {
		return c.rules.Check(req.Rand, c.act, c.dc)
	}
	res := zaria.Result{Roll: c.rules.RollSide(req.Rand, c.act)}
	switch res.Epic {
	case -1:
		res.Outcome = zaria.EpicFail
	case 1:
		res.Outcome = zaria.EpicWin
	}
	return res
}

// zOutcome is an outcome's name: the catalog's, or the chat's fork's
// where it renamed it.
func zOutcome(req *command.Request, rules zaria.Rules, outcome string) string {
	if n, ok := rules.Renamed(outcome, req.Lang); ok {
		return n
	}
	return req.T("zaria.outcome." + outcome)
}

// zariaVerdict adds "Éxito · CD 15 (medio) · +2" and the levels
// of a major or epic win.
func zariaVerdict(req *command.Request, rep *reply.Reply, rules zaria.Rules, res zaria.Result, dc int) {
	tier, exact := rules.Tier(dc)
	name := req.T("zaria.dc." + tier.Key)
	if !exact {
		// "CD 12 (entre fácil y media)", not the cryptic "(fácil+)".
		name = req.T("zaria.dc_above", "name", name)
		ns := rules.Named()
		for i, n := range ns {
			if n.Key == tier.Key && i+1 < len(ns) {
				name = req.T("zaria.dc_between", "low", req.T("zaria.dc."+tier.Key), "high", req.T("zaria.dc."+ns[i+1].Key))
			}
		}
	}
	verdict := zOutcome(req, rules, res.Outcome)
	rep.Add(reply.B(verdict), reply.T(" "+req.T("zaria.vs_dc", "dc", dc, "name", name, "margin", signed(half(req.Lang, res.Margin2)))))
	if rep.Check != nil {
		m := float64(res.Margin2) / 2
		rep.Check.Margin = &m
	}
	if (res.Outcome == zaria.MajorWin && res.Level > 1) || (res.Outcome == zaria.EpicWin && res.Level > 0) {
		rep.Add(reply.T(req.T("zaria.levels", "count", res.Level)))
	}
}

func zariaOpposed(req *command.Request, c zCheck) *reply.Reply {
	o := c.rules.Oppose(req.Rand, c.act, c.pas)
	rep := &reply.Reply{}
	rep.Add(zRollLine(req, req.T("sys.active"), c.act, c.actVals, o.Active)...)
	rep.Add(zRollLine(req, req.T("sys.passive"), c.pas, c.pasVals, o.Passive)...)
	for _, side := range []struct {
		label string
		r     zaria.Roll
	}{{req.T("sys.active"), o.Active}, {req.T("sys.passive"), o.Passive}} {
		switch side.r.Epic {
		case -1:
			rep.Add(reply.T(side.label+": "), reply.B(zOutcome(req, c.rules, zaria.EpicFail)))
		case 1:
			rep.Add(reply.T(side.label+": "), reply.B(zOutcome(req, c.rules, zaria.EpicWin)))
		}
	}
	winner, outcome := "passive", zaria.Failure
	key := "sys.winner.passive"
	if o.ActiveWins {
		winner, outcome, key = "active", zaria.Success, "sys.winner.active"
		if o.Active.Total2 == o.Passive.Total2 && o.Active.Epic == o.Passive.Epic {
			key = "zaria.winner.tie_active"
		}
	}
	switch o.Active.Epic {
	case -1:
		outcome = zaria.EpicFail
	case 1:
		outcome = zaria.EpicWin
	}
	rep.Add(reply.B(req.T(key)))
	if o.Active.Epic == 1 {
		rep.Add(reply.I(req.T("zaria.reminder.epic_win")))
	}
	dice := append(append([]int{}, o.Active.Dice...), o.Passive.Dice...)
	ck := newCheck("zaria", outcome, dice, 10)
	ck.Winner = winner
	if o.Active.Total2%2 == 0 {
		ck.Total = intp(o.Active.Total2 / 2)
	}
	p := c.rules.OpposedChance(c.act, c.pas)
	setChance(ck, p)
	rep.Check = ck
	return rep.Add(oddsLine(req, "sys.odds.active_wins", p)...)
}
