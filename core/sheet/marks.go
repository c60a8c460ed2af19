package sheet

import (
	"context"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Development marks (docs/characters.md#development-marks): a roll that
// the system's file says marks a skill (an RQ success, a Ζαριά EPIC WIN)
// keeps, on the sheet, a value named MarkPrefix + the skill's name whose
// text is its points. No name a user types can begin with MarkPrefix
// (CheckName), so a mark is never set by hand, and it moves with the
// sheet (export, import, undo) as any value does. The GM clears them:
// /pj mejoras borrar.

// MarkPrefix begins the name of a mark's value.
const MarkPrefix = "✎"

// subMarks is "/pj mejoras"; marksClear its "borrar".
const subMarks = "marks"

var marksClear = map[string]bool{"borrar": true, "limpiar": true, "διαγραφη": true, "σβησε": true, "clear": true, "delete": true}

// isMark reports whether v is a development mark.
func isMark(v Value) bool { return strings.HasPrefix(v.Name, MarkPrefix) }

// MarkSheet adds add points, at most max, to the mark of the value name of
// who's sheet (the sender's active character when who is ""), which the
// sender may edit (its owner, or a GM). It returns the value's name as the
// sheet has it and the mark's points. A sheet at its quota of values keeps
// no new mark: "character.mark_full".
func (s *Service) MarkSheet(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name string, add, max int) (string, int, error) {
	var (
		shown  string
		points int
	)
	_, err := s.edit(ctx, chat, userID, isGM, who, func(c *Character) error {
		i := s.valueIndex(*c, name)
		if i < 0 {
			return unknownValue(*c, name)
		}
		shown = c.Values[i].Name
		mark := MarkPrefix + shown
		k := fold.Key(mark)
		for j := range c.Values {
			if c.Values[j].Key == k {
				n, _ := strconv.Atoi(c.Values[j].Text)
				points = min(n+add, max)
				c.Values[j].Text = strconv.Itoa(points)
				return nil
			}
		}
		if len(c.Values) >= s.lim.ValuesPerSheet {
			return command.Errorf("character.mark_full", "name", c.Name, "max", s.lim.ValuesPerSheet)
		}
		points = min(add, max)
		c.Values = append(c.Values, Value{Name: mark, Key: k, Text: strconv.Itoa(points)})
		return nil
	})
	return shown, points, err
}

// marksLine is "✎ Mejoras: Espadas 1 · Atletismo 2", nil when c has none.
func marksLine(req *command.Request, c Character) reply.Line {
	var parts []string
	for _, v := range c.Values {
		if isMark(v) {
			parts = append(parts, strings.TrimPrefix(v.Name, MarkPrefix)+" "+v.Text)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return reply.Line{reply.T(MarkPrefix + " " + req.T("character.marks") + ": " + strings.Join(parts, " · "))}
}

// pjMarks is "/pj mejoras [@Drake]", the marks of a sheet, and
// "/pj mejoras borrar [@Drake]", which the GM types once the marks have
// been spent (a development session).
func (s *Service) pjMarks(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	clear := false
	var who string
	for _, a := range args {
		switch {
		case marksClear[fold.Key(a)] && !clear:
			clear = true
		case who == "":
			who = a
		default:
			return nil, command.Errorf("character.marks_usage")
		}
	}
	if !clear {
		c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, who)
		if err != nil {
			return nil, err
		}
		if l := marksLine(req, c); l != nil {
			return &reply.Reply{Lines: []reply.Line{{reply.B("🧙 " + fold.Clean(c.Name))}, l}}, nil
		}
		return reply.Text(req.TP("character.marks_none", "name", c.Name)), nil
	}
	if !req.IsGM {
		return nil, command.Errorf("character.marks_gm_only")
	}
	n := 0
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, true, who, func(c *Character) error {
		kept := c.Values[:0:0]
		for _, v := range c.Values {
			if isMark(v) {
				n++
				continue
			}
			kept = append(kept, v)
		}
		c.Values = kept
		return nil
	})
	if err != nil {
		return nil, err
	}
	return reply.Text(req.TP("character.marks_cleared", "name", c.Name, "count", n)), nil
}
