// Package general holds the commands every chat has whatever it plays:
// /help, /start, /lang, /ajustes, /gmroll and /version.
package general

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Options are what the general commands need from the configuration.
type Options struct {
	Version string // what /version prints
	// DocsURL, when set, is where the rules guide is published (the
	// repository's docs/ folder as a web page): /help links each page
	// there. Without it /help shows no file path, which a phone cannot open.
	DocsURL string
	// HouseRules, when set, tells a chat's own default of a house rule
	// (a fork's choice, core/systems/fork): /ajustes lists it as the
	// chat's current value where the chat set none.
	HouseRules HouseRules
}

// HouseRules finds the default a chat's own copy of a system gives a
// house rule (fork.Service); ok is false when the chat plays the book.
type HouseRules interface {
	HouseRule(ctx context.Context, chat core.ChatRef, key string) (choice string, ok bool, err error)
}

// Register adds the general commands with their options.
func Register(r *command.Router, o Options) {
	version := o.Version
	docs := strings.TrimRight(strings.TrimSpace(o.DocsURL), "/")
	r.Register(command.Command{Name: "help", Aliases: []string{"ayuda", "h", "βοήθεια"}, Handler: command.HandlerFunc(
		func(ctx context.Context, req *command.Request) (*reply.Reply, error) { return help(ctx, req, docs) })})
	r.Register(command.Command{Name: "start", Aliases: []string{"empezar", "έναρξη"}, Hidden: true, Handler: command.HandlerFunc(start)})
	r.Register(command.Command{Name: "lang", Aliases: []string{"idioma", "language", "γλώσσα"}, Handler: command.HandlerFunc(lang)})
	r.Register(command.Command{Name: "ajustes", Aliases: []string{"settings", "config", "ρυθμίσεις"}, Handler: command.HandlerFunc(
		func(ctx context.Context, req *command.Request) (*reply.Reply, error) {
			return settings(ctx, req, o.HouseRules)
		})})
	r.Register(command.Command{Name: "gmroll", Aliases: []string{"secreto", "secret", "κρυφή"}, Handler: command.HandlerFunc(gmroll)})
	r.Register(command.Command{Name: "blind", Aliases: []string{"ciega", "aciegas", "τυφλή"}, Handler: command.HandlerFunc(blind)})
	r.HandleAction(reply.ActReveal, reveal)
	r.Register(command.Command{Name: "version", Aliases: []string{"versión", "έκδοση"}, Hidden: true, Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			return reply.Text(req.T("version.text", "version", version)), nil
		})})
}

// translated returns the text of key, or "" when the catalogs lack it.
func translated(req *command.Request, key string) string {
	if s := req.T(key); s != key {
		return s
	}
	return ""
}

// docLink is a reference to a page of the rules guide in a help text:
// "docs/dice.md", "docs/daegon.md#opposed-rolls".
var docLink = regexp.MustCompile(`docs/[A-Za-z0-9_-]+\.md(#[\p{L}\p{N}_-]+)?`)

// docLine is a help line with its references to the guide made links
// under docs (the docs_url setting); ok=false when there is no docs_url,
// and the line, a file path a phone cannot open, is left out.
func docLine(line, docs string) (string, bool) {
	if !docLink.MatchString(line) {
		return line, true
	}
	if docs == "" {
		return "", false
	}
	return docLink.ReplaceAllStringFunc(line, func(m string) string { return docs + "/" + strings.TrimPrefix(m, "docs/") }), true
}

