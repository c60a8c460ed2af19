package pad

import (
	"context"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

// A cleared pad can be brought back, whole and in order, by whoever
// cleared it, for core.UndoFor: /botones deshacer (undo, αναίρεση), as
// /pj deshacer brings back a deleted character.

// undoOf is the undo of owner's pad (the chat's when owner is "").
func (s *Service) undoOf(owner string) core.Undo {
	if owner == "" {
		return core.Undo{Store: s.opt.Undo, Kind: "pad_chat"}
	}
	return core.Undo{Store: s.opt.Undo, Kind: "pad"}
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
	if err := s.undoOf(owner).Keep(ctx, req.Msg.Chat, req.Msg.From.ID, bs, s.now()); err != nil {
		s.opt.Logger.ErrorContext(ctx, "keep cleared pad", "chat", req.Msg.Chat.String(), "err", err)
		return rep, nil
	}
	rep.Add(reply.I(req.T("pad.undo_hint", "cmd", cmdName(req), "minutes", int(core.UndoFor/time.Minute))))
	return rep, nil
}

// undo brings back the pad the sender cleared last, into an empty pad.
func (s *Service) undo(ctx context.Context, req *command.Request, owner string) (*reply.Reply, error) {
	var bs []Button
	putBack, ok, err := s.undoOf(owner).Take(ctx, req.Msg.Chat, req.Msg.From.ID, &bs, s.now())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf(req, "pad.err.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	now, err := s.store.PadButtons(ctx, req.Msg.Chat, owner)
	if err != nil {
		return nil, err
	}
	if len(now) > 0 {
		// Kept: it comes back into an empty pad only, never mixed.
		putBack()
		return nil, errorf(req, "pad.err.undo_not_empty")
	}
	for _, b := range bs {
		if _, err := s.store.AddPadButton(ctx, req.Msg.Chat, owner, Button{Label: b.Label, Command: b.Command}, MaxButtons); err != nil {
			return nil, err
		}
	}
	return reply.Text(req.T("pad.undone", "count", len(bs), "cmd", cmdName(req))), nil
}
