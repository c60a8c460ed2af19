package command

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/fold"
	"zaria/core/reply"
)

// ActionHandler resolves a pressed button of a kind a package registered
// with HandleAction (core/pad: reply.ActRun). req is the presser's: their
// chat, language, GM status and budget, already admitted by the rate limit.
type ActionHandler func(ctx context.Context, req *Request, a reply.Action) (*reply.Reply, error)

// HandleAction registers the handler of an action kind. A kind registered
// twice, or one the router resolves itself (again, odds), panics.
func (r *Router) HandleAction(kind reply.ActionKind, h ActionHandler) {
	if kind == reply.ActAgain || kind == reply.ActOdds || kind == reply.ActGone || kind == "" {
		panic("command: action kind resolved by the router: " + string(kind))
	}
	if r.actions == nil {
		r.actions = map[reply.ActionKind]ActionHandler{}
	}
	if _, dup := r.actions[kind]; dup {
		panic("command: action registered twice: " + string(kind))
	}
	r.actions[kind] = h
}

// Press resolves a pressed button. msg says who pressed and where (its
// Text is ignored); a is the button's Action as the reply carried it.
//
//   - reply.ActAgain runs a.Command as the presser, exactly as if they had
//     typed it: limits, rate limit, history.
//   - reply.ActOdds shows the odds and the distribution of a.Command with
//     a.Actual marked: nothing is rolled and nothing is logged. It counts
//     against the presser's rate limit.
//   - reply.ActGone (a button the adapter can no longer resolve) says
//     that it no longer works, in the chat's language: a notice, for the
//     presser alone where the platform can (a toast).
//   - reply.ActRun (a pad button) is resolved by core/pad, which runs the
//     stored command through the same path as a typed one.
//   - any other kind goes to its HandleAction handler; the Observers see
//     its answer (the session's log), unless it is a pop-up for the
//     presser alone (reply.Reply.Alert: a blind roll's 🙈 GM) or the
//     handler recorded it itself as the command it stands for
//     (Request.Record: a damage applied). A refused press (an error) is
//     seen by no observer.
//
// ok is false when there is nothing to answer (an unknown kind, a flood
// already warned); the adapter then shows nothing.
func (r *Router) Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool) {
	switch a.Kind {
	case reply.ActAgain:
		if strings.TrimSpace(a.Command) == "" {
			return nil, false
		}
		msg.Text = a.Command
		return r.Dispatch(ctx, msg)
	case reply.ActOdds:
		return r.pressOdds(ctx, msg, a)
	case reply.ActGone:
		lang := r.Lang(ctx, msg.Chat, msg.LangHint)
		rep := reply.Text(r.Text(lang, "press.gone"))
		rep.Lang = lang
		return rep, true
	}
	h, ok := r.actions[a.Kind]
	if !ok {
		return nil, false
	}
	req, rep, ok := r.pressRequest(ctx, msg)
	if req == nil {
		return rep, ok
	}
	start := time.Now()
	rep, err := h(ctx, req, a)
	if err != nil {
		return r.errorReply(req, err), true
	}
	if rep == nil {
		return nil, false
	}
	if !rep.Alert && a.Kind != reply.ActRun && a.Kind != reply.ActAsk && !req.recorded {
		// What a press did in the chat (the turn order's ▶ and ⏹) is
		// seen like a typed command: the session's log has it. A pad's
		// press is seen as the command it runs (Request.Run), if any, and
		// a request for a roll's as the roll it made (Request.RunAs).
		req.Name = "button_" + string(a.Kind)
		for _, o := range r.cfg.Observers {
			o.Observe(ctx, req, rep, time.Since(start))
		}
	}
	stampLang(rep, req.Lang)
	return rep, true
}

// pressRequest builds the request of a press and charges it to the
// presser's rate limit. A nil request comes with what to answer instead.
func (r *Router) pressRequest(ctx context.Context, msg core.Message) (*Request, *reply.Reply, bool) {
	msg.From.Name = fold.Clean(msg.From.Name)
	msg.Text = ""
	settings, err := r.cfg.Settings.Settings(ctx, msg.Chat)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "load settings", "chat", msg.Chat.String(), "err", err)
		settings = core.Settings{}
	}
	lang := r.resolveLang(ctx, msg, &settings)
	req := &Request{Msg: msg, Prefix: cmp.Or(msg.Prefix, "/"), Lang: lang, Settings: settings,
		Budget: NewBudget(r.cfg.Limits.MaxWork), router: r}
	if !r.unlimited(msg.Chat.Platform) && !r.limiter.allow(msg.Chat.String()+"|"+msg.From.ID, r.cfg.Now()) {
		if r.limiter.warnOnce(msg.Chat.String()+"|"+msg.From.ID, r.cfg.Now()) {
			return nil, r.errorReply(req, Errorf("error.rate_limited", "seconds", int(r.cfg.Limits.Refill/time.Second))), true
		}
		return nil, nil, false
	}
	req.IsGM = r.isGM(ctx, msg)
	return req, nil, true
}

