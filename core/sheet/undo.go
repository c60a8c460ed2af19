package sheet

import (
	"context"
	"encoding/json"
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

// keepUndo records c, just deleted by userID, for /pj deshacer. A failure
// is returned wrapped: the deletion stands, and the reply says nothing of
// an undo.
func (s *Service) keepUndo(ctx context.Context, chat core.ChatRef, userID string, c Character) error {
	if s.undo == nil {
		return errors.New("no undo store")
	}
	doc, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return s.undo.PutUndo(ctx, chat, userID, undoCharacter, doc, s.now())
}

// pjUndo brings back the character the sender deleted last, as it was:
// its values, system and owner (it becomes its owner's active one).
func (s *Service) pjUndo(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if s.undo == nil {
		return nil, command.Errorf("character.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	doc, at, err := s.undo.TakeUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoCharacter)
	if errors.Is(err, core.ErrNotFound) || err == nil && !core.Undoable(at, s.now()) {
		return nil, command.Errorf("character.no_undo", "minutes", int(core.UndoFor/time.Minute))
	}
	if err != nil {
		return nil, internal("take undo", err)
	}
	var c Character
	if err := json.Unmarshal(doc, &c); err != nil {
		return nil, internal("undo", err)
	}
	c.Key = NameKey(c.Name)
	restored, err := s.store.CreateCharacter(ctx, req.Msg.Chat, c, Quota{PerOwner: s.lim.CharactersPerUser, PerChat: s.lim.CharactersPerChat})
	switch {
	case errors.Is(err, core.ErrExists):
		// Someone took the name meanwhile: the undo is kept for a rename.
		_ = s.undo.PutUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoCharacter, doc, at)
		return nil, command.Errorf("character.undo_taken", "name", fold.Clean(c.Name))
	case errors.Is(err, core.ErrQuota):
		_ = s.undo.PutUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoCharacter, doc, at)
		return nil, s.quotaError(ctx, req)
	case err != nil:
		return nil, internal("undo create", err)
	}
	rep := reply.Text(req.TP("character.undone", "name", fold.Clean(restored.Name), "count", len(restored.Values)))
	return rep, nil
}
