package systems

import (
	"context"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// A development phase a system's file declares (its development
// section; Call of Cthulhu's: Keeper Rulebook, ch. 5 "Experience";
// docs/coc.md#development): a success of the file's check with a value of
// the sheet (/coc buscar-libros) marks it; at the end of the session the
// command and the phase's word (/coc mejorar) rolls the file's die for
// each marked value, and one over the value or of the file's "from" or
// more adds the gain die to it on the sheet; then the marks are cleared.
// The marks are the sheet value the file names (keep: coc_marcas), the
// values' names separated by commas ("-" when none: a value is never
// empty).

const devMaxMarks = 30 // values marked at once on one sheet

// devMarked reads the marked values of who's sheet (none when it has no
// marks value yet).
func devMarked(ctx context.Context, req *command.Request, d *engine.Development, who string) []string {
	v, err := req.SheetText(ctx, who, d.Keep)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" && s != "-" {
			out = append(out, s)
		}
	}
	return out
}

// devCommand is the phase as the chat types it: "/coc mejorar".
func devCommand(req *command.Request, s *engine.System) string {
	return "/" + s.File.Command + " " + s.File.Development.Words.In(req.Lang)
}

// devMark marks, after a success of the file's development check, the
// sheet value the roll read, once, and says so; a sheet the sender may
// not edit is left unmarked, and the line says why.
func devMark(ctx context.Context, req *command.Request, c fileCheck, res *engine.Result, rep *reply.Reply) {
	d := c.sys.File.Development
	if d == nil || res.Check != d.Check || !res.Success {
		return
	}
	skill := c.sheetValue(d.On)
	if skill == "" {
		return
	}
	who, cmd := c.p.Active.Who, devCommand(req, c.sys)
	marks := devMarked(ctx, req, d, who)
	for _, m := range marks {
		if fold.Key(m) == fold.Key(skill) {
			beforeOdds(rep, reply.I("✏️ "+req.T("filesys.dev.marked", "skill", skill, "cmd", cmd)))
			return
		}
	}
	if len(marks) >= devMaxMarks {
		beforeOdds(rep, reply.I("✏️ "+req.T("filesys.dev.marks_full", "max", devMaxMarks, "cmd", cmd)))
		return
	}
	if err := req.SetSheetText(ctx, who, d.Keep, strings.Join(append(marks, skill), ",")); err != nil {
		beforeOdds(rep, reply.I("✏️ "+userText(req, err)))
		return
	}
	beforeOdds(rep, reply.I("✏️ "+req.T("filesys.dev.marked", "skill", skill, "cmd", cmd)))
}

// beforeOdds adds a line above the reply's last, its 📊 chance.
func beforeOdds(rep *reply.Reply, s reply.Span) {
	n := len(rep.Lines)
	if n == 0 {
		rep.Add(s)
		return
	}
	rep.Lines = append(rep.Lines[:n-1], reply.Line{s}, rep.Lines[n-1])
}

// userText is a user error's message in the request's language.
func userText(req *command.Request, err error) string {
	if ue, ok := command.AsUserError(err); ok {
		kv := make([]any, 0, 2*len(ue.Args))
		for k, v := range ue.Args {
			kv = append(kv, k, v)
		}
		return req.T(ue.Key, kv...)
	}
	return req.T("error.internal")
}

// devPhase is "/coc mejorar [@who]": every marked value rolled, the
// gains written, the marks cleared, one line per value.
func devPhase(ctx context.Context, req *command.Request, s *engine.System, words []string) (*reply.Reply, error) {
	d, cmd := s.File.Development, devCommand(req, s)
	who := ""
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "@") && len(w) > 1 && who == "":
			who = w[1:]
		default:
			return nil, command.Errorf("filesys.dev.improve_usage", "cmd", cmd)
		}
	}
	marks := devMarked(ctx, req, d, who)
	if len(marks) == 0 {
		return nil, command.Errorf("filesys.dev.improve_none", "example", "/"+s.File.Command+" "+d.Example.In(req.Lang))
	}
	rep := &reply.Reply{}
	var dice, sides []int
	for _, skill := range marks {
		v, err := req.SheetInt(ctx, who, skill)
		if err != nil {
			rep.Add(reply.T(skill + ": " + userText(req, err)))
			continue
		}
		r := req.Rand.IntN(d.Roll) + 1
		dice, sides = append(dice, r), append(sides, d.Roll)
		if !d.Improves(r, v) {
			rep.Add(reply.T(req.T("filesys.dev.improve_no", "skill", skill, "value", v, "roll", r)))
			continue
		}
		gain := req.Rand.IntN(d.Gain) + 1
		dice, sides = append(dice, gain), append(sides, d.Gain)
		if err := req.SetSheetText(ctx, who, skill, strconv.Itoa(v+gain)); err != nil {
			return nil, err
		}
		rep.Add(reply.T(req.T("filesys.dev.improve_yes", "skill", skill, "value", v, "roll", r, "gain", gain, "new", v+gain)))
	}
	if err := req.SetSheetText(ctx, who, d.Keep, "-"); err != nil {
		return nil, err
	}
	rep.Add(reply.I(req.T("filesys.dev.improve_cleared")))
	ck := newCheck(s.File.System, "", dice)
	ck.Sides = sides
	rep.Check = ck
	return forWho(rep, who), nil
}