func help(_ context.Context, req *command.Request, docs string) (*reply.Reply, error) {
	router := req.Router()
	if req.Args != "" {
		name := strings.TrimLeft(strings.Fields(req.Args)[0], "/!")
		cmd, ok := router.Lookup(name)
		if !ok {
			return nil, command.Errorf("help.unknown", "name", name)
		}
		rep := &reply.Reply{}
		title := "/" + cmd.Name
		if names := prefixed(cmd.Aliases, req.Msg.Chat.Platform); len(names) > 0 {
			title += "  (" + strings.Join(names, ", ") + ")"
		}
		rep.Add(reply.B(title))
		long := translated(req, "cmdhelp."+cmd.Name+".long")
		if long == "" {
			long = translated(req, "cmdhelp."+cmd.Name+".short")
		}
		for _, l := range strings.Split(long, "\n") {
			if l, ok := docLine(l, docs); ok {
				rep.Add(styleExample(l)...)
			}
		}
		if words := subWords(cmd.Subs, req.Lang); words != "" {
			rep.Add(reply.I(req.T("help.subcommands", "cmd", req.TypedPrefix()+name, "words", words)))
		}
		return rep, nil
	}
	rep := &reply.Reply{}
	rep.Add(reply.B(req.T("help.title")))
	for _, c := range router.Commands() {
		if c.Hidden {
			continue
		}
		short := translated(req, "cmdhelp."+c.Name+".short")
		if short == "" {
			continue
		}
		rep.Add(styleExample(short)...)
	}
	rep.Add(reply.I(req.T("help.more")))
	rep.Add(reply.I(req.T("help.edits")))
	return rep, nil
}