func (r *Router) isGM(ctx context.Context, msg core.Message) bool {
	if msg.FromGM || msg.Private {
		return true
	}
	if r.cfg.GMs == nil {
		return false
	}
	gm, err := r.cfg.GMs.IsGM(ctx, msg.Chat, msg.From.ID)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "gm lookup", "chat", msg.Chat.String(), "err", err)
	}
	return gm
}

// pressOdds answers an odds button: the command's Odds handler on the
// original command, with the original result marked (for a command
// without one, that it has no odds to show), and the odds the button
// carries (those of the roll it is under) in one line, Reply.OddsLine.
// Nothing is rolled (the request's dice source is nil) and no observer
// sees it.
func (r *Router) pressOdds(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool) {
	req, rep, ok := r.pressRequest(ctx, msg)
	if req == nil {
		return rep, ok
	}
	line := ""
	if a.Odds != nil {
		line = r.oddsText(req.Lang, a.Odds)
	}
	p, ok := Parse(a.Command, "", "")
	var cmd *Command
	if ok {
		cmd = r.byAlias[fold.Key(p.Name)]
	}
	if cmd == nil || cmd.Odds == nil {
		rep := r.errorReply(req, Errorf("error.no_odds"))
		rep.OddsLine = line
		return rep, true
	}
	req.Name, req.Alias, req.Args, req.Prefix = cmd.Name, p.Name, p.Args, p.Prefix
	req.Actual = a.Actual
	rep, err := r.run(ctx, &Command{Name: cmd.Name, Handler: cmd.Odds}, req)
	if err != nil {
		rep = r.errorReply(req, err)
	} else if rep == nil {
		rep = &reply.Reply{}
	}
	r.enforceOutput(req, rep)
	rep.OddsLine = line
	stampLang(rep, req.Lang)
	return rep, true
}

// Run runs text as a command on behalf of the request's sender, exactly
// as a typed message that was already admitted by the rate limit: the
// input limit, the budget and the observers (history) apply. Pad buttons
// use it. ok=false when text is not a command.
func (req *Request) Run(ctx context.Context, text string) (*reply.Reply, bool) {
	r := req.router
	p, ok := req.Parse(text)
	if !ok {
		return nil, false
	}
	m := req.Msg
	m.Text = text
	sub := &Request{Msg: m, Prefix: p.Prefix, Alias: p.Name, Args: p.Args, Lang: req.Lang, Settings: req.Settings,
		Depth: req.Depth, Budget: req.Budget, chain: req.chain, router: r, IsGM: req.IsGM, gmKnown: true, as: req.as}
	if n := utf8.RuneCountInString(text); n > r.cfg.Limits.MaxInput {
		return r.errorReply(sub, Errorf("error.input_too_long", "max", r.cfg.Limits.MaxInput, "got", n)), true
	}
	return r.exec(ctx, sub, p, nil)
}

// RedispatchAs is Redispatch for the character named character, whose
// sheet a read without a name reads (as in RunAs), as the same sender:
// /pedir's chances, the /odds of its check for each character. Nothing
// observes it.
func (req *Request) RedispatchAs(ctx context.Context, text, character string) (*reply.Reply, bool) {
	sub := *req
	sub.as = character
	return sub.redispatch(ctx, text, nil, req.chain)
}

