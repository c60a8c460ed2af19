// Package initiative is /iniciativa (/init, !πρωτοβουλία): the chat's turn
// order, system-neutral.
//
//	/init                      join with your active character, rolling the chat's initiative (/ajustes iniciativa 1d20+destreza; 1d20 by default)
//	/init 2d6+1 · /init 14     join with your own roll, or a value
//	/init añadir Orco 2d6+1    the GM adds a foe; /init añadir "Orco 2" 12 pv 15 with 15 hit points
//	/init siguiente            the next turn: announces whose it is and mentions the player
//	/init quitar Orco · /init mover Orco 1 · /init fin · /init deshacer
//	/init pv Orco -5 · /init estado Orco +aturdido 2   an NPC's hit points and conditions (GM)
//
// The order is highest first (lowest first with /ajustes iniciativa_orden
// baja); equal initiatives keep the order of arrival: who joined first acts
// first. Every reply carries the status message (reply.Reply.Status), which
// adapters edit in place; its buttons are ▶ next and ⏹ end.
package initiative

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Settings of the chat this package registers (/ajustes).
const (
	// OptExpr is the roll a player joins with: "1d20+destreza".
	OptExpr = "iniciativa"
	// OptOrder is "alta" (highest first, the default) or "baja".
	OptOrder = "iniciativa_orden"
	// DefaultExpr is the initiative roll of a chat that set none.
	DefaultExpr = "1d20"
	// MaxExpr is the longest initiative expression, in characters.
	MaxExpr = 60
)

// Action kinds of the status message's buttons.
const (
	ActNext reply.ActionKind = "init_next"
	ActEnd  reply.ActionKind = "init_end"
)

// Vitals are a character's hit points and conditions as the sheet holds
// them, for the status message.
type Vitals struct {
	HP, MaxHP  *int
	Conditions []Condition
}

// Fighters reads and counts down the hit points and conditions of the
// chat's characters (core/sheet implements it).
type Fighters interface {
	// Vitals of the chat's character name; ok=false when there is none.
	Vitals(ctx context.Context, chat core.ChatRef, name string) (v Vitals, ok bool, err error)
	// TickConditions counts down by one round the conditions of the
	// character name that have a length, removes those that reach 0 and
	// returns their names.
	TickConditions(ctx context.Context, chat core.ChatRef, name string) ([]string, error)
}

// Options of the service.
type Options struct {
	// ActiveName names userID's active character in chat ("" none).
	ActiveName func(ctx context.Context, chat core.ChatRef, userID string) (string, error)
	Fighters   Fighters
	Now        func() time.Time
	Logger     *slog.Logger
}

// Service is /init.
type Service struct {
	store Store
	opt   Options
}

// New builds the service on store.
func New(store Store, opt Options) *Service {
	opt.Now, opt.Logger = command.Clock(opt.Now), command.Log(opt.Logger)
	return &Service{store: store, opt: opt}
}

// Register adds /init, its settings and its buttons to r.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "init", Aliases: []string{"iniciativa", "initiative", "πρωτοβουλία", "πρωτοβουλια"},
		Handler: command.WithHints(s.handle, command.PrefixHint), Subs: subs})
	r.RegisterOption(command.Option{Key: OptExpr, Default: DefaultExpr, Check: CheckExpr})
	r.RegisterOption(command.Option{Key: OptOrder, Values: []string{"alta", "baja"}, Default: "alta"})
	r.HandleAction(ActNext, func(ctx context.Context, req *command.Request, _ reply.Action) (*reply.Reply, error) {
		return s.next(ctx, req)
	})
	r.HandleAction(ActEnd, func(ctx context.Context, req *command.Request, _ reply.Action) (*reply.Reply, error) {
		return s.end(ctx, req)
	})
}

// CheckExpr validates the chat's initiative expression (/ajustes
// iniciativa …): one line of at most MaxExpr characters. Whether it rolls
// is seen when a player joins (it may name sheet values).
func CheckExpr(v string) (string, error) {
	v = strings.Join(strings.Fields(v), "")
	if v == "" || utf8.RuneCountInString(v) > MaxExpr || fold.Clean(v) != v {
		return "", command.Errorf("init.err.expr", "max", MaxExpr)
	}
	return v, nil
}

