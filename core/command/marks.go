package command

import (
	"context"

	"zaria/core"
)

// Marker is what a Sheets may also do: keep a development mark on a
// sheet value (core/sheet's MarkSheet), as a system's file says a roll's
// outcome does (an RQ success marks the skill).
type Marker interface {
	MarkSheet(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name string, add, max int) (string, int, error)
}

// MarkSheet adds add points, at most max, to the mark of the value name of
// who's sheet ("" the sender's active character, or the one the request
// runs as). It returns the value's name as the sheet has it and the
// mark's points; ok is false when the chat keeps no sheets.
func (r *Request) MarkSheet(ctx context.Context, who, name string, add, max int) (shown string, points int, ok bool, err error) {
	m, ok := r.router.cfg.Sheets.(Marker)
	if !ok {
		return "", 0, false, nil
	}
	shown, points, err = m.MarkSheet(ctx, r.Msg.Chat, r.Msg.From.ID, r.IsGM, r.who(who), name, add, max)
	return shown, points, true, err
}
