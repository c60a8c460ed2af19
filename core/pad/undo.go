package pad

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

// A cleared pad can be brought back, whole and in order, by whoever
// cleared it, for core.UndoFor: /botones deshacer (undo, αναίρεση), as
// /pj deshacer brings back a deleted character.

// undoKind is the kind a cleared pad of owner is kept as.
func undoKind(owner string) string {
	if owner == "" {
		return "pad_chat"
	}
	return "pad"
}

// clear empties owner's pad, keeping its buttons for an undo.
func (s *Service) clear(ctx context.Context, req *command.Request, owner string) (*reply.Reply, error) {
	bs, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	n, err := s.store.ClearPad(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	rep := reply.Text(req.T("pad.cleared", "count", n))
	if n == 0 || s.opt.Undo == nil {
		return rep, nil
	}
	doc, err := json.Marshal(bs)
	if err == nil {
		err = s.opt.Undo.PutUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoKind(owner), doc, s.now())
	}
	if err != nil {
		s.opt.Logger.ErrorContext(ctx, "keep cleared pad", "chat", req.Msg.Chat.String(), "err", err)
		return rep, nil
	}
	rep.Add(reply.I(req.T("pad.undo_hint", "cmd", cmdName(req), "minutes", int(core.UndoFor/time.Minute))))
	return rep, nil
}

// undo brings back the pad the sender cleared last, into an empty pad.
func (s *Service) undo(ctx context.Context, req *command.Request, owner string) (*reply.Reply, error) {
	if s.opt.Undo == nil {
		return nil, errorf(req, "pad.err.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	kind := undoKind(owner)
	doc, at, err := s.opt.Undo.TakeUndo(ctx, req.Msg.Chat, req.Msg.From.ID, kind)
	if errors.Is(err, core.ErrNotFound) || err == nil && !core.Undoable(at, s.now()) {
		return nil, errorf(req, "pad.err.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	if err != nil {
		return nil, err
	}
	var bs []Button
	if err := json.Unmarshal(doc, &bs); err != nil {
		return nil, err
	}
	now, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	if len(now) > 0 {
		// Kept: it comes back into an empty pad only, never mixed.
		_ = s.opt.Undo.PutUndo(ctx, req.Msg.Chat, req.Msg.From.ID, kind, doc, at)
		return nil, errorf(req, "pad.err.undo_not_empty")
	}
	for _, b := range bs {
		if _, err := s.store.AddPadButton(ctx, req.Msg.Chat, owner, Button{Label: b.Label, Command: b.Command}, MaxButtons); err != nil {
			return nil, err
		}
	}
	return reply.Text(req.T("pad.undone", "count", len(bs), "cmd", cmdName(req))), nil
}
