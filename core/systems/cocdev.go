package systems

import (
	"context"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Call of Cthulhu's development phase (Keeper Rulebook, ch. 5
// "Experience"; docs/coc.md#development): a success with a skill of the
// sheet (/coc bibliotecas) marks it; at the end of the session
// "/coc mejorar" rolls a d100 for each marked skill, and one over the
// skill or of 96 or more adds 1d10 to it on the sheet; then the marks
// are cleared. The marks are the sheet's value cocMarks, the skills'
// names separated by commas ("-" when none: a value is never empty).

const (
	cocMarks    = "coc_marcas"
	cocMaxMarks = 30 // skills marked at once on one sheet
)

// isImprove reports whether a word asks for the development phase.
func isImprove(w string) bool {
	switch fold.Key(w) {
	case "mejorar", "mejora", "improve", "βελτιωση":
		return true
	}
	return false
}

// cocMarked reads the marked skills of who's sheet (none when it has no
// marks value yet).
func cocMarked(ctx context.Context, req *command.Request, who string) []string {
	v, err := req.SheetText(ctx, who, cocMarks)
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

// cocMark marks skill on who's sheet after a success, once, and says so;
// a sheet the sender may not edit is left unmarked, and the line says why.
func cocMark(ctx context.Context, req *command.Request, rep *reply.Reply, who, skill string) {
	marks := cocMarked(ctx, req, who)
	for _, m := range marks {
		if fold.Key(m) == fold.Key(skill) {
			beforeOdds(rep, reply.I("✏️ "+req.T("filesys.coc.marked", "skill", skill)))
			return
		}
	}
	if len(marks) >= cocMaxMarks {
		beforeOdds(rep, reply.I("✏️ "+req.T("filesys.coc.marks_full", "max", cocMaxMarks)))
		return
	}
	if err := req.SetSheetText(ctx, who, cocMarks, strings.Join(append(marks, skill), ",")); err != nil {
		beforeOdds(rep, reply.I("✏️ "+userText(req, err)))
		return
	}
	beforeOdds(rep, reply.I("✏️ "+req.T("filesys.coc.marked", "skill", skill)))
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

// cocImprove is "/coc mejorar [@who]": every marked skill rolled, the
// gains written, the marks cleared, one line per skill.
func cocImprove(ctx context.Context, req *command.Request, words []string) (*reply.Reply, error) {
	who := ""
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "@") && len(w) > 1 && who == "":
			who = w[1:]
		default:
			return nil, command.Errorf("filesys.coc.improve_usage")
		}
	}
	marks := cocMarked(ctx, req, who)
	if len(marks) == 0 {
		return nil, command.Errorf("filesys.coc.improve_none")
	}
	rep := &reply.Reply{}
	var dice, sides []int
	for _, skill := range marks {
		v, err := req.SheetInt(ctx, who, skill)
		if err != nil {
			rep.Add(reply.T(skill + ": " + userText(req, err)))
			continue
		}
		r := req.Rand.IntN(100) + 1
		dice, sides = append(dice, r), append(sides, 100)
		if r <= v && r < 96 {
			rep.Add(reply.T(req.T("filesys.coc.improve_no", "skill", skill, "value", v, "roll", r)))
			continue
		}
		gain := req.Rand.IntN(10) + 1
		dice, sides = append(dice, gain), append(sides, 10)
		if err := req.SetSheetText(ctx, who, skill, strconv.Itoa(v+gain)); err != nil {
			return nil, err
		}
		rep.Add(reply.T(req.T("filesys.coc.improve_yes", "skill", skill, "value", v, "roll", r, "gain", gain, "new", v+gain)))
	}
	if err := req.SetSheetText(ctx, who, cocMarks, "-"); err != nil {
		return nil, err
	}
	rep.Add(reply.I(req.T("filesys.coc.improve_cleared")))
	ck := newCheck("coc", "", dice)
	ck.Sides = sides
	rep.Check = ck
	return forWho(rep, who), nil
}