// Sub-commands, by folded spelling in es, el and en.
const (
	subAdd       = "add"
	subNext      = "next"
	subRemove    = "remove"
	subMove      = "move"
	subEnd       = "end"
	subUndo      = "undo"
	subShow      = "show"
	subHP        = "hp"
	subCondition = "condition"
)

// subs are /init's sub-commands in es, el and en; a first word that is
// none of them is the sender's own roll or value.
var subs = command.NewSubs(
	command.Sub{Name: subAdd, Words: map[string][]string{"es": {"añadir"}, "el": {"προσθήκη", "πρόσθεσε"}, "en": {"add"}}},
	command.Sub{Name: subNext, Words: map[string][]string{"es": {"siguiente", "sig"}, "el": {"επόμενος", "επόμενη"}, "en": {"next"}}},
	command.Sub{Name: subRemove, Words: map[string][]string{"es": {"quitar"}, "el": {"αφαίρεση", "αφαίρεσε"}, "en": {"remove"}}},
	command.Sub{Name: subMove, Words: map[string][]string{"es": {"mover"}, "el": {"μετακίνηση"}, "en": {"move"}}},
	command.Sub{Name: subEnd, Words: map[string][]string{"es": {"fin", "terminar"}, "el": {"τέλος"}, "en": {"end"}}},
	command.Sub{Name: subUndo, Words: map[string][]string{"es": {"deshacer"}, "el": {"αναίρεση"}, "en": {"undo"}}},
	command.Sub{Name: subShow, Words: map[string][]string{"es": {"ver", "lista"}, "el": {"δείξε", "λίστα"}, "en": {"show", "list"}}},
	command.Sub{Name: subHP, Words: map[string][]string{"es": {"pv"}, "el": {"ζωή"}, "en": {"hp"}}},
	command.Sub{Name: subCondition, Words: map[string][]string{"es": {"estado"}, "el": {"κατάσταση"}, "en": {"condition"}}},
)

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	words, _, ok := command.Words(req.Args)
	if !ok {
		return nil, command.Errorf("init.err.quote")
	}
	if len(words) == 0 {
		return s.join(ctx, req, "")
	}
	sub, isSub := subs.Lookup(words[0])
	if !isSub {
		if len(words) > 1 {
			return nil, command.Errorf("init.usage")
		}
		return s.join(ctx, req, words[0])
	}
	rest := words[1:]
	switch sub {
	case subAdd:
		return s.add(ctx, req, rest)
	case subNext:
		return s.next(ctx, req)
	case subRemove:
		return s.remove(ctx, req, rest)
	case subMove:
		return s.move(ctx, req, rest)
	case subEnd:
		return s.end(ctx, req)
	case subUndo:
		return s.undo(ctx, req)
	case subHP:
		return s.hp(ctx, req, rest)
	case subCondition:
		return s.condition(ctx, req, rest)
	default:
		o, err := s.store.Initiative(ctx, req.Msg.Chat)
		if errors.Is(err, ErrNone) || err == nil && !o.Open {
			return nil, command.Errorf("init.err.none")
		}
		if err != nil {
			return nil, internal("read", err)
		}
		return s.withStatus(ctx, req, o, &reply.Reply{}), nil
	}
}

func internal(op string, err error) error { return fmt.Errorf("initiative %s: %w", op, err) }

// roll gives the total of expr rolled as the sender (their sheet's values
// count), through /roll with the message's dice (--seed, --dice): limits and budget apply. A roll that
// fails gives its error reply.
func (s *Service) roll(ctx context.Context, req *command.Request, expr string) (int, *reply.Reply, *reply.Reply) {
	if n, err := strconv.Atoi(expr); err == nil {
		if n < -999 || n > 999 {
			return 0, nil, nil
		}
		return n, nil, nil
	}
	rep, ok := req.RedispatchRoll(ctx, "/roll "+expr)
	if !ok || rep == nil {
		return 0, nil, reply.Text(req.TP("init.err.roll", "expr", expr))
	}
	if rep.Error {
		return 0, nil, rep
	}
	if rep.Check == nil || rep.Check.Total == nil {
		return 0, nil, reply.Text(req.TP("init.err.roll", "expr", expr))
	}
	return *rep.Check.Total, rep, nil
}

