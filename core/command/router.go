package command

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Limits of the router. Zero values take the defaults (README "Limits").
type Limits struct {
	MaxInput  int           // characters per message (500)
	MaxOutput int           // characters per reply (3500)
	Burst     int           // commands a user may send at once (5)
	Refill    time.Duration // then one command per Refill (2 s)
	MaxDepth  int           // saved rolls expanded for one message (3)
	// MaxExpansion is the longest text a saved roll may expand to, in
	// characters (500, what one may type): checked before it is built.
	MaxExpansion int
	// MaxWork is the work one message may cost, in Budget units
	// (1,000,000, about 0.1 s).
	MaxWork int
}

func (l Limits) withDefaults() Limits {
	if l.MaxInput == 0 {
		l.MaxInput = 500
	}
	if l.MaxOutput == 0 {
		l.MaxOutput = 3500
	}
	if l.Burst == 0 {
		l.Burst = 5
	}
	if l.Refill == 0 {
		l.Refill = 2 * time.Second
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = 3
	}
	if l.MaxExpansion == 0 {
		l.MaxExpansion = 500
	}
	if l.MaxWork == 0 {
		l.MaxWork = 1_000_000
	}
	return l
}

// SettingsStore keeps each chat's settings.
type SettingsStore interface {
	Settings(ctx context.Context, chat core.ChatRef) (core.Settings, error)
	// SetLang and SetOption change one thing in one write, so two writers
	// (the bot and the CLI beside it) never undo each other's change.
	SetLang(ctx context.Context, chat core.ChatRef, lang string) error
	SetOption(ctx context.Context, chat core.ChatRef, key, value string) error
}

// GMStore says whether a user was named GM of a chat with /gm add. Optional.
type GMStore interface {
	IsGM(ctx context.Context, chat core.ChatRef, userID string) (bool, error)
}

// AliasExpander turns a user's saved roll (/ataque coraza) into the command
// text it stands for. Optional. The text may not be longer than max
// characters: the expander computes the length first and refuses
// (error.alias_expansion_too_long) without building a longer one.
type AliasExpander interface {
	ExpandAlias(ctx context.Context, chat core.ChatRef, userID, name, args string, max int) (text string, ok bool, err error)
}

// Observer sees every answered command (roll history, metrics). Optional.
type Observer interface {
	Observe(ctx context.Context, req *Request, rep *reply.Reply, took time.Duration)
}

// Config is what a Router is built from.
type Config struct {
	// DefaultLang is the language of a chat whose client language is not
	// one the bot speaks (or not known): one of core.Langs (default
	// core.DefaultLang).
	DefaultLang string
	Translator  Translator
	Settings    SettingsStore
	GMs         GMStore
	Aliases     AliasExpander
	Sheets      Sheets
	// NamedGMs lists the user ids of a chat's GMs named with /gm add (for
	// secret rolls). Optional.
	NamedGMs  func(ctx context.Context, chat core.ChatRef) ([]string, error)
	Observers []Observer
	// NewSource makes the dice source of one command; nil means dice.NewSource.
	NewSource func() dice.Source
	Logger    *slog.Logger
	Limits    Limits
	// Unlimited lists platforms whose users are not rate limited: the local
	// console and the command line, where the only user is the operator.
	Unlimited []string
	Now       func() time.Time
	// TimeZone is the time zone of a chat that set none and speaks no
	// language with a zone of its own (tz.go); nil is UTC.
	TimeZone *time.Location
}

// Router dispatches messages to commands.
type Router struct {
	cfg      Config
	byAlias  map[string]*Command
	commands []*Command
	options  map[string]Option
	optOrder []string
	limiter  *limiter
	actions  map[reply.ActionKind]ActionHandler
	recent   RecentFunc // the roll history's reader (recent.go), nil without one
	// combatants finds a turn order's combatants (combatants.go), nil without one.
	combatants CombatantFunc
}

