package command

import (
	"context"
	"math/big"
	"strings"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/fold"
	"zaria/core/reply"
)

// The Router is the adapters' port to the core (core.Port documents it).
var _ core.Port = (*Router)(nil)

// chatLang is the router's one rule for a chat's language: its setting,
// else the client language hint ("es-ES" counts as "es") when the bot
// speaks it (fromHint: a new chat, whose language Dispatch then saves),
// else the default.
func (r *Router) chatLang(s core.Settings, hint string) (lang string, fromHint bool) {
	if core.IsLang(s.Lang) {
		return s.Lang, false
	}
	h := strings.ToLower(hint)
	if len(h) > 2 {
		h = h[:2]
	}
	if core.IsLang(h) {
		return h, true
	}
	return r.cfg.DefaultLang, false
}

// stampLang records on a reply (and its secret part) the language it was
// rendered in.
func stampLang(rep *reply.Reply, lang string) {
	for ; rep != nil; rep = rep.Secret {
		if rep.Lang == "" {
			rep.Lang = lang
		}
	}
}

// Lang is the chat's language by the router's rule (see core.Port). It
// only reads the settings; a failure to read them is logged and gives the
// hint's language or the default.
func (r *Router) Lang(ctx context.Context, chat core.ChatRef, hint string) string {
	s, err := r.cfg.Settings.Settings(ctx, chat)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "load settings", "chat", chat.String(), "err", err)
		s = core.Settings{}
	}
	lang, _ := r.chatLang(s, hint)
	return lang
}

// Text renders a catalog key in lang (see core.Port); "" or a language
// the bot does not speak is the default.
func (r *Router) Text(lang, key string, kv ...any) string {
	if !core.IsLang(lang) {
		lang = r.cfg.DefaultLang
	}
	return r.cfg.Translator.Translate(lang, key, Args(kv...))
}

// Recognize reports whether msg.Text is a command for the bot in its chat
// (the same test Dispatch makes first, with the chat's own prefix) and the
// canonical name of the registered command it names (see core.Port).
func (r *Router) Recognize(ctx context.Context, msg core.Message) (name string, ok bool) {
	s, err := r.cfg.Settings.Settings(ctx, msg.Chat)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "load settings", "chat", msg.Chat.String(), "err", err)
		s = core.Settings{}
	}
	p, ok := Parse(msg.Text, s.Options[PrefixOption], msg.BotName)
	if !ok {
		return "", false
	}
	if c, found := r.byAlias[fold.Key(p.Name)]; found {
		return c.Name, true
	}
	return "", true
}

// Menu lists the visible commands with their description in lang (see
// core.Port): the short help without its example ("/roll 4d6kh3+2 — any
// dice" gives "any dice"), or "/name" when a command has none.
func (r *Router) Menu(lang string) []core.MenuItem {
	out := make([]core.MenuItem, 0, len(r.commands))
	for _, c := range r.commands {
		if !c.Hidden {
			out = append(out, core.MenuItem{Name: c.Name, Local: r.localName(lang, c), Description: r.describe(lang, c.Name)})
		}
	}
	return out
}

// localName is the name c goes by in lang: the first word of its short
// help ("/ayuda tirar — …" in Spanish gives "ayuda"), when that word is one
// of c's names; else c's canonical name.
func (r *Router) localName(lang string, c *Command) string {
	key := "cmdhelp." + c.Name + ".short"
	word, _, _ := strings.Cut(strings.TrimSpace(r.Text(lang, key)), " ")
	word = strings.TrimLeft(word, "/!")
	if found, ok := r.Lookup(word); ok && found == c && word != "" {
		return word
	}
	return c.Name
}

func (r *Router) describe(lang, name string) string {
	for _, key := range []string{"cmdhelp." + name + ".short", "help." + name + ".short"} {
		d := r.Text(lang, key)
		if d == key || strings.TrimSpace(d) == "" {
			continue
		}
		if _, after, ok := strings.Cut(d, " — "); ok {
			d = after
		}
		if utf8.RuneCountInString(d) >= 3 {
			return d
		}
	}
	return "/" + name
}

// oddsText is the one-line odds of a roll in lang, as "/roll … ?" states
// them (Reply.OddsLine): the exact chance when known, else "≈" and the
// float; that there are none when neither a chance nor a mean is known.
func (r *Router) oddsText(lang string, c *reply.RollOdds) string {
	if c == nil || (c.Chance == nil && c.Mean == nil) {
		return r.Text(lang, "dice.odds_unavailable")
	}
	mean := ""
	if c.Mean != nil {
		mean = Decimal(lang, *c.Mean)
		if c.Approx && c.Exact == "" {
			mean = "≈" + mean
		}
	}
	if c.Chance == nil {
		return r.Text(lang, "dice.odds_mean", "mean", mean)
	}
	var pct string
	if x, ok := new(big.Rat).SetString(c.Exact); ok && c.Exact != "" {
		pct = Percent(lang, x)
	} else {
		pct = "≈" + Percent(lang, new(big.Rat).SetFloat64(*c.Chance))
	}
	return r.Text(lang, "dice.odds", "pct", pct, "mean", mean)
}
