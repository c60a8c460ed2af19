package sheet

import (
	"context"
	"errors"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Undo: a deleted character can be brought back by whoever deleted it,
// for core.UndoFor, with /pj deshacer (undo, αναίρεση). An undo rather than a
// confirmation button: a button is one more tap on every deletion, and a
// confirmation is pressed as fast as the typo was typed; an undo costs
// nothing until it is needed, works on every platform (the console and a
// Matrix client without reactions too), and also saves a deletion made
// on purpose and regretted.

const undoCharacter = "character"

// undoOf is the undo of a deleted character.
func (s *Service) undoOf() core.Undo { return core.Undo{Store: s.undo, Kind: undoCharacter} }

// keepUndo records c, just deleted by userID, for /pj deshacer. A failure
// is returned wrapped: the deletion stands, and the reply says nothing of
// an undo.
func (s *Service) keepUndo(ctx context.Context, chat core.ChatRef, userID string, c Character) error {
	return s.undoOf().Keep(ctx, chat, userID, c, s.now())
}

// pjUndo brings back the character the sender deleted last, as it was:
// its values, system and owner (it becomes its owner's active one).
func (s *Service) pjUndo(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	var c Character
	putBack, ok, err := s.undoOf().Take(ctx, req.Msg.Chat, req.Msg.From.ID, &c, s.now())
	if err != nil {
		return nil, internal("take undo", err)
	}
	if !ok {
		return nil, command.Errorf("character.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	c.Key = NameKey(c.Name)
	restored, err := s.store.CreateCharacter(ctx, req.Msg.Chat, c, Quota{PerOwner: s.lim.CharactersPerUser, PerChat: s.lim.CharactersPerChat})
	switch {
	case errors.Is(err, core.ErrExists):
		// Someone took the name meanwhile: the undo is kept for a rename.
		putBack()
		return nil, command.Errorf("character.undo_taken", "name", fold.Clean(c.Name))
	case errors.Is(err, core.ErrQuota):
		putBack()
		return nil, s.quotaError(ctx, req)
	case err != nil:
		return nil, internal("undo create", err)
	}
	rep := reply.Text(req.TP("character.undone", "name", fold.Clean(restored.Name), "count", len(restored.Values)))
	return rep, nil
}