// New builds a router. Register commands before the first Dispatch.
func New(cfg Config) *Router {
	if cfg.NewSource == nil {
		cfg.NewSource = dice.NewSource
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if !core.IsLang(cfg.DefaultLang) {
		cfg.DefaultLang = core.DefaultLang
	}
	cfg.Limits = cfg.Limits.withDefaults()
	return &Router{
		cfg:     cfg,
		byAlias: map[string]*Command{},
		options: map[string]Option{},
		limiter: newLimiter(cfg.Limits.Burst, cfg.Limits.Refill),
	}
}

// Register adds a command. A name or alias already taken is a programming
// error and panics at start-up, like http.ServeMux.
func (r *Router) Register(c Command) {
	cmd := &c
	for _, name := range append([]string{c.Name}, c.Aliases...) {
		k := fold.Key(name)
		if k == "" || strings.ContainsAny(k, " @/!") {
			panic(fmt.Sprintf("command: bad alias %q", name))
		}
		if prev, dup := r.byAlias[k]; dup && prev != cmd {
			panic(fmt.Sprintf("command: alias %q of %q already taken by %q", name, c.Name, prev.Name))
		}
		r.byAlias[k] = cmd
	}
	r.commands = append(r.commands, cmd)
}

// RegisterOption adds a per-chat option. Duplicates panic.
func (r *Router) RegisterOption(o Option) {
	if _, dup := r.options[o.Key]; dup {
		panic("command: option registered twice: " + o.Key)
	}
	r.options[o.Key] = o
	r.optOrder = append(r.optOrder, o.Key)
}

// Commands lists the registered commands in registration order.
func (r *Router) Commands() []*Command { return r.commands }

// Options lists the registered options in registration order.
func (r *Router) Options() []Option {
	out := make([]Option, 0, len(r.optOrder))
	for _, k := range r.optOrder {
		out = append(out, r.options[k])
	}
	return out
}

// Lookup finds a command by any alias.
func (r *Router) Lookup(name string) (*Command, bool) {
	c, ok := r.byAlias[fold.Key(name)]
	return c, ok
}

// AliasNames lists every alias of every command, for suggestions.
func (r *Router) AliasNames() []string {
	out := make([]string, 0, len(r.byAlias))
	for k := range r.byAlias {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Translator returns the router's translator.
func (r *Router) Translator() Translator { return r.cfg.Translator }

// SettingsStore returns the store the router reads each chat's settings from.
func (r *Router) SettingsStore() SettingsStore { return r.cfg.Settings }

// Limits returns the effective limits.
func (r *Router) Limits() Limits { return r.cfg.Limits }

// Parsed is a message split into command word and arguments.
type Parsed struct {
	Prefix string // as typed: "/", "!" or the chat's own
	Name   string // without prefix and @bot
	Args   string
}

// PrefixOption is the chat setting that holds its own command prefix
// (/ajustes prefijo .).
const PrefixOption = "prefix"

// MaxPrefix is the longest command prefix of a chat, in characters.
const MaxPrefix = 3

// ValidPrefix reports whether p can be a chat's own command prefix: 1 to
// MaxPrefix characters, none a letter, a digit, a space, a control, an
// invisible character or the "/" every chat already has, and nothing
// fold.Key would change ("-" folds to a space), so that no ordinary line
// ("dime algo", "3 goblins") reads as a command. /ajustes prefijo and
// /importar refuse any other; Parse ignores one stored before that rule.
func ValidPrefix(p string) bool {
	n := 0
	for _, r := range p {
		n++
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsSpace(r) ||
			unicode.IsControl(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r) || r == '/' || r == utf8.RuneError {
			return false
		}
	}
	return n >= 1 && n <= MaxPrefix && fold.Key(p) == strings.ToLower(p)
}

// Parse reads text as a command in the request's chat: with the chat's
// own prefix besides / and !, addressed to this bot.
func (r *Request) Parse(text string) (Parsed, bool) {
	return Parse(text, r.Settings.Options[PrefixOption], r.Msg.BotName)
}

// Parse splits text into a command if it starts with '/' or prefix. It
// returns ok=false for plain chat text and for /cmd@OtherBot.
func Parse(text, prefix, botName string) (Parsed, bool) {
	// Invisible characters a client or a paste puts before the command
	// (a left-to-right mark, a byte-order mark) are not part of it.
	text = strings.TrimFunc(text, func(r rune) bool { return unicode.IsSpace(r) || fold.Invisible(r) })
	var used string
	switch {
	case strings.HasPrefix(text, "/"):
		used = "/"
	case prefix != "" && strings.HasPrefix(text, prefix) && ValidPrefix(prefix):
		used = prefix
	case strings.HasPrefix(text, "!"):
		used = "!"
	default:
		return Parsed{}, false
	}
	rest := text[len(used):]
	// The word ends at any space: a no-break space (macOS, iOS and French
	// keyboards type one), a line break or a tab as well as " ".
	word, args := rest, ""
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		word, args = rest[:i], rest[i:]
	}
	word = fold.StripInvisible(word)
	if at := strings.IndexByte(word, '@'); at >= 0 {
		target := word[at+1:]
		word = word[:at]
		// Addressed to a bot: to us only if that is our name.
		if botName == "" || !strings.EqualFold(target, botName) {
			return Parsed{}, false
		}
	}
	// A command word starts with a letter: "!!", "/3" or "!?" are chat, not commands.
	if r, _ := utf8.DecodeRuneInString(word); word == "" || !unicode.IsLetter(r) {
		return Parsed{}, false
	}
	return Parsed{Prefix: used, Name: word, Args: strings.TrimSpace(args)}, true
}

// Dispatch handles one message. It returns ok=false when the message is not
// for the bot (plain text, a command for another bot); otherwise a reply,
// which may be an error reply.
func (r *Router) Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool) {
	return r.DispatchWith(ctx, msg, nil)
}

// DispatchWith is Dispatch with a given dice source (the CLI's --seed and
// --dice). A nil src means a fresh random source.
func (r *Router) DispatchWith(ctx context.Context, msg core.Message, src dice.Source) (*reply.Reply, bool) {
	return r.dispatch(ctx, msg, src, 0)
}

func (r *Router) dispatch(ctx context.Context, msg core.Message, src dice.Source, depth int) (rep *reply.Reply, ok bool) {
	// A display name is untrusted one-line text: a newline in it must not
	// print a line that looks like the bot's own.
	msg.From.Name = fold.Clean(msg.From.Name)
	settings, err := r.cfg.Settings.Settings(ctx, msg.Chat)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "load settings", "chat", msg.Chat.String(), "err", err)
		// Answer in the default language rather than stay silent.
		settings = core.Settings{}
	}
	p, ok := Parse(msg.Text, settings.Options[PrefixOption], msg.BotName)
	if !ok {
		return nil, false
	}
	lang := r.resolveLang(ctx, msg, &settings)
	defer func() { stampLang(rep, lang) }()
	req := &Request{Msg: msg, Prefix: p.Prefix, Alias: p.Name, Args: p.Args, Lang: lang, Settings: settings, Depth: depth,
		Budget: NewBudget(r.cfg.Limits.MaxWork), router: r}
	if depth == 0 {
		defer func() { r.greekCommandNames(req, rep) }()
	}

	limit := r.cfg.Limits.MaxInput
	if c, ok := r.byAlias[fold.Key(p.Name)]; ok && c.MaxInput > limit {
		limit = c.MaxInput
	}
	if n := utf8.RuneCountInString(msg.Text); n > limit {
		return r.errorReply(req, Errorf("error.input_too_long", "max", limit, "got", n)), true
	}
	if !r.unlimited(msg.Chat.Platform) && !r.limiter.allow(msg.Chat.String()+"|"+msg.From.ID, limitTime(msg.Sent, r.cfg.Now())) {
		if r.limiter.warnOnce(msg.Chat.String()+"|"+msg.From.ID, r.cfg.Now()) {
			return r.errorReply(req, Errorf("error.rate_limited", "seconds", int(r.cfg.Limits.Refill/time.Second))), true
		}
		return nil, false
	}

	return r.exec(ctx, req, p, src)
}