// checkName validates a combatant's name.
func checkName(name string) error {
	n := utf8.RuneCountInString(name)
	if n > MaxName {
		return command.Errorf("init.err.name_long", "max", MaxName, "got", n)
	}
	if n == 0 || fold.Key(name) == "" || fold.Clean(name) != name {
		return command.Errorf("init.err.name_bad", "name", name)
	}
	if _, sub := subs.Lookup(name); sub {
		return command.Errorf("init.err.name_reserved", "name", name)
	}
	return nil
}

// join puts the sender (their active character, else their name) in the
// order: typed "" rolls the chat's initiative, a number is the value, any
// other text is the roll.
func (s *Service) join(ctx context.Context, req *command.Request, typed string) (*reply.Reply, error) {
	name, isChar := "", false
	if s.opt.ActiveName != nil {
		n, err := s.opt.ActiveName(ctx, req.Msg.Chat, req.Msg.From.ID)
		if err != nil {
			return nil, internal("active name", err)
		}
		name, isChar = n, n != ""
	}
	if name == "" {
		name = fold.Cut(fold.UserName(req.Msg.From.Name), MaxName)
	}
	if name == "" {
		name = fold.Cut(fold.Clean(req.Msg.From.ID), MaxName)
	}
	expr := typed
	if expr == "" {
		expr = req.Option(OptExpr)
		if expr == "" {
			expr = DefaultExpr
		}
	}
	if n, err := strconv.Atoi(expr); err == nil && (n < -999 || n > 999) {
		return nil, command.Errorf("init.err.value", "got", fold.Cut(expr, 12))
	}
	total, rolled, bad := s.roll(ctx, req, expr)
	if bad != nil {
		return bad, nil
	}
	c := Combatant{Name: name, Key: fold.Key(name), Owner: req.Msg.From.ID, OwnerName: fold.UserName(req.Msg.From.Name),
		Character: isChar, Init: total}
	o, err := s.put(ctx, req, c, false)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	if rolled != nil {
		rep.Lines = append(rep.Lines, rolled.Lines...)
		rep.Check = rolled.Check
	}
	rep.Add(reply.T(req.T("init.joined", "name", fold.Clean(name), "init", total)))
	return s.withStatus(ctx, req, o, rep), nil
}

// put adds c to the chat's order (opening one when there is none or it
// ended), or, when a combatant with its key is there already and belongs
// to the same owner (or gm), gives it the new initiative.
func (s *Service) put(ctx context.Context, req *command.Request, c Combatant, gm bool) (Order, error) {
	asc := req.Option(OptOrder) == "baja"
	return s.edit(ctx, req, func(o *Order, ok bool) error {
		if !ok || !o.Open {
			*o = Order{Open: true, Started: s.opt.Now()}
		}
		o.Ascending = asc
		if i := o.Index(c.Key); i >= 0 {
			old := o.Combatants[i]
			if old.Owner != c.Owner && !(gm && old.Owner == "") {
				return command.Errorf("init.err.taken", "name", fold.Clean(old.Name))
			}
			old.Init = c.Init
			if c.HP != nil {
				old.HP, old.MaxHP = c.HP, c.MaxHP
			}
			o.Combatants[i] = old
		} else {
			if len(o.Combatants) >= MaxCombatants {
				return command.Errorf("init.err.full", "max", MaxCombatants)
			}
			c.Seq = o.NextSeq
			o.NextSeq++
			o.Combatants = append(o.Combatants, c)
		}
		o.Sort()
		return nil
	})
}

// edit runs fn in the store's transaction; store failures are wrapped.
func (s *Service) edit(ctx context.Context, req *command.Request, fn func(o *Order, ok bool) error) (Order, error) {
	o, err := s.store.EditInitiative(ctx, req.Msg.Chat, fn)
	if err != nil {
		if _, ok := command.AsUserError(err); ok {
			return Order{}, err
		}
		return Order{}, internal("edit", err)
	}
	return o, nil
}

// open edits the chat's open order; none is init.err.none.
func (s *Service) open(ctx context.Context, req *command.Request, fn func(o *Order) error) (Order, error) {
	return s.edit(ctx, req, func(o *Order, ok bool) error {
		if !ok || !o.Open {
			return command.Errorf("init.err.none")
		}
		return fn(o)
	})
}

