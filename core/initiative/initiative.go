// Package initiative is /iniciativa (/init, !πρωτοβουλία): the chat's turn
// order, system-neutral.
//
//	/init                      join with your active character, rolling the chat's initiative (/ajustes iniciativa 1d20+destreza; 1d20 by default)
//	/init 2d6+1 · /init 14     join with your own roll, or a value
//	/init añadir Orco 2d6+1    the GM adds a foe; /init añadir "Orco 2" 12 pv 15 with 15 hit points
//	/init siguiente            the next turn: announces whose it is and mentions the player (the fallen are skipped)
//	/init empezar              the GM starts round 1 (needs no character)
//	/init quitar Orco · /init mover Orco 1 · /init fin · /init deshacer
//	/init pv Orco -5 · /init pv Orco -2d6 · /init estado Orco +aturdido 2   an NPC's hit points (a change may be rolled) and conditions (GM)
//
// The order is highest first (lowest first with /ajustes iniciativa_orden
// baja); equal initiatives keep the order of arrival: who joined first acts
// first. Every reply carries the status message (reply.Reply.Status), which
// adapters edit in place (/init ver posts it anew at the bottom); its
// buttons are ▶ next and ⏹ end. A combatant at 0 hit points or fewer (an
// NPC's in the order, a character's on its sheet) has fallen: it keeps its
// place, shown 💀, and its turns are skipped until it is healed or removed.
// What each viewer may see of the order (the status message, a GM's or a
// player's page) is Service.View's one rule (view.go). A
// combatant is a target of an attack by its name (command.Request.Combatant):
// a damage button on an NPC's hit points is reply.ActHit, pressed here.
package initiative

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
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
	r.HandleAction(reply.ActHit, s.pressHit)
	r.HandleCombatants(s.combatant)
}

// combatant finds the combatant typed as name in chat's open turn order
// (command.CombatantFunc).
func (s *Service) combatant(ctx context.Context, chat core.ChatRef, name string) (command.Combatant, bool, error) {
	o, err := s.store.Initiative(ctx, chat)
	if errors.Is(err, ErrNone) {
		return command.Combatant{}, false, nil
	}
	if err != nil {
		return command.Combatant{}, false, internal("read", err)
	}
	i := o.Index(fold.Key(fold.StripAt(name)))
	if !o.Open {
		return command.Combatant{}, false, nil
	}
	if i < 0 {
		names := make([]string, len(o.Combatants))
		for i, c := range o.Combatants {
			names[i] = c.Name
		}
		var c command.Combatant
		if sug := fold.Closest(fold.StripAt(name), names, 1); len(sug) > 0 {
			c.Closest = sug[0]
		}
		return c, false, nil
	}
	c := o.Combatants[i]
	return command.Combatant{Name: c.Name, Character: c.Character, HP: !c.Character && c.HP != nil}, true, nil
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
	subStart     = "start"
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
	command.Sub{Name: subStart, Words: map[string][]string{"es": {"empezar", "comenzar"}, "el": {"έναρξη", "ξεκίνα", "ξεκίνημα"}, "en": {"start", "begin"}}},
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
	case subStart:
		return s.start(ctx, req)
	default:
		o, err := s.store.Initiative(ctx, req.Msg.Chat)
		if errors.Is(err, ErrNone) || err == nil && !o.Open {
			return nil, command.Errorf("init.err.none")
		}
		if err != nil {
			return nil, internal("read", err)
		}
		// Shown again at the bottom of the chat, where the player
		// looks: the new message is the live one (reply.Reply.Post).
		rep := s.withStatus(ctx, req, o, &reply.Reply{})
		rep.Status.Post = true
		return rep, nil
	}
}

// start is /init empezar (GM): round 1 begins, as the first /init
// siguiente would; a fight under way is told so.
func (s *Service) start(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if err := gmOnly(req, "start"); err != nil {
		return nil, err
	}
	o, err := s.store.Initiative(ctx, req.Msg.Chat)
	switch {
	case errors.Is(err, ErrNone) || err == nil && !o.Open:
		return nil, command.Errorf("init.err.none")
	case err != nil:
		return nil, internal("read", err)
	case o.Round > 0:
		return nil, command.Errorf("init.err.started", "round", o.Round)
	}
	return s.next(ctx, req)
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
	return s.placed(ctx, req, c, false, rolled, "init.joined")
}