// exec finds and runs the command of an already parsed and admitted request.
func (r *Router) exec(ctx context.Context, req *Request, p Parsed, src dice.Source) (*reply.Reply, bool) {
	msg := req.Msg
	cmd, found := r.byAlias[fold.Key(p.Name)]
	if !found {
		if r.cfg.Aliases != nil {
			if err := loop(req.chain, p.Name); err != nil {
				return r.errorReply(req, err), true
			}
			// The expander refuses a text longer than MaxExpansion before
			// building it, so what is built here is always small.
			text, ok, err := r.cfg.Aliases.ExpandAlias(ctx, msg.Chat, msg.From.ID, p.Name, p.Args, r.cfg.Limits.MaxExpansion)
			if err != nil {
				return r.errorReply(req, req.missingArgExample(ctx, err, p)), true
			}
			if ok {
				if err := req.Budget.expand(r.cfg.Limits.MaxDepth); err != nil {
					return r.errorReply(req, err), true
				}
				if err := req.Budget.Spend(utf8.RuneCountInString(text)); err != nil {
					return r.errorReply(req, err), true
				}
				start := time.Now()
				rep, ok := req.redispatch(ctx, text, src, append(req.chain[:len(req.chain):len(req.chain)], p.Name))
				if !ok {
					return r.errorReply(req, Errorf("error.alias_not_command", "name", p.Name)), true
				}
				if req.Depth == 0 {
					// A saved roll is logged like the roll it stands for.
					r.enforceOutput(req, rep)
					for _, o := range r.cfg.Observers {
						o.Observe(ctx, req, rep, time.Since(start))
					}
				}
				return rep, true
			}
		}
		return r.unknown(req), true
	}
	if req.rollsOnly && !cmd.Roll && cmd.Name != "odds" {
		return r.errorReply(req, Errorf("error.not_a_roll", "command", req.Prefix+p.Name)), true
	}
	req.Name = cmd.Name
	if src == nil {
		src = r.cfg.NewSource()
	}
	req.Rand = src
	if !req.gmKnown {
		req.IsGM = r.isGM(ctx, msg)
	}

	start := time.Now()
	rep, err := r.run(ctx, cmd, req)
	// Replayed dice that did not fit explain any failure they caused.
	if s, ok := src.(interface{ Err() error }); ok && s.Err() != nil {
		err = scriptError(s.Err())
	}
	if err != nil {
		rep = r.errorReply(req, err)
	} else if rep == nil {
		rep = &reply.Reply{}
	}
	if cmd.Roll && !rep.Error && rep.Command == "" {
		// As typed, in the chat's words ("/tirar 1d20", not "/roll"):
		// the history, the tray and the again button show it.
		rep.Command = "/" + p.Name + strings.TrimRight(" "+p.Args, " ")
	}
	fillActions(rep)
	if req.Depth == 0 {
		r.enforceOutput(req, rep)
		for _, o := range r.cfg.Observers {
			o.Observe(ctx, req, rep, time.Since(start))
		}
	}
	return rep, true
}