// RunAs runs text as a command typed in the request's chat by owner, for
// the character named character: a sheet read that names no character
// reads it ("1d20+percepción" is Lyra's percepción), and one that names
// it ("@Lyra") reads the same. It is a typed command in all but its
// sender: the input limit, the budget, the owner's GM status (looked up),
// the history and the session's log (the observers) apply, and the
// secret and blind rolls' rules, as when owner types it. The dice are the
// request's (the CLI's --dice), else fresh ones. A request for a roll
// (core/ask) runs each character's check so. ok=false when text is not
// a command.
func (req *Request) RunAs(ctx context.Context, text string, owner core.User, character string) (*reply.Reply, bool) {
	r := req.router
	p, ok := req.Parse(text)
	if !ok {
		return nil, false
	}
	m := req.Msg
	if owner.ID != m.From.ID {
		m.FromGM = false // the platform said so of the presser, not of the owner
	}
	m.Text, m.From = text, owner
	sub := &Request{Msg: m, Prefix: p.Prefix, Alias: p.Name, Args: p.Args, Lang: req.Lang, Settings: req.Settings,
		Depth: req.Depth, Budget: req.Budget, router: r, as: character}
	if n := utf8.RuneCountInString(text); n > r.cfg.Limits.MaxInput {
		return r.errorReply(sub, Errorf("error.input_too_long", "max", r.cfg.Limits.MaxInput, "got", n)), true
	}
	return r.exec(ctx, sub, p, req.Rand)
}

// Knows reports whether text runs something: a registered command or one
// of the sender's (or the chat's) saved rolls. A saved roll that cannot
// expand as written (it needs a value text lacks) gives its user error.
func (req *Request) Knows(ctx context.Context, text string) (bool, error) {
	r := req.router
	p, ok := req.Parse(text)
	if !ok {
		return false, nil
	}
	if _, ok := r.byAlias[fold.Key(p.Name)]; ok {
		return true, nil
	}
	if r.cfg.Aliases == nil {
		return false, nil
	}
	_, ok, err := r.cfg.Aliases.ExpandAlias(ctx, req.Msg.Chat, req.Msg.From.ID, p.Name, p.Args, r.cfg.Limits.MaxExpansion)
	return ok && err == nil, err
}

// TakesFile reports whether text starts a command whose input is an
// attached file (Command.TakesFile): "/importar", "/import@ZariaBot",
// "!εισαγωγή". Adapters read a document only for such a command.
func (r *Router) TakesFile(text string) bool {
	text = strings.TrimSpace(text)
	if text == "" || (text[0] != '/' && text[0] != '!') {
		return false
	}
	word, _, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexAny(word, "\n\t@"); i >= 0 {
		word = word[:i]
	}
	c, ok := r.byAlias[fold.Key(word)]
	return ok && c.TakesFile
}

// fillActions gives the again and odds buttons of a roll's reply their
// meaning: the command that produced it and, for the odds, its total and
// its odds (none known, when the roll has no Check: the line then says so).
func fillActions(rep *reply.Reply) {
	if rep.Command == "" {
		return
	}
	for i := range rep.Buttons {
		b := &rep.Buttons[i]
		if b.Action != nil {
			continue
		}
		switch b.Kind {
		case reply.ButtonAgain:
			b.Action = &reply.Action{Kind: reply.ActAgain, Command: rep.Command}
		case reply.ButtonOdds:
			a := &reply.Action{Kind: reply.ActOdds, Command: rep.Command, Odds: &reply.RollOdds{}}
			if c := rep.Check; c != nil {
				a.Odds = &reply.RollOdds{Chance: c.Chance, Exact: c.ChanceExact, Mean: c.Mean, Approx: c.Approx}
				if c.Total != nil {
					t := int64(*c.Total)
					a.Actual = &t
				}
			}
			b.Action = a
		}
	}
}

// SetOdds gives the registered command name its Odds handler (what its
// 📊 button shows), for a package that draws the odds of another's
// command. Like Register it panics, at start-up, on a name no command has
// and on a command that has an Odds handler already: a 📊 button is never
// lost, nor replaced, silently.
func (r *Router) SetOdds(name string, h Handler) {
	cmd, ok := r.byAlias[fold.Key(name)]
	switch {
	case !ok:
		panic(fmt.Sprintf("command: odds for %q, which is no command (register it first)", name))
	case cmd.Odds != nil:
		panic(fmt.Sprintf("command: odds for %q set twice", name))
	}
	cmd.Odds = h
}

// Record hands rep to the router's observers (the roll history, the
// session log) as the answer of req, with text as what was done ("/pj
// @Drake pv -3"): an action handler whose press changes the table (a
// damage applied) records it as a typed command would be.
func (req *Request) Record(ctx context.Context, text string, rep *reply.Reply) {
	if req.Depth > 0 || rep == nil {
		return
	}
	req.recorded = true
	sub := *req
	sub.Msg.Text = text
	for _, o := range req.router.cfg.Observers {
		o.Observe(ctx, &sub, rep, 0)
	}
}
