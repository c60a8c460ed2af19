package systems

import (
	"context"
	"regexp"

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
	sc               seedCheck // the words read, by the chat's file
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
	c := zCheck{sc: sc, rules: zariaRules(req, sys), opposed: sc.p.Passive != nil, dc: act.Inputs["dc"], who: who}
	c.act, c.actVals = zaria.Side{Mod: act.Inputs["mod"], NPC: act.Inputs["npc"] == 1}, sc.labels[0]["mod"]
	for _, t := range act.Terms["mod"] {
		c.read = append(c.read, t.Key)
	}
	if pas := sc.p.Passive; pas != nil {
		c.pas, c.pasVals = zaria.Side{Mod: pas.Inputs["mod"], NPC: pas.Inputs["npc"] == 1}, sc.labels[1]["mod"]
	}
	return c, who, nil
}

// file is the check as rollFile rolls it: by the chat's file and house
// rules, its reply the file's layout (zaria.yaml's show).
func (c zCheck) file(req *command.Request) fileCheck {
	return fileCheck{key: "zaria", sys: c.sc.sys, p: c.sc.p, labels: c.sc.labels, rules: houseRules(req, c.sc.sys)}
}

// rollZariaMarked rolls, and keeps the mark the file declares for an
// EPIC WIN: a skill progression point on the skill read from the sheet
// ("/zaria fuerza+atletismo": atletismo). A stat and skill typed as one
// term name no skill, and keep the reminder only.
func rollZariaMarked(ctx context.Context, req *command.Request, c zCheck) (*reply.Reply, error) {
	rep, _, err := rollFile(req, c.file(req))
	if err != nil {
		return nil, err
	}
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