// Redispatch runs text as a command on behalf of the same sender, in the
// same chat and language, without counting against the rate limit: /gmroll
// and saved rolls use it. ok=false when text is not a command. It draws on
// the same Budget as the request. Nesting is bounded: every saved roll
// counts against Limits.MaxDepth for the whole message, and each may be
// wrapped once by a command such as /gmroll.
func (req *Request) Redispatch(ctx context.Context, text string, src dice.Source) (*reply.Reply, bool) {
	return req.redispatch(ctx, text, src, req.chain)
}

// RedispatchRoll is Redispatch for a roll only: text, and any saved roll
// it expands to, must end in a roll command or /odds (Command.Roll); any
// other command is refused before it runs. /gmroll uses it, so that a
// secret roll never changes the chat's settings, sheets or pads unseen.
func (req *Request) RedispatchRoll(ctx context.Context, text string) (*reply.Reply, bool) {
	sub := *req
	sub.rollsOnly = true
	return sub.redispatch(ctx, text, nil, req.chain)
}

// RollsOnly reports whether the request runs inside /gmroll or another
// command that takes rolls only: a handler that would change the chat
// (a table, a deck) refuses to there.
func (req *Request) RollsOnly() bool { return req.rollsOnly }

func (req *Request) redispatch(ctx context.Context, text string, src dice.Source, chain []string) (*reply.Reply, bool) {
	r := req.router
	if req.Depth >= 2*r.cfg.Limits.MaxDepth+1 {
		return r.errorReply(req, Errorf("error.alias_depth", "max", r.cfg.Limits.MaxDepth)), true
	}
	p, ok := req.Parse(text)
	if !ok {
		return nil, false
	}
	m := req.Msg
	m.Text = text
	sub := &Request{Msg: m, Prefix: p.Prefix, Alias: p.Name, Args: p.Args, Lang: req.Lang, Settings: req.Settings, Depth: req.Depth + 1,
		Budget: req.Budget, chain: chain, router: r, rollsOnly: req.rollsOnly, as: req.as}
	if src == nil {
		src = req.Rand
	}
	return r.exec(ctx, sub, p, src)
}

