package systems

import (
	"context"
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
	sc       seedCheck // the words read
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
	c := rqCheck{sc: sc, who: who, sp: rqSpec{opposed: sc.p.Passive != nil, diff: act.Inputs["diff"], diffSet: diffSet}}
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
	check, on := "roll", "skill"
	if c.sp.opposed {
		check, on = "opposed", "off"
	}
	// The reply is the file's layout (rq.yaml's show), rolled by the
	// chat's file (rollFile).
	rep, _, err := rollFile(req, fileCheck{key: "rq", sys: c.rules.File(), p: c.sc.p, labels: c.sc.labels})
	if err != nil {
		return nil, err
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

// rqOutcome is an outcome's name: the chat's fork's when it renames it.
func rqOutcome(req *command.Request, rc rqCheck, o string) string {
	if n, ok := rc.rules.Renamed(o, req.Lang); ok {
		return n
	}
	return req.T("rq.outcome." + o)
}
