package command

import (
	"context"

	"zaria/core"
)

// Combatant is a combatant of a chat's open turn order as an attack sees
// it: a target named by its name, whether or not it has a sheet.
type Combatant struct {
	// Name is the combatant's name as the turn order spells it.
	Name string
	// Character is true when Name is a character of the chat: its armour
	// and hit points are on its sheet.
	Character bool
	// HP is true when the turn order keeps the combatant's hit points (an
	// NPC added with "pv 15"): a damage button can take from them.
	HP bool
	// Closest, when no combatant has the name typed, is the name of the
	// one closest to it ("Orco" for "Orca"), for a suggestion; "" when
	// none is close.
	Closest string
}

// CombatantFunc finds the combatant typed as name (with or without its
// "@") in chat's open turn order; ok is false when there is none (then
// c.Closest may name a close one).
type CombatantFunc func(ctx context.Context, chat core.ChatRef, name string) (c Combatant, ok bool, err error)

// HandleCombatants sets where Combatant looks: core/initiative registers
// its turn order. A second call replaces the first.
func (r *Router) HandleCombatants(f CombatantFunc) { r.combatants = f }

// Combatant finds the combatant typed as name in the request's chat's
// open turn order (ok false when there is none, or no turn order).
func (r *Request) Combatant(ctx context.Context, name string) (Combatant, bool, error) {
	if r.router.combatants == nil {
		return Combatant{}, false, nil
	}
	return r.router.combatants(ctx, r.Msg.Chat, name)
}
