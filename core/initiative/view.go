package initiative

import (
	"context"
	"errors"
	"strconv"
	"time"

	"zaria/core"
)

// The marks the table sees on a combatant: fallen (at 0 hit points or
// fewer: the turn passes them by), and an NPC badly hurt (at half its
// hit points or less), whose hit points are the GM's.
const (
	MarkFallen = "💀"
	MarkHurt   = "🩸"
)

// Viewer is who looks at a turn order: a GM sees an NPC's hit points, a
// player (User, their user id) sees their own combatants as theirs. The
// zero Viewer is the table, as the chat's status message shows it.
type Viewer struct {
	User string
	GM   bool
}

// View is a turn order as a viewer may see it (Service.View).
type View struct {
	Open  bool
	Round int
	// CanNext: the viewer may pass the turn (/init siguiente): a GM, or
	// the player whose combatant's turn it is once the fight started.
	CanNext    bool
	Combatants []Seen
	// UndoUntil, for an order that ended, is when /init deshacer stops
	// reopening it; zero: nothing to undo.
	UndoUntil time.Time
}

// Seen is one combatant as a viewer may see it.
type Seen struct {
	Name    string
	Init    int
	Current bool // whose turn it is (never in an ended order)
	Mine    bool // the viewer's own
	// Character: a player's character, whose hit points and conditions
	// are its sheet's; otherwise an NPC, its conditions the order's.
	Character bool
	// HP is the hit points as the viewer may see them ("9/12", "7"); ""
	// when hidden (an NPC's from a player) or not tracked. Cur and Max
	// are its numbers (Max 0 when there is none).
	HP       string
	Cur, Max int
	// Mark is MarkFallen, MarkHurt or "".
	Mark       string
	Conditions []Condition
}

// View is chat's turn order as who may see it, a character's hit points
// and conditions read from its sheet (Options.Fighters), as the status
// message shows them; ok=false when the chat has none (open or ended).
func (s *Service) View(ctx context.Context, chat core.ChatRef, who Viewer) (View, bool, error) {
	o, err := s.store.Initiative(ctx, chat)
	if errors.Is(err, ErrNone) {
		return View{}, false, nil
	}
	if err != nil {
		return View{}, false, internal("read", err)
	}
	v := View{Open: o.Open, Round: o.Round, CanNext: o.Open && canNext(o, who)}
	if !o.Open && !o.Ended.IsZero() {
		v.UndoUntil = o.Ended.Add(UndoFor)
	}
	for _, c := range o.Combatants {
		vt, err := s.vitals(ctx, chat, c)
		if err != nil {
			return View{}, false, err
		}
		v.Combatants = append(v.Combatants, seen(o, c, vt, who))
	}
	return v, true, nil
}

// vitals are c's hit points and conditions: a character's from its
// sheet (the order's when it has none there), an NPC's from the order.
func (s *Service) vitals(ctx context.Context, chat core.ChatRef, c Combatant) (Vitals, error) {
	v := Vitals{HP: c.HP, MaxHP: c.MaxHP, Conditions: c.Conditions}
	if !c.Character || s.opt.Fighters == nil {
		return v, nil
	}
	sv, ok, err := s.opt.Fighters.Vitals(ctx, chat, c.Name)
	if err != nil {
		return v, internal("vitals", err)
	}
	if ok {
		v = sv
	}
	return v, nil
}

// seen is c, with its vitals v, as who may see it: a character's hit
// points to everyone, an NPC's only to a GM; whoever does not see them
// sees MarkHurt at half or less. MarkFallen is shown to all (fallen).
func seen(o Order, c Combatant, v Vitals, who Viewer) Seen {
	s := Seen{Name: c.Name, Init: c.Init, Current: o.Open && c.Key == o.Current, Mine: mine(c, who),
		Character: c.Character, Conditions: v.Conditions}
	switch {
	case v.HP == nil:
		return s
	case c.Character || who.GM:
		s.HP, s.Cur = strconv.Itoa(*v.HP), *v.HP
		if v.MaxHP != nil {
			s.HP += "/" + strconv.Itoa(*v.MaxHP)
			s.Max = *v.MaxHP
		}
	case !fallen(v) && v.MaxHP != nil && *v.HP*2 <= *v.MaxHP:
		s.Mark = MarkHurt
	}
	if fallen(v) {
		s.Mark = MarkFallen
	}
	return s
}

// fallen: at 0 hit points or fewer, the turn passes them by.
func fallen(v Vitals) bool { return v.HP != nil && *v.HP <= 0 }

// mine: c joined as who's (a player's own combatant).
func mine(c Combatant, who Viewer) bool { return c.Owner != "" && c.Owner == who.User }

// canNext is /init siguiente's rule: a GM passes the turn any time, a
// player once the fight started and the turn is their combatant's.
func canNext(o Order, who Viewer) bool {
	if who.GM {
		return true
	}
	i := o.Index(o.Current)
	return i >= 0 && mine(o.Combatants[i], who)
}