func (r *Router) unlimited(platform string) bool {
	for _, p := range r.cfg.Unlimited {
		if p == platform {
			return true
		}
	}
	return false
}

// scriptError turns a --dice replay problem into a localized user error.
func scriptError(err error) error {
	var se *dice.ScriptError
	if !errors.As(err, &se) {
		return err
	}
	if se.Exhausted {
		return Errorf("error.dice_script_short", "count", se.Given, "index", se.Index)
	}
	return Errorf("error.dice_script_range", "index", se.Index, "value", se.Value, "sides", se.Sides)
}

// run calls the handler, turning a panic into an internal error.
func (r *Router) run(ctx context.Context, cmd *Command, req *Request) (rep *reply.Reply, err error) {
	defer func() {
		if v := recover(); v != nil {
			r.cfg.Logger.ErrorContext(ctx, "handler panic", "command", cmd.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			rep, err = nil, fmt.Errorf("panic in %s: %v", cmd.Name, v)
		}
	}()
	return cmd.Handler.Handle(ctx, req)
}

func (r *Router) resolveLang(ctx context.Context, msg core.Message, s *core.Settings) string {
	lang, hint := r.chatLang(*s, msg.LangHint)
	if hint {
		// A new chat starts in the language of the first user's client, and keeps it.
		s.Lang = lang
		if err := r.cfg.Settings.SetLang(ctx, msg.Chat, lang); err != nil {
			r.cfg.Logger.ErrorContext(ctx, "save language", "chat", msg.Chat.String(), "err", err)
		}
	}
	return lang
}

func (r *Router) unknown(req *Request) *reply.Reply {
	names := make([]string, 0, len(r.commands))
	for _, c := range r.commands {
		if !c.Hidden {
			names = append(names, c.Name)
			names = append(names, c.Aliases...)
		}
	}
	typed := req.Prefix + req.Alias
	// Suggest only for words long enough to be a typo of something.
	if utf8.RuneCountInString(req.Alias) >= 3 {
		if s := fold.Closest(req.Alias, names, 1); len(s) > 0 {
			return r.errorReply(req, Errorf("error.unknown_command_suggest", "name", typed, "suggestion", req.Prefix+s[0]))
		}
	}
	return r.errorReply(req, Errorf("error.unknown_command", "name", typed))
}

func (r *Router) errorReply(req *Request, err error) *reply.Reply {
	ue, ok := AsUserError(err)
	if !ok {
		r.cfg.Logger.Error("command failed", "command", req.Name, "chat", req.Msg.Chat.String(), "err", err)
		ue = &UserError{Key: "error.internal"}
	}
	text := r.cfg.Translator.Translate(req.Lang, ue.Key, ue.Args)
	return reply.Warning(req.Lang, text)
}

// enforceOutput keeps replies under MaxOutput characters: handlers are
// expected to summarize long results themselves; this is the last guard.
// It applies to the private copy of a secret reply too (Reply.Secret, at
// any depth), which is sent to the roller and to every GM. Each text
// delivered is drawn from the message's budget; a reply that does not fit
// what is left is cut to it, down to minOutput characters.
func (r *Router) enforceOutput(req *Request, rep *reply.Reply) {
	for ; rep != nil; rep = rep.Secret {
		limit := r.cfg.Limits.MaxOutput
		n := utf8.RuneCountInString(reply.PlainText(rep))
		if err := req.Budget.Spend(min(n, limit)); err != nil {
			// What is left, but never less than room for a short answer:
			// the error that says the budget ran out must be readable.
			limit = max(minOutput, min(limit, req.Budget.Left()))
			_ = req.Budget.Spend(req.Budget.Left())
		}
		if n <= limit {
			continue
		}
		r.truncate(req, rep, limit)
	}
}

// minOutput is the shortest a reply is cut to when the budget is spent:
// room for any error message.
const minOutput = 500

// truncate cuts rep to whole lines that fit limit characters with the
// note that says so.
func (r *Router) truncate(req *Request, rep *reply.Reply, limit int) {
	note := r.cfg.Translator.Translate(req.Lang, "error.output_truncated", Args("max", limit))
	room := limit - utf8.RuneCountInString(note) - 1
	var kept []reply.Line
	used := 0
	for _, l := range rep.Lines {
		n := 1
		for _, s := range l {
			n += utf8.RuneCountInString(s.Text)
		}
		if used+n > room {
			break
		}
		used += n
		kept = append(kept, l)
	}
	rep.Lines = append(kept, reply.Line{reply.I(note)})
}

// limitTime is the time a message counts at for the rate limit: when it
// was sent, if the platform says so and that is within the last day (a
// message answered late, after the bot was away, was typed at its own
// pace), else now. The bucket never goes back in time (see allow).
func limitTime(sent, now time.Time) time.Time {
	if sent.IsZero() || sent.After(now) || now.Sub(sent) > 24*time.Hour {
		return now
	}
	return sent
}

// limiter is a token bucket per key (golang.org/x/time/rate): burst
// commands at once, then one per refill.
type limiter struct {
	mu     sync.Mutex
	burst  int
	refill time.Duration
	state  map[string]*bucket
}

type bucket struct {
	lim *rate.Limiter
	// last is the latest time the key was counted at: a message sent
	// earlier (answered late) counts at last, as the bucket never goes
	// back in time (rate.Limiter would take the earlier time as its new
	// start and refill again from it).
	last   time.Time
	warned bool
}

func newLimiter(burst int, refill time.Duration) *limiter {
	return &limiter{burst: burst, refill: refill, state: map[string]*bucket{}}
}

func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.state) > 100_000 {
		l.gc(now)
	}
	b, ok := l.state[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Every(l.refill), l.burst), last: now}
		l.state[key] = b
	}
	if now.After(b.last) {
		b.last = now
	}
	if b.lim.AllowN(b.last, 1) {
		b.warned = false
		return true
	}
	return false
}

// warnOnce reports true the first time a user is refused in a row, so a
// flood gets one warning, not one per message.
func (l *limiter) warnOnce(key string, _ time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.state[key]
	if b == nil || b.warned {
		return false
	}
	b.warned = true
	return true
}

func (l *limiter) gc(now time.Time) {
	for k, b := range l.state {
		if now.Sub(b.last) > time.Duration(l.burst)*l.refill { // full again: as if new
			delete(l.state, k)
		}
	}
}