func gmOnly(req *command.Request, what string) error {
	if req.IsGM {
		return nil
	}
	return command.Errorf("init.err.gm_only", "what", req.T("init.what."+what))
}

// add is /init añadir NAME [ROLL|VALUE] [pv N]: the GM adds an NPC.
func (s *Service) add(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if err := gmOnly(req, "add"); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, command.Errorf("init.add_usage")
	}
	name := fold.StripAt(args[0])
	if err := checkName(name); err != nil {
		return nil, err
	}
	args = args[1:]
	var hp *int
	if n := len(args); n >= 2 && subs.Is(args[n-2], subHP) {
		v, err := strconv.Atoi(args[n-1])
		if err != nil || v < 0 || v > MaxHP {
			return nil, command.Errorf("init.err.hp_value", "got", fold.Cut(args[n-1], 12), "max", MaxHP)
		}
		hp = &v
		args = args[:n-2]
	}
	if len(args) > 1 {
		return nil, command.Errorf("init.add_usage")
	}
	expr := req.Option(OptExpr)
	if len(args) == 1 {
		expr = args[0]
	} else if expr == "" {
		expr = DefaultExpr
	}
	if n, err := strconv.Atoi(expr); err == nil && (n < -999 || n > 999) {
		return nil, command.Errorf("init.err.value", "got", fold.Cut(expr, 12))
	}
	total, rolled, bad := s.roll(ctx, req, expr)
	if bad != nil {
		return bad, nil
	}
	c := Combatant{Name: name, Key: fold.Key(name), Init: total}
	if hp != nil {
		m := *hp
		c.HP, c.MaxHP = hp, &m
	}
	o, err := s.put(ctx, req, c, true)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	if rolled != nil {
		rep.Lines = append(rep.Lines, rolled.Lines...)
		rep.Check = rolled.Check
	}
	rep.Add(reply.T(req.T("init.added", "name", fold.Clean(name), "init", total)))
	return s.withStatus(ctx, req, o, rep), nil
}

// next passes the turn (the GM, or whoever's turn it is): the conditions
// of the one whose turn starts count down, and the reply mentions them.
func (s *Service) next(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	var newRound bool
	var cur, prev Combatant
	var expired []string
	o, err := s.open(ctx, req, func(o *Order) error {
		if len(o.Combatants) == 0 {
			return command.Errorf("init.err.empty")
		}
		if i := o.Index(o.Current); i >= 0 && !req.IsGM && o.Combatants[i].Owner != req.Msg.From.ID {
			return command.Errorf("init.err.not_your_turn", "name", fold.Clean(o.Combatants[i].Name))
		}
		if o.Current == "" && !req.IsGM {
			return gmOnly(req, "start")
		}
		// The turn that ends counts down its combatant's conditions: a
		// condition of 1 round lasts until the end of their next turn.
		expired, prev = nil, Combatant{}
		if i := o.Index(o.Current); i >= 0 && o.Round > 0 {
			c := &o.Combatants[i]
			kept := c.Conditions[:0:0]
			for _, k := range c.Conditions {
				if k.Rounds > 0 {
					if k.Rounds--; k.Rounds == 0 {
						expired = append(expired, k.Name)
						continue
					}
				}
				kept = append(kept, k)
			}
			c.Conditions = kept
			prev = *c
		}
		newRound = o.Advance()
		cur = o.Combatants[o.Index(o.Current)]
		return nil
	})
	if err != nil {
		return nil, err
	}
	if prev.Character && s.opt.Fighters != nil {
		ex, err := s.opt.Fighters.TickConditions(ctx, req.Msg.Chat, prev.Name)
		if err != nil {
			s.opt.Logger.ErrorContext(ctx, "tick conditions", "chat", req.Msg.Chat.String(), "err", err)
		}
		expired = append(expired, ex...)
	}
	rep := &reply.Reply{}
	for _, e := range expired {
		rep.Add(reply.I(req.T("init.expired", "name", fold.Clean(prev.Name), "condition", fold.Clean(e))))
	}
	if newRound {
		rep.Add(reply.B(req.T("init.round", "round", o.Round)))
	}
	who := fold.Clean(cur.Name)
	if cur.Owner != "" {
		user := fold.Clean(cur.OwnerName)
		if user == "" {
			user = fold.Clean(cur.Owner)
		}
		rep.Add(reply.T("▶ "), reply.B(who), reply.T(" — "+req.T("init.your_turn", "user", user)))
		rep.Mention = []string{cur.Owner}
	} else {
		rep.Add(reply.T("▶ "), reply.B(who), reply.T(" — "+req.T("init.npc_turn")))
	}
	return s.withStatus(ctx, req, o, rep), nil
}

