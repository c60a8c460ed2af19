// Package command routes chat messages to handlers: it recognizes /cmd,
// /cmd@Bot and !cmd, matches aliases in Spanish, Greek and English without
// case or accents, resolves the chat's language and settings, applies the
// per-user rate limit and turns handler errors into localized replies.
// A command's sub-commands, in every language, are one table (Subs) that
// its parser, /help and the page read.
package command

import (
	"context"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Translator renders a message key in a language. It never returns "": a
// missing key falls back to English, then to the key itself.
type Translator interface {
	Translate(lang, key string, args map[string]any) string
}

// Handler answers one command.
type Handler interface {
	Handle(ctx context.Context, req *Request) (*reply.Reply, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, req *Request) (*reply.Reply, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, req *Request) (*reply.Reply, error) {
	return f(ctx, req)
}

// Command describes one command: its canonical name, its aliases in every
// language, and its help. Help texts live in the catalogs under
// "cmdhelp.<Name>.short" and "cmdhelp.<Name>.long".
type Command struct {
	Name    string   // canonical, Latin, Telegram-safe: "roll"
	Aliases []string // other names in es/el/en: "r", "tirar", "ρίξε"
	Handler Handler
	// Hidden commands are not listed by /help (e.g. /start).
	Hidden bool
	// Roll marks commands whose replies are rolls: they get the "again"
	// button and are written to the roll history.
	Roll bool
	// MaxInput, when larger than Limits.MaxInput, is this command's own
	// input limit in characters: /importar takes a whole export document.
	MaxInput int
	// TakesFile marks a command whose input is an attached file (the
	// file's text follows the command, as /importar does): adapters ask
	// Router.TakesFile before reading a document.
	TakesFile bool
	// Odds, when set, answers the odds of one of this command's rolls
	// without rolling (the 📊 button, Router.Press with reply.ActOdds):
	// it reads Request.Args and marks Request.Actual.
	Odds Handler
	// Choices, when set, lists the values a pad button may ask for at one
	// place of this command's arguments (its "{objetivo}"): see
	// ChoicesFunc and Request.ChoicesFor.
	Choices ChoicesFunc
	// Subs, when set, is the command's table of sub-commands ("/init
	// siguiente"), in every language: its parser reads it, and /help
	// lists it (NewSubs).
	Subs *Subs
}

// Option is a per-chat setting a system offers (/ajustes key value).
type Option struct {
	Key     string   // "zaria", "dh_blindaje"
	Values  []string // allowed values, first is not necessarily the default
	Default string
	// Check, when set, makes the option free text (Values is nil): it
	// checks what /ajustes was given (every word after the key) and
	// returns the value to store, or a *UserError.
	Check func(v string) (string, error)
}

// Request is one command as the handler sees it.
type Request struct {
	Msg      core.Message
	Prefix   string // the prefix as typed: "/", "!" or the chat's own
	Name     string // canonical command name
	Alias    string // the name as typed, without prefix
	Args     string // everything after the command word, trimmed
	Lang     string // resolved language of the chat
	Settings core.Settings
	Rand     dice.Source
	IsGM     bool
	// Depth counts nested Redispatch calls (saved rolls, /gmroll).
	Depth int
	// Budget is the work this message may still cost, shared with every
	// command it runs through Redispatch. Expensive steps spend from it.
	// Nil (a handler called directly) never runs out.
	Budget *Budget
	// Actual is the result of the roll whose odds an Odds handler shows;
	// nil otherwise.
	Actual *int64

	gmKnown bool // IsGM was already looked up (a press: Request.Run)

	// recorded: the handler gave the observers its own account of what
	// it did (Request.Record); Press does not log the press again.
	recorded bool
	// as is the character a sheet read without a name reads (RunAs): a
	// request for a roll runs its check for each character.
	as string

	chain []string // saved rolls expanded to reach this request, outermost first

	// rollsOnly refuses, at any depth, a command that is not a roll or
	// /odds: a secret roll must not change the chat unseen.
	rollsOnly bool

	router *Router
}

// T translates key in the request's language. kv are alternating names and
// values: req.T("roll.total", "total", 12).
func (r *Request) T(key string, kv ...any) string {
	return r.router.cfg.Translator.Translate(r.Lang, key, Args(kv...))
}

// Option returns the chat's value for a registered option, or its default.
func (r *Request) Option(key string) string {
	if v, ok := r.Settings.Options[key]; ok && v != "" {
		return v
	}
	if o, ok := r.router.options[key]; ok {
		return o.Default
	}
	return ""
}

// NamedGMs returns the user ids of the chat's GMs named with /gm add; a
// failure is logged and gives none (the secret still reaches the roller).
func (r *Request) NamedGMs(ctx context.Context) []string {
	if r.router.cfg.NamedGMs == nil {
		return nil
	}
	ids, err := r.router.cfg.NamedGMs(ctx, r.Msg.Chat)
	if err != nil {
		r.router.cfg.Logger.ErrorContext(ctx, "list named GMs", "chat", r.Msg.Chat.String(), "err", err)
		return nil
	}
	return ids
}

// Router gives handlers access to the router (for /help and /ajustes).
func (r *Request) Router() *Router { return r.router }

// Args turns alternating names and values into a template argument map.
func Args(kv ...any) map[string]any {
	if len(kv) == 0 {
		return nil
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}

// UserError is a problem with what the user typed. Its key is a catalog
// message; the router renders it in the chat's language, marks the reply as
// an error and changes nothing.
type UserError struct {
	Key  string
	Args map[string]any
}

func (e *UserError) Error() string { return "user error: " + e.Key }

// Errorf builds a UserError from a key and alternating names and values.
//
// A string value usually quotes what the user typed: it is cleaned to one
// line without invisible characters (fold.Clean), so an error can never
// print a line that looks like the bot's own.
func Errorf(key string, kv ...any) error {
	args := Args(kv...)
	for k, v := range args {
		if s, ok := v.(string); ok {
			args[k] = fold.Clean(s)
		}
	}
	return &UserError{Key: key, Args: args}
}

// AsUserError reports whether err is (or wraps) a UserError.
func AsUserError(err error) (*UserError, bool) {
	var ue *UserError
	ok := errors.As(err, &ue)
	return ue, ok
}