// subWords lists a command's sub-commands in lang, from its table (one
// list for the parser and for /help): each by its first word, its other
// words in brackets: "crear (nuevo) · robar (sacar) · barajar".
func subWords(subs *command.Subs, lang string) string {
	var parts []string
	for _, s := range subs.List() {
		w := s.Words[lang]
		part := w[0]
		if len(w) > 1 {
			part += " (" + strings.Join(w[1:], ", ") + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ")
}

// styleExample shows each "/command ..." part of a help line as code, so
// that a phone user can tap-copy it: "/roll 4d6kh3 — best three of four".
// A line may hold several examples separated by " · ", each one a whole
// command (cmd/zaria's TestHelpExamplesRun runs every one of them).
func styleExample(line string) []reply.Span {
	var out []reply.Span
	for i, part := range strings.Split(line, " · ") {
		if i > 0 {
			out = append(out, reply.T(" · "))
		}
		if !strings.HasPrefix(part, "/") && !strings.HasPrefix(part, "!") {
			out = append(out, reply.T(part))
			continue
		}
		if ex, rest, ok := strings.Cut(part, " — "); ok {
			out = append(out, reply.C(ex), reply.T(" — "+rest))
			continue
		}
		out = append(out, reply.C(part))
	}
	return out
}

// prefixed shows each alias as it is typed: "/tirar", or "!ρίξε" for a
// name Telegram does not take as a command. On Telegram those are left out:
// a bot in privacy mode never receives "!ρίξε" in a group.
func prefixed(names []string, platform string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		switch {
		case isLatin(n):
			out = append(out, "/"+n)
		case platform != "telegram":
			out = append(out, "!"+n)
		}
	}
	return out
}

func isLatin(s string) bool {
	for _, r := range s {
		if r > 0x7f {
			return false
		}
	}
	return true
}

func start(_ context.Context, req *command.Request) (*reply.Reply, error) {
	rep := &reply.Reply{}
	rep.Add(reply.B(req.T("start.hello", "name", req.Msg.From.Name)))
	for _, l := range strings.Split(req.T("start.body"), "\n") {
		rep.Add(styleExample(l)...)
	}
	return rep, nil
}

// langWords maps what people type to a language code.
var langWords = map[string]string{
	"es": "es", "espanol": "es", "castellano": "es", "spanish": "es", "ισπανικα": "es",
	"el": "el", "gr": "el", "griego": "el", "greek": "el", "ελληνικα": "el",
	"en": "en", "ingles": "en", "english": "en", "αγγλικα": "en",
}

func parseLang(s string) (string, bool) {
	l, ok := langWords[fold.Key(s)]
	return l, ok
}

func lang(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if req.Args == "" {
		return reply.Text(req.T("lang.current", "lang", req.T("lang.name."+req.Lang))), nil
	}
	l, ok := parseLang(req.Args)
	if !ok {
		return nil, command.Errorf("lang.invalid", "value", req.Args)
	}
	return setLang(ctx, req, l)
}

func setLang(ctx context.Context, req *command.Request, l string) (*reply.Reply, error) {
	if err := req.Router().SettingsStore().SetLang(ctx, req.Msg.Chat, l); err != nil {
		return nil, err
	}
	req.Lang = l
	return reply.Text("✅ " + req.T("lang.set", "lang", req.T("lang.name."+l))), nil
}

// Settings that are not house rules of a system.
const (
	optLang   = "idioma"
	optPrefix = "prefijo"
	optZone   = "zona"
)

var settingWords = map[string]string{
	"idioma": optLang, "lang": optLang, "language": optLang, "γλωσσα": optLang,
	"prefijo": optPrefix, "prefix": optPrefix, "προθεμα": optPrefix,
	"zona": optZone, "zone": optZone, "timezone": optZone, "huso": optZone, "ζωνη": optZone,
}

func settings(ctx context.Context, req *command.Request, hr HouseRules) (*reply.Reply, error) {
	fields := strings.Fields(req.Args)
	if len(fields) == 0 {
		return listSettings(ctx, req, hr)
	}
	key := fold.Key(fields[0])
	if k, ok := settingWords[key]; ok {
		key = k
	}
	if opt, ok := findOption(req, key); ok && opt.Check != nil && len(fields) > 1 {
		value, err := opt.Check(strings.Join(fields[1:], " "))
		if err != nil {
			return nil, err
		}
		if !req.IsGM {
			return nil, command.Errorf("settings.gm_only")
		}
		return save(ctx, req, opt, value)
	}
	if len(fields) > 2 && oneValueOf(req, key, fields[1]) {
		// "/ajustes zaria alta baja": one value, never the first one of
		// several silently (every value is one word). A first word that is
		// no value of the setting gets the setting's own message.
		return nil, command.Errorf("settings.one_value", "name", fold.Cut(fields[0], 32), "value", fold.Cut(fields[1], 32),
			"extra", fold.Cut(strings.Join(fields[2:], " "), 32))
	}
	if key == optLang {
		if len(fields) < 2 {
			return listSettings(ctx, req, hr)
		}
		l, ok := parseLang(fields[1])
		if !ok {
			return nil, command.Errorf("lang.invalid", "value", fields[1])
		}
		return setLang(ctx, req, l)
	}
	if key == optPrefix {
		if len(fields) < 2 {
			return listSettings(ctx, req, hr)
		}
		if !req.IsGM {
			return nil, command.Errorf("settings.gm_only")
		}
		p := fold.StripInvisible(fields[1]) // a word joiner pasted before "!"
		if !command.ValidPrefix(p) {
			return nil, command.Errorf("settings.bad_prefix", "value", p, "max", command.MaxPrefix)
		}
		return save(ctx, req, command.Option{Key: command.PrefixOption}, p)
	}
	if key == optZone {
		if len(fields) < 2 {
			return listSettings(ctx, req, hr)
		}
		loc, ok := command.LoadZone(fields[1])
		if !ok {
			return nil, command.Errorf("settings.bad_zone", "value", fold.Cut(fields[1], 40))
		}
		if !req.IsGM {
			return nil, command.Errorf("settings.gm_only")
		}
		if err := req.Router().SettingsStore().SetOption(ctx, req.Msg.Chat, command.TimeZoneOption, loc.String()); err != nil {
			return nil, err
		}
		return reply.Text("✅ " + req.T("settings.zone_saved", "zone", loc.String(), "time", time.Now().In(loc).Format("15:04"))), nil
	}
	opt, ok := findOption(req, key)
	if !ok {
		names := []string{optLang, optPrefix, optZone}
		for _, o := range req.Router().Options() {
			names = append(names, optionName(req.Router().Translator(), req.Lang, o))
		}
		if s := fold.Closest(fields[0], names, 1); len(s) > 0 {
			return nil, command.Errorf("settings.unknown_suggest", "name", fields[0], "suggestion", s[0])
		}
		return nil, command.Errorf("settings.unknown", "name", fields[0])
	}
	name := optionName(req.Router().Translator(), req.Lang, opt)
	if len(fields) < 2 {
		return nil, command.Errorf("settings.values", "name", name, "values", valueWords(req, opt, " | "))
	}
	value, ok := optionValue(req, opt, fields[1])
	if !ok {
		return nil, command.Errorf("settings.bad_value", "name", name, "value", fields[1], "values", valueWords(req, opt, " | "))
	}
	if !req.IsGM {
		return nil, command.Errorf("settings.gm_only")
	}
	return save(ctx, req, opt, value)
}

// oneValueOf reports whether v is a value the setting key takes.
func oneValueOf(req *command.Request, key, v string) bool {
	switch key {
	case optLang:
		_, ok := parseLang(v)
		return ok
	case optPrefix:
		return command.ValidPrefix(fold.StripInvisible(v))
	case optZone:
		_, ok := command.LoadZone(v)
		return ok
	}
	opt, ok := findOption(req, key)
	if !ok {
		return false
	}
	_, ok = optionValue(req, opt, v)
	return ok
}

// optionWord is how value v of o is typed and shown in lang: the catalog's
// "option.<key>.<value>.word", or the stored code itself.
func optionWord(tr command.Translator, lang string, o command.Option, v string) string {
	k := "option." + o.Key + "." + v + ".word"
	if w := tr.Translate(lang, k, nil); w != "" && w != k {
		return w
	}
	return v
}

// valueWords lists o's values in the chat's words.
func valueWords(req *command.Request, o command.Option, sep string) string {
	if o.Check != nil {
		// A free value: the catalog's example of one ("1d20+destreza").
		if ex := translated(req, "option."+o.Key+".example"); ex != "" {
			return ex
		}
		return o.Default
	}
	ws := make([]string, len(o.Values))
	for i, v := range o.Values {
		ws[i] = optionWord(req.Router().Translator(), req.Lang, o, v)
	}
	return strings.Join(ws, sep)
}

// optionValue finds the stored code of what the user typed: the code
// itself or the word of a value in any language, so "alta", "πάνω", "high"
// and "media_alta" all store media_alta.
func optionValue(req *command.Request, o command.Option, typed string) (string, bool) {
	tr := req.Router().Translator()
	for _, v := range o.Values {
		if fold.Equal(v, typed) {
			return v, true
		}
		for _, l := range core.Langs() {
			if fold.Equal(optionWord(tr, l, o, v), typed) {
				return v, true
			}
		}
	}
	return "", false
}

// findOption finds the setting a folded word names: its key, or its name
// in any language ("ζαριά", "dh_θωράκιση"), without accents or case.
func findOption(req *command.Request, key string) (command.Option, bool) {
	tr := req.Router().Translator()
	for _, o := range req.Router().Options() {
		if fold.Key(o.Key) == key {
			return o, true
		}
		for _, l := range core.Langs() {
			if fold.Key(optionName(tr, l, o)) == key {
				return o, true
			}
		}
	}
	return command.Option{}, false
}

// optionName is how setting o is named in lang: the catalog's
// "option.<key>.name" ("dh_θωράκιση" in Greek), or its stored key.
func optionName(tr command.Translator, lang string, o command.Option) string {
	k := "option." + o.Key + ".name"
	if w := tr.Translate(lang, k, nil); w != "" && w != k {
		return w
	}
	return o.Key
}

func save(ctx context.Context, req *command.Request, o command.Option, value string) (*reply.Reply, error) {
	if err := req.Router().SettingsStore().SetOption(ctx, req.Msg.Chat, o.Key, value); err != nil {
		return nil, err
	}
	shown := value
	if o.Key == command.PrefixOption {
		// "prefix = . (e.g. .roll 2d6)", not "prefix = ..".
		shown = req.T("settings.prefix_shown", "pre", value)
	}
	if o.Values != nil {
		shown = optionWord(req.Router().Translator(), req.Lang, o, value)
		if label := translated(req, "option."+o.Key+"."+value); label != "" && label != shown {
			shown += " (" + label + ")"
		}
	}
	return reply.Text("✅ " + req.T("settings.saved", "name", optionName(req.Router().Translator(), req.Lang, o), "value", shown)), nil
}

func listSettings(ctx context.Context, req *command.Request, hr HouseRules) (*reply.Reply, error) {
	rep := &reply.Reply{}
	rep.Add(reply.B(req.T("settings.title")))
	rep.Add(reply.T(req.T("settings.lang_line", "lang", req.T("lang.name."+req.Lang))+" — "), reply.C("/"+settingsName(req)+" "+req.T("settings.lang_word")+" es|el|en"))
	prefix := req.Settings.Options[command.PrefixOption]
	if prefix == "" {
		prefix = "!"
	}
	rep.Add(reply.T(req.T("settings.prefix_line", "prefix", prefix)))
	rep.Add(reply.T(req.T("settings.zone_line", "zone", req.Location().String())+" — "), reply.C("/"+settingsName(req)+" "+req.T("settings.zone_word")+" "+req.Location().String()))
	opts := req.Router().Options()
	for _, o := range opts {
		label := translated(req, "option."+o.Key)
		if label == "" {
			label = o.Key
		}
		cur, err := currentOption(ctx, req, hr, o)
		if err != nil {
			return nil, err
		}
		name := optionName(req.Router().Translator(), req.Lang, o)
		rep.Add(reply.T("• "+label+": "), reply.B(optionWord(req.Router().Translator(), req.Lang, o, cur)), reply.T(" — "), reply.C("/"+settingsName(req)+" "+name+" "+valueWords(req, o, "|")))
	}
	return rep, nil
}

// currentOption is the value o has in the chat: the one it set, else its
// copy of the system's choice for a house rule, else o's default.
func currentOption(ctx context.Context, req *command.Request, hr HouseRules, o command.Option) (string, error) {
	if v := req.Settings.Options[o.Key]; v != "" || hr == nil || o.Values == nil {
		return req.Option(o.Key), nil
	}
	v, ok, err := hr.HouseRule(ctx, req.Msg.Chat, o.Key)
	if err != nil {
		return "", fmt.Errorf("house rule %s of %s: %w", o.Key, req.Msg.Chat, err)
	}
	if !ok || !slices.Contains(o.Values, v) {
		return req.Option(o.Key), nil
	}
	return v, nil
}

func gmroll(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if req.Args == "" {
		return nil, command.Errorf("gmroll.usage")
	}
	text := rollText(req)
	if p, ok := command.Parse(text, "", ""); ok {
		if c, found := req.Router().Lookup(p.Name); found && c.Name == "gmroll" {
			return nil, command.Errorf("gmroll.usage")
		}
	}
	inner, ok := req.RedispatchRoll(ctx, text)
	if !ok || inner == nil {
		return nil, command.Errorf("gmroll.usage")
	}
	if inner.Error {
		return inner, nil
	}
	secret := *inner
	secret.Lines = append([]reply.Line{{reply.I(req.T("gmroll.private_header", "name", displayName(req.Msg.From)))}}, inner.Lines...)
	secret.Buttons = nil
	return &reply.Reply{
		Lines:    []reply.Line{{reply.T("🤫 " + req.T("gmroll.public", "name", displayName(req.Msg.From)))}},
		Secret:   &secret,
		SecretTo: req.NamedGMs(ctx),
		Command:  "/" + req.Alias + " " + req.Args, // as typed: /secreto, /gmroll
	}, nil
}

// rollText is what /gmroll and /ciega run: their words as a command,
// "/roll …" when they name none ("1d20+5").
func rollText(req *command.Request) string {
	text := req.Args
	if !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "!") {
		word, _, _ := strings.Cut(text, " ")
		if _, ok := req.Router().Lookup(word); ok {
			return "/" + text
		}
		if _, err := dice.Parse(text); err != nil && startsWithLetter(text) {
			// Not dice: a saved roll ("ataque coraza" runs /ataque coraza).
			return "/" + text
		}
		text = "/roll " + text
	}
	return text
}

func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

func displayName(u core.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.ID
}

// settingsName is /ajustes as the chat's language names it (Telegram takes
// Latin command names only, so Greek shows the English /settings; on Matrix
// !ρυθμίσεις works too).
func settingsName(req *command.Request) string {
	if req.Lang == "es" {
		return "ajustes"
	}
	return "settings"
}
