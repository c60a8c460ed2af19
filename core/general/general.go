// Package general holds the commands every chat has whatever it plays:
// /help, /start, /lang, /ajustes, /gmroll and /version.
package general

import (
	"context"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Register adds the general commands. version is what /version prints.
func Register(r *command.Router, version string) {
	r.Register(command.Command{Name: "help", Aliases: []string{"ayuda", "h", "βοήθεια"}, Handler: command.HandlerFunc(help)})
	r.Register(command.Command{Name: "start", Aliases: []string{"empezar", "έναρξη"}, Hidden: true, Handler: command.HandlerFunc(start)})
	r.Register(command.Command{Name: "lang", Aliases: []string{"idioma", "language", "γλώσσα"}, Handler: command.HandlerFunc(lang)})
	r.Register(command.Command{Name: "ajustes", Aliases: []string{"settings", "config", "ρυθμίσεις"}, Handler: command.HandlerFunc(settings)})
	r.Register(command.Command{Name: "gmroll", Aliases: []string{"secreto", "secret", "κρυφή"}, Handler: command.HandlerFunc(gmroll)})
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

func help(_ context.Context, req *command.Request) (*reply.Reply, error) {
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
			rep.Add(styleExample(l)...)
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
)

var settingWords = map[string]string{
	"idioma": optLang, "lang": optLang, "language": optLang, "γλωσσα": optLang,
	"prefijo": optPrefix, "prefix": optPrefix, "προθεμα": optPrefix,
}

func settings(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	fields := strings.Fields(req.Args)
	if len(fields) == 0 {
		return listSettings(req), nil
	}
	key := fold.Key(fields[0])
	if k, ok := settingWords[key]; ok {
		key = k
	}
	if opt, ok := findOption(req.Router().Options(), key); ok && opt.Check != nil && len(fields) > 1 {
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
			return listSettings(req), nil
		}
		l, ok := parseLang(fields[1])
		if !ok {
			return nil, command.Errorf("lang.invalid", "value", fields[1])
		}
		return setLang(ctx, req, l)
	}
	if key == optPrefix {
		if len(fields) < 2 {
			return listSettings(req), nil
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
	opt, ok := findOption(req.Router().Options(), key)
	if !ok {
		names := []string{optLang, optPrefix}
		for _, o := range req.Router().Options() {
			names = append(names, o.Key)
		}
		if s := fold.Closest(fields[0], names, 1); len(s) > 0 {
			return nil, command.Errorf("settings.unknown_suggest", "name", fields[0], "suggestion", s[0])
		}
		return nil, command.Errorf("settings.unknown", "name", fields[0])
	}
	if len(fields) < 2 {
		return nil, command.Errorf("settings.values", "name", opt.Key, "values", valueWords(req, opt, " | "))
	}
	value, ok := optionValue(req, opt, fields[1])
	if !ok {
		return nil, command.Errorf("settings.bad_value", "name", opt.Key, "value", fields[1], "values", valueWords(req, opt, " | "))
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
	}
	opt, ok := findOption(req.Router().Options(), key)
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

func findOption(opts []command.Option, key string) (command.Option, bool) {
	for _, o := range opts {
		if fold.Key(o.Key) == key {
			return o, true
		}
	}
	return command.Option{}, false
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
	return reply.Text("✅ " + req.T("settings.saved", "name", o.Key, "value", shown)), nil
}

func listSettings(req *command.Request) *reply.Reply {
	rep := &reply.Reply{}
	rep.Add(reply.B(req.T("settings.title")))
	rep.Add(reply.T(req.T("settings.lang_line", "lang", req.T("lang.name."+req.Lang))+" — "), reply.C("/"+settingsName(req)+" "+req.T("settings.lang_word")+" es|el|en"))
	prefix := req.Settings.Options[command.PrefixOption]
	if prefix == "" {
		prefix = "!"
	}
	rep.Add(reply.T(req.T("settings.prefix_line", "prefix", prefix)))
	opts := req.Router().Options()
	for _, o := range opts {
		label := translated(req, "option."+o.Key)
		if label == "" {
			label = o.Key
		}
		cur := optionWord(req.Router().Translator(), req.Lang, o, req.Option(o.Key))
		rep.Add(reply.T("• "+label+": "), reply.B(cur), reply.T(" — "), reply.C("/"+settingsName(req)+" "+o.Key+" "+valueWords(req, o, "|")))
	}
	return rep
}

func gmroll(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	if req.Args == "" {
		return nil, command.Errorf("gmroll.usage")
	}
	text := req.Args
	if !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "!") {
		word, _, _ := strings.Cut(text, " ")
		if _, ok := req.Router().Lookup(word); ok {
			text = "/" + text
		} else {
			text = "/roll " + text
		}
	}
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
		Command:  "/gmroll " + req.Args,
	}, nil
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