// findKey resolves a typed name to a combatant's key, with a suggestion.
func findKey(o *Order, typed string) (string, error) {
	k := fold.Key(fold.StripAt(typed))
	if o.Index(k) >= 0 {
		return k, nil
	}
	names := make([]string, len(o.Combatants))
	for i, c := range o.Combatants {
		names[i] = c.Name
	}
	if sug := fold.Closest(typed, names, 1); len(sug) > 0 {
		return "", command.Errorf("init.err.unknown_suggest", "name", fold.Cut(typed, 40), "suggestion", sug[0])
	}
	return "", command.Errorf("init.err.unknown", "name", fold.Cut(typed, 40))
}

// remove is /init quitar NAME: the GM, or a player taking themselves out.
func (s *Service) remove(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if len(args) != 1 {
		return nil, command.Errorf("init.remove_usage")
	}
	var gone Combatant
	o, err := s.open(ctx, req, func(o *Order) error {
		k, err := findKey(o, args[0])
		if err != nil {
			return err
		}
		if c := o.Combatants[o.Index(k)]; !req.IsGM && c.Owner != req.Msg.From.ID {
			return gmOnly(req, "remove")
		}
		gone, _ = o.Remove(k)
		if o.Round > 0 {
			o.Fallen = append(o.Fallen, gone.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := reply.Text(req.T("init.removed", "name", fold.Clean(gone.Name)))
	return s.withStatus(ctx, req, o, rep), nil
}

// move is /init mover NAME POS (GM).
func (s *Service) move(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if err := gmOnly(req, "move"); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, command.Errorf("init.move_usage")
	}
	pos, err := strconv.Atoi(args[1])
	if err != nil || pos < 1 || pos > MaxCombatants {
		return nil, command.Errorf("init.move_usage")
	}
	var name string
	o, err := s.open(ctx, req, func(o *Order) error {
		k, err := findKey(o, args[0])
		if err != nil {
			return err
		}
		name = o.Combatants[o.Index(k)].Name
		o.Move(k, pos)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := reply.Text(req.T("init.moved", "name", fold.Clean(name), "pos", o.Index(fold.Key(name))+1))
	return s.withStatus(ctx, req, o, rep), nil
}

// end is /init fin (GM): the order is closed with a one-line summary, and
// kept for UndoFor so /init deshacer can reopen it.
func (s *Service) end(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if err := gmOnly(req, "end"); err != nil {
		return nil, err
	}
	o, err := s.open(ctx, req, func(o *Order) error {
		o.Open = false
		o.Ended = s.opt.Now()
		return nil
	})
	if err != nil {
		return nil, err
	}
	fallen := req.T("init.nobody")
	if names := s.fallen(ctx, req, o); len(names) > 0 {
		fallen = strings.Join(names, ", ")
	}
	rep := reply.Text(req.TP("init.ended", "rounds", o.Round, "count", len(o.Combatants), "fallen", fallen,
		"minutes", int(UndoFor/time.Minute)))
	rep.Status = &reply.Reply{Slot: reply.SlotInitiative, Lines: []reply.Line{{reply.I(req.T("init.status_ended", "rounds", o.Round))}}}
	rep.Data = map[string]any{"initiative": dataOf(o)}
	return rep, nil
}

// fallen names who fell in the fight: those removed or brought to 0 hit
// points while it ran, and those at 0 now (a character's on the sheet).
func (s *Service) fallen(ctx context.Context, req *command.Request, o Order) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if k := fold.Key(name); !seen[k] {
			seen[k] = true
			out = append(out, fold.Clean(name))
		}
	}
	for _, f := range o.Fallen {
		add(f)
	}
	for _, c := range o.Combatants {
		hp := c.HP
		if c.Character && s.opt.Fighters != nil {
			if v, ok, err := s.opt.Fighters.Vitals(ctx, req.Msg.Chat, c.Name); err == nil && ok {
				hp = v.HP
			}
		}
		if hp != nil && *hp <= 0 {
			add(c.Name)
		}
	}
	return out
}

// undo reopens the turn order ended less than UndoFor ago (GM).
func (s *Service) undo(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if err := gmOnly(req, "undo"); err != nil {
		return nil, err
	}
	o, err := s.edit(ctx, req, func(o *Order, ok bool) error {
		if !ok || o.Open || !core.Undoable(o.Ended, s.opt.Now()) {
			return command.Errorf("init.err.no_undo", "minutes", int(UndoFor/time.Minute))
		}
		o.Open = true
		o.Ended = time.Time{}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.withStatus(ctx, req, o, reply.Text(req.T("init.reopened"))), nil
}

// parseDelta reads "+5", "-3", "=12" or "12" (a set).
func parseDelta(s string) (n int, set bool, ok bool) {
	switch {
	case strings.HasPrefix(s, "+"), strings.HasPrefix(s, "-"):
		v, err := strconv.Atoi(s)
		return v, false, err == nil && v >= -MaxHP && v <= MaxHP
	default:
		v, err := strconv.Atoi(strings.TrimPrefix(s, "="))
		return v, true, err == nil && v >= 0 && v <= MaxHP
	}
}

// hp is /init pv NAME ±N (GM): an NPC's hit points, clamped to 0..max.
func (s *Service) hp(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if err := gmOnly(req, "hp"); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, command.Errorf("init.hp_usage")
	}
	d, set, ok := parseDelta(args[1])
	if !ok {
		return nil, command.Errorf("init.err.hp_value", "got", fold.Cut(args[1], 12), "max", MaxHP)
	}
	var before, after, maxHP int
	var name string
	o, err := s.open(ctx, req, func(o *Order) error {
		k, err := findKey(o, args[0])
		if err != nil {
			return err
		}
		c := &o.Combatants[o.Index(k)]
		name = c.Name
		if c.Character {
			return command.Errorf("init.err.hp_on_sheet", "name", fold.Clean(c.Name))
		}
		if c.HP == nil {
			if !set {
				return command.Errorf("init.err.no_hp", "name", fold.Clean(c.Name))
			}
			m := d
			c.HP, c.MaxHP = new(int), &m
		}
		before, maxHP = *c.HP, *c.MaxHP
		if set {
			after = d
			if d > maxHP {
				maxHP = d
			}
		} else {
			after = min(max(before+d, 0), maxHP)
		}
		*c.HP, *c.MaxHP = after, maxHP
		if after == 0 && before > 0 {
			o.Fallen = append(o.Fallen, c.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// An NPC's hit points are the GM's: the exact numbers go privately to
	// the GMs (Reply.Secret), the table sees whether it was hurt or fell.
	public := "init.hp_hurt"
	switch {
	case after == 0:
		public = "init.hp_down"
	case after >= before:
		public = "init.hp_healed"
	}
	rep := reply.Text(req.T(public, "name", fold.Clean(name)))
	rep.Secret = reply.Text(req.T("init.hp", "name", fold.Clean(name), "old", before, "new", after, "max", maxHP))
	rep.SecretTo = req.NamedGMs(ctx)
	return s.withStatus(ctx, req, o, rep), nil
}

// condition is /init estado NAME +aturdido [2] | -aturdido (GM): an NPC's
// conditions.
func (s *Service) condition(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if err := gmOnly(req, "condition"); err != nil {
		return nil, err
	}
	if len(args) < 2 || len(args) > 3 {
		return nil, command.Errorf("init.condition_usage")
	}
	cond, err := ParseCondition(args[1:])
	if err != nil {
		return nil, err
	}
	var name string
	o, err := s.open(ctx, req, func(o *Order) error {
		k, err := findKey(o, args[0])
		if err != nil {
			return err
		}
		c := &o.Combatants[o.Index(k)]
		name = c.Name
		if c.Character {
			return command.Errorf("init.err.condition_on_sheet", "name", fold.Clean(c.Name))
		}
		c.Conditions, err = cond.Apply(c.Conditions)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.withStatus(ctx, req, o, reply.Text(cond.Said(req, name))), nil
}
