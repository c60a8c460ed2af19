package sheet

import (
	"context"
	"errors"
	"strconv"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// The damage button: a reply that computes damage to a character of the
// chat (Dungeon Hack's "/dh ataque … vs @Drake") carries a button
// (reply.ActDamage) that takes it from that character's hit points, as
// "/pj @Drake pv -N" does and with the same checks (Drake's owner or a
// GM; clamped to 0..max), once: the first press is marked in the undo
// store (kind undoDamage, under the button's Once token), and a later
// press is told it was applied. The roll history and an open session
// record it as that command, pressed by whom.

// undoDamage is the UndoStore kind of a damage button already pressed.
const undoDamage = "damage_applied"

// pressDamage applies a damage button's Action for the presser.
func (s *Service) pressDamage(ctx context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	if !a.Valid() || a.Amount > 1_000_000 {
		return nil, command.Errorf("damage.gone")
	}
	chat, mark := req.Msg.Chat, "once:"+a.Once
	if s.undo != nil {
		_, at, err := s.undo.TakeUndo(ctx, chat, mark, undoDamage)
		switch {
		case err == nil:
			_ = s.undo.PutUndo(ctx, chat, mark, undoDamage, []byte("{}"), at)
			return nil, command.Errorf("damage.applied", "name", fold.Clean(a.Character), "n", a.Amount)
		case !errors.Is(err, core.ErrNotFound):
			return nil, internal("damage mark", err)
		}
	}
	rep, err := s.pjChange(ctx, req, "@"+a.Character, hpName, "-"+strconv.Itoa(a.Amount))
	if err != nil {
		return nil, err
	}
	if s.undo != nil {
		if err := s.undo.PutUndo(ctx, chat, mark, undoDamage, []byte("{}"), s.now()); err != nil {
			return nil, internal("damage mark", err)
		}
	}
	// The history keeps rolls: the change goes there as the command it
	// is, with the damage as its total.
	n := a.Amount
	rep.Check = &reply.Check{System: "dh", Dice: []int{}, Total: &n}
	req.Record(ctx, req.TypedPrefix()+"pj @"+fold.Clean(a.Character)+" pv -"+strconv.Itoa(a.Amount), rep)
	return rep, nil
}
