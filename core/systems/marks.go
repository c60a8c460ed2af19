package systems

import (
	"context"
	"errors"

	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// markSheet keeps on the roller's sheet the development marks the
// system's file declares for a check's outcome (engine.Mark: an RQ
// success marks the skill, a Ζαριά EPIC WIN adds a skill progression
// point). read maps a mark's "on" (an input, "skill", or an input's
// part, "mod.skill") to the sheet value the roll read for it; a value
// typed as a number has none, and keeps no mark. It returns a line per
// mark kept ("✎ Espadas …"), or the sheet's refusal; nil when none was
// kept.
func markSheet(ctx context.Context, req *command.Request, system, check, outcome, who string, read map[string]string) ([]reply.Line, error) {
	s, err := engine.Builtin(system)
	if err != nil {
		return nil, err
	}
	return markWith(ctx, req, s, check, outcome, who, read)
}

// markWith is markSheet for a loaded system.
func markWith(ctx context.Context, req *command.Request, s *engine.System, check, outcome, who string, read map[string]string) ([]reply.Line, error) {
	var out []reply.Line
	for _, m := range s.MarksFor(check, outcome) {
		name := read[m.On]
		if name == "" {
			continue
		}
		shown, points, ok, err := req.MarkSheet(ctx, who, name, m.Add, m.Max)
		var ue *command.UserError
		switch {
		case !ok:
			continue
		case errors.As(err, &ue):
			out = append(out, reply.Line{reply.I("✎ " + req.T(ue.Key, argList(ue.Args)...))})
			continue
		case err != nil:
			return nil, err
		}
		key := "sys.mark.points"
		if m.Max == 1 {
			key = "sys.mark.tick"
		}
		out = append(out, reply.Line{reply.I(req.TP(key, "name", shown, "points", points))})
	}
	return out, nil
}

// writeSheet writes on who's sheet the values a result's sets write
// (engine.SheetWrite: Dungeon Hack's usage die down to d8), each on the
// sheet value read names for its input, and returns a line per value
// written ("Ficha: uso-arma = d8"), or the sheet's refusal. name shows a
// sheet value's name in the chat's language.
func writeSheet(ctx context.Context, req *command.Request, who string, writes []engine.SheetWrite, read map[string]string, name func(string) string) ([]reply.Line, error) {
	var out []reply.Line
	for _, w := range writes {
		key := read[w.On]
		if key == "" {
			continue
		}
		note, err := saveSheet(ctx, req, who, key, w.Text)
		if err != nil {
			return nil, err
		}
		if note != nil {
			out = append(out, note)
			continue
		}
		shown := w.Text
		if w.Shown != nil {
			shown = w.Shown.In(req.Lang)
		}
		out = append(out, reply.Line{reply.I(req.T("sys.sheet.set", "name", name(key), "value", shown))})
	}
	return out, nil
}

// argList is a UserError's arguments as T takes them.
func argList(m map[string]any) []any {
	out := make([]any, 0, 2*len(m))
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

// placeMarks puts the lines of the marks kept where the reply has its
// reminder line (the text reminder): in its place when replace (RQ's
// "mark the skill", now done), else after it (the Ζαριά's "+1 skill
// progression point", which also speaks of courage). Without that line
// they go last.
func placeMarks(rep *reply.Reply, reminder string, replace bool, lines []reply.Line) {
	if len(lines) == 0 {
		return
	}
	at := len(rep.Lines)
	for i, l := range rep.Lines {
		if len(l) == 1 && l[0].Text == reminder {
			at = i + 1
			break
		}
	}
	tail := append([]reply.Line(nil), rep.Lines[at:]...)
	head := rep.Lines[:at]
	if replace && at > 0 && at <= len(rep.Lines) && len(rep.Lines[at-1]) == 1 && rep.Lines[at-1][0].Text == reminder {
		head = head[:at-1]
	}
	rep.Lines = append(append(head, lines...), tail...)
}

// SheetKeys are the keys a new sheet of system starts with (sheet.Options):
// its file's sheet section; none for a system without a file or one.
func SheetKeys(system string) []engine.SheetKey {
	s, err := engine.Builtin(system)
	if err != nil {
		return nil
	}
	return s.SheetKeys()
}

// fileMarks keeps the marks a file system's file declares for its
// check's outcome (any file: a GM's own may declare them), on the sheet
// values its terms inputs read ("skill", or "mod.skill" for a part), and
// writes its check's sets there, the lines before the reply's last (the
// 📊 line).
func fileMarks(ctx context.Context, req *command.Request, c fileCheck, res *engine.Result, rep *reply.Reply) error {
	read := map[string]string{}
	for in, ts := range c.p.Active.Terms {
		if len(ts) == 1 {
			read[in] = ts[0].Key
		}
		for _, def := range c.sys.File.Inputs {
			for i, part := range def.Parts {
				if def.Key == in && i < len(ts) && len(ts) == len(def.Parts) {
					read[in+"."+part.Key] = ts[i].Key
				}
			}
		}
	}
	lines, err := markWith(ctx, req, c.sys, res.Check, res.Outcome, c.p.Active.Who, read)
	if err != nil {
		return err
	}
	written, err := writeSheet(ctx, req, c.p.Active.Who, c.sys.WritesFor(res), read, func(key string) string { return key })
	if err != nil {
		return err
	}
	lines = append(lines, written...)
	if len(lines) == 0 {
		return nil
	}
	n := len(rep.Lines)
	if n > 0 {
		n--
	}
	rep.Lines = append(rep.Lines[:n:n], append(lines, rep.Lines[n:]...)...)
	return nil
}