// placed puts c in the order (by the GM: gm) and answers with the roll
// that gave its initiative (nil when typed), the line of key
// ("init.joined", "init.added") and the order's status.
func (s *Service) placed(ctx context.Context, req *command.Request, c Combatant, gm bool, rolled *reply.Reply, key string) (*reply.Reply, error) {
	o, err := s.put(ctx, req, c, gm)
	if err != nil {
		return nil, err
	}
	rep := &reply.Reply{}
	if rolled != nil {
		rep.Lines = append(rep.Lines, rolled.Lines...)
		rep.Check = rolled.Check
	}
	rep.Add(reply.T(req.T(key, "name", fold.Clean(c.Name), "init", c.Init)))
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
	return s.placed(ctx, req, c, true, rolled, "init.added")
}

// next passes the turn (the GM, or whoever's turn it is): the conditions
// of the one whose turn starts count down, and the reply mentions them.
func (s *Service) next(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	var newRound bool
	var cur, prev Combatant
	var expired []string
	down := s.downFunc(ctx, req)
	o, err := s.open(ctx, req, func(o *Order) error {
		if len(o.Combatants) == 0 {
			return command.Errorf("init.err.empty")
		}
		if !canNext(*o, Viewer{User: req.Msg.From.ID, GM: req.IsGM}) {
			if i := o.Index(o.Current); i >= 0 {
				return command.Errorf("init.err.not_your_turn", "name", fold.Clean(o.Combatants[i].Name))
			}
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
		newRound = o.AdvanceSkipping(down)
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
	announce(req, rep, o, cur, newRound)
	return s.withStatus(ctx, req, o, rep), nil
}

// announce adds to rep whose turn it is now (cur), after the new round's
// line when one began, and mentions its player.
func announce(req *command.Request, rep *reply.Reply, o Order, cur Combatant, newRound bool) {
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
}

// downFunc reports the combatants of the chat's order that have fallen
// (fallen): an NPC by its hit points in the order, a character by its
// sheet's (read now, before the order's write transaction).
func (s *Service) downFunc(ctx context.Context, req *command.Request) func(c Combatant) bool {
	chars := map[string]bool{}
	if o, err := s.store.Initiative(ctx, req.Msg.Chat); err == nil {
		for _, c := range o.Combatants {
			if !c.Character {
				continue
			}
			v, err := s.vitals(ctx, req.Msg.Chat, c)
			if err != nil {
				s.opt.Logger.ErrorContext(ctx, "vitals", "chat", req.Msg.Chat.String(), "err", err)
			}
			chars[c.Key] = fallen(v)
		}
	}
	return func(c Combatant) bool {
		if c.Character {
			return chars[c.Key]
		}
		return fallen(Vitals{HP: c.HP})
	}
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
	var passed, newRound bool
	down := s.downFunc(ctx, req)
	o, err := s.open(ctx, req, func(o *Order) error {
		k, err := findKey(o, args[0])
		if err != nil {
			return err
		}
		if c := o.Combatants[o.Index(k)]; !req.IsGM && c.Owner != req.Msg.From.ID {
			return gmOnly(req, "remove")
		}
		round := o.Round
		passed = o.Current == k && o.Round > 0
		gone, _ = o.Remove(k)
		newRound = o.Round > round
		if passed && len(o.Combatants) > 0 {
			newRound = o.SkipFallen(down) || newRound
		}
		passed = passed && o.Current != ""
		switch {
		case o.Round == 0:
		case down(gone):
			o.Fallen = append(o.Fallen, gone.Name)
		default:
			o.Left = append(o.Left, gone.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := reply.Text(req.T("init.removed", "name", fold.Clean(gone.Name)))
	if passed {
		// The turn was theirs: whose it is now is told, as /init
		// siguiente tells it.
		announce(req, rep, o, o.Combatants[o.Index(o.Current)], newRound)
	}
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
	fallen, left := s.summary(o, s.downFunc(ctx, req))
	fallenText := req.T("init.nobody")
	if len(fallen) > 0 {
		fallenText = strings.Join(fallen, ", ")
	}
	leftText := ""
	if len(left) > 0 {
		leftText = req.T("init.ended_left", "names", strings.Join(left, ", "))
	}
	rep := reply.Text(req.TP("init.ended", "rounds", o.Round, "count", len(o.Combatants)+len(left)+len(fallen)-fallenIn(o, fallen),
		"fallen", fallenText, "left", leftText, "minutes", int(UndoFor/time.Minute)))
	// The status message keeps the last order, marked ended and without
	// its buttons: the summary above says the rest, once.
	st := s.withStatus(ctx, req, o, &reply.Reply{}).Status
	st.Lines[0] = reply.Line{reply.B("⚔️ " + req.T("init.status_round", "round", o.Round) + " · ⏹")}
	st.Buttons = nil
	rep.Status = st
	d := dataOf(o)
	d.Fallen, d.Left = fallen, left
	rep.Data = map[string]any{"initiative": d}
	return rep, nil
}

// fallenIn counts the names of fallen that are still in the order.
func fallenIn(o Order, fallen []string) int {
	n := 0
	for _, f := range fallen {
		if o.Index(fold.Key(f)) >= 0 {
			n++
		}
	}
	return n
}

// summary names who fell in the fight and who only left it: the fallen
// are those at 0 hit points now (down), and those removed while down;
// those removed standing left. A combatant brought to 0 and healed did
// not fall; one who left and came back is counted where they are now.
func (s *Service) summary(o Order, down func(Combatant) bool) (fallen, left []string) {
	seen := map[string]bool{}
	for _, c := range o.Combatants {
		seen[c.Key] = true
		if down(c) {
			fallen = append(fallen, fold.Clean(c.Name))
		}
	}
	add := func(to *[]string, name string) {
		if k := fold.Key(name); !seen[k] {
			seen[k] = true
			*to = append(*to, fold.Clean(name))
		}
	}
	for _, f := range o.Fallen {
		add(&fallen, f)
	}
	for _, l := range o.Left {
		add(&left, l)
	}
	return fallen, left
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

// diceWord is a rolled change's dice: "2d6", "d8+1".
var diceWord = regexp.MustCompile(`^\d*d\d+([+-]\d+)*$`)

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
	var rolled *reply.Reply
	if sign := args[1][:1]; !ok && (sign == "-" || sign == "+") && diceWord.MatchString(args[1][1:]) {
		// A rolled change, as on a sheet: /init pv Lobo -2d6.
		total, rep, bad := s.roll(ctx, req, args[1][1:])
		if bad != nil {
			return bad, nil
		}
		if rep != nil && total >= 0 && total <= MaxHP {
			d, ok, rolled = total, true, rep
			if sign == "-" {
				d = -total
			}
		}
	}
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
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := hpReply(ctx, req, name, before, after, maxHP)
	if rolled != nil {
		rep.Lines = append(append([]reply.Line(nil), rolled.Lines...), rep.Lines...)
		rep.Check = rolled.Check
	}
	return s.withStatus(ctx, req, o, rep), nil
}

// hpReply tells a change of an NPC's hit points. They are the GM's: the
// exact numbers go privately to the GMs (Reply.Secret), the table sees
// whether it was hurt, fell or recovered.
func hpReply(ctx context.Context, req *command.Request, name string, before, after, maxHP int) *reply.Reply {
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
	return rep
}

// pressHit applies a damage button on a combatant whose hit points the
// order keeps (reply.ActHit): what /init pv NAME -N does, with the same
// rights (a GM, or the combatant's player), once per button.
func (s *Service) pressHit(ctx context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	if !a.Valid() || a.Amount > MaxHP {
		return nil, command.Errorf("init.hit_gone")
	}
	var before, after, maxHP int
	var name string
	o, err := s.open(ctx, req, func(o *Order) error {
		i := o.Index(fold.Key(fold.StripAt(a.Character)))
		if i < 0 {
			return command.Errorf("init.err.unknown", "name", fold.Cut(fold.Clean(a.Character), 40))
		}
		c := &o.Combatants[i]
		name = c.Name
		if slices.Contains(o.Hits, a.Once) {
			return command.Errorf("init.hit_applied", "name", fold.Clean(c.Name), "n", a.Amount)
		}
		if !req.IsGM && (c.Owner == "" || c.Owner != req.Msg.From.ID) {
			return gmOnly(req, "hp")
		}
		if c.Character || c.HP == nil {
			return command.Errorf("init.hit_gone")
		}
		before, maxHP = *c.HP, *c.MaxHP
		after = max(before-a.Amount, 0)
		*c.HP = after
		o.Hits = append(o.Hits, a.Once)
		if n := len(o.Hits); n > MaxHits {
			o.Hits = append(o.Hits[:0:0], o.Hits[n-MaxHits:]...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := hpReply(ctx, req, name, before, after, maxHP)
	// The history keeps rolls: the change goes there as the command it
	// is, with the damage as its total (as a character's damage button).
	n := a.Amount
	pub := *rep
	pub.Secret, pub.SecretTo = nil, nil
	pub.Check = &reply.Check{System: "dh", Dice: []int{}, Total: &n}
	req.Record(ctx, req.TypedPrefix()+"init pv "+quoteName(name)+" -"+strconv.Itoa(a.Amount), &pub)
	return s.withStatus(ctx, req, o, rep), nil
}

// quoteName writes a combatant's name as a command takes it: in quotes
// when it has a space.
func quoteName(name string) string {
	name = fold.Clean(name)
	if strings.ContainsAny(name, " \t") {
		return `"` + name + `"`
	}
	return name
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
