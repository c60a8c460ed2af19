// Package alias keeps saved rolls: "/alias ataque /dh ataque espada-larga
// vs {1}" saves a command under a name of the user's (or, for a GM with
// --chat, of the whole chat), and "/ataque coraza" runs it
// (command.AliasExpander).
package alias

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/sheet"
)

// Limits are the quotas of saved rolls. A zero field takes its default
// (DefaultLimits).
type Limits struct {
	PerUser int // saved rolls of one user in one chat
	PerChat int // saved rolls of the whole chat
	Len     int // characters of what a saved roll stands for
	NameLen int // characters of a saved roll's name
}

// DefaultLimits are the quotas where Limits leaves a zero.
func DefaultLimits() Limits { return Limits{PerUser: 20, PerChat: 30, Len: 200, NameLen: 32} }

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct {
		v   *int
		def int
	}{{&l.PerUser, d.PerUser}, {&l.PerChat, d.PerChat}, {&l.Len, d.Len}, {&l.NameLen, d.NameLen}} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	return l
}

// Options configure a Service.
type Options struct {
	Limits Limits
	Now    func() time.Time // nil: time.Now
}

// Service implements /alias and command.AliasExpander on top of a Store.
type Service struct {
	store Store
	lim   Limits
	now   func() time.Time
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	return &Service{store: store, lim: o.Limits.withDefaults(), now: command.Clock(o.Now)}
}

// Register adds /alias to r. The router must have s as its Aliases for a
// saved roll to run.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "alias", Aliases: []string{"atajo", "συντόμευση"}, Handler: command.WithHints(s.alias, command.PrefixHint), Subs: subs})
}

// internal wraps a store failure once; the router logs it and shows the
// user the generic internal-error message.
func internal(op string, err error) error { return fmt.Errorf("alias %s: %w", op, err) }

// chatFlag makes /alias act on the chat's saved rolls (GM only).
const chatFlag = "--chat"

// subs are /alias's sub-commands in es, el and en; any other first word
// is the name of a saved roll.
var subs = command.NewSubs(
	command.Sub{Name: "delete", Words: map[string][]string{"es": {"borrar", "eliminar"}, "el": {"διαγραφή", "σβήσε"}, "en": {"delete", "remove"}}},
	command.Sub{Name: "list", Words: map[string][]string{"es": {"lista"}, "el": {"λίστα"}, "en": {"list"}}},
)

// alias handles /alias: list, set and delete saved rolls.
func (s *Service) alias(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	var args []string
	forChat := false
	for _, a := range strings.Fields(req.Args) {
		if strings.EqualFold(a, chatFlag) && !forChat && len(args) < 2 {
			forChat = true
			continue
		}
		args = append(args, a)
	}
	if len(args) == 0 {
		return s.aliasList(ctx, req)
	}
	owner := req.Msg.From.ID
	if forChat {
		if !req.IsGM {
			return nil, command.Errorf("alias.chat_only_gm")
		}
		owner = ""
	}
	switch sub, _ := subs.Lookup(args[0]); sub {
	case "list":
		if len(args) == 1 {
			return s.aliasList(ctx, req)
		}
	case "delete":
		if len(args) == 2 {
			return s.aliasDelete(ctx, req, owner, args[1])
		}
		return nil, command.Errorf("alias.delete_usage")
	}
	if len(args) < 2 {
		return nil, command.Errorf("alias.usage")
	}
	return s.aliasSet(ctx, req, owner, args[0], strings.Join(args[1:], " "))
}

// maxPlaceholder is the highest numbered placeholder a saved roll fills:
// {1} … {9} (expand).
const maxPlaceholder = 9

// numberedRe finds the numbered placeholders of a saved roll, signs and
// leading zeros included ("{-1}", "{01}").
var numberedRe = regexp.MustCompile(`\{([+-]?[0-9]+)\}`)

// narrow turns the full-width forms of ASCII (U+FF01–FF5E, typed by East
// Asian input methods: "／ｒ", "ｆｏｏ") into ASCII. A saved roll's name is
// stored narrowed, so that "ｒ" is the command /r's name and is refused as
// one, and a full-width name typed later finds the saved roll.
func narrow(s string) string {
	if !strings.ContainsFunc(s, isWide) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isWide(r) {
			return r - 0xFF01 + '!'
		}
		return r
	}, s)
}

func isWide(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// aliasKeys are the keys a typed name may have been stored under: its
// narrowed key first, then (for a saved roll stored before names were
// narrowed) its own.
func aliasKeys(name string) []string {
	k, raw := fold.Key(narrow(name)), fold.Key(name)
	if k == raw {
		return []string{k}
	}
	return []string{k, raw}
}

// checkAliasName validates a new alias name and that no command has it or
// looks like it ("сheck" with a Cyrillic с beside /check).
func (s *Service) checkAliasName(req *command.Request, name string) error {
	if err := sheet.CheckName(name, s.lim.NameLen, "alias"); err != nil {
		return err
	}
	if err := sheet.CheckNewName(name, "alias"); err != nil {
		return err // "/alias . /roll 1d6" made the command "/."
	}
	if _, reserved := subs.Lookup(name); reserved {
		return command.Errorf("alias.reserved", "name", name)
	}
	if cmd, ok := req.Router().Lookup(name); ok {
		return command.Errorf("alias.shadows", "name", name, "command", "/"+cmd.Name)
	}
	// An ASCII name is what it looks like ("rn" is not /m); one with
	// other letters may be drawn as a command's name.
	if !isASCII(name) {
		for _, n := range req.Router().AliasNames() {
			if fold.LookAlike(name, n) {
				cmd, _ := req.Router().Lookup(n)
				return command.Errorf("alias.lookalike_command", "name", name, "command", "/"+cmd.Name, "other", "/"+n)
			}
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (s *Service) aliasSet(ctx context.Context, req *command.Request, owner, name, text string) (*reply.Reply, error) {
	name = strings.TrimLeft(narrow(name), "/!")
	if err := s.checkAliasName(req, name); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(text); n > s.lim.Len {
		return nil, command.Errorf("alias.too_long", "max", s.lim.Len, "got", n)
	}
	// One line without control or invisible characters: a saved roll is
	// shown in /alias lists beside the bot's own lines.
	for _, r := range text {
		if unicode.IsControl(r) {
			return nil, command.Errorf("alias.not_command", "name", name)
		}
	}
	if fold.Clean(text) != strings.Join(strings.Fields(text), " ") {
		return nil, command.Errorf("alias.not_command", "name", name)
	}
	p, ok := command.Parse(text, req.Settings.Options[command.PrefixOption], "")
	if !ok {
		return nil, command.Errorf("alias.not_command", "name", name)
	}
	// "{0}", "{10}": a number in braces that expand would leave as it is
	// (only {1}…{9} are filled), so the saved roll could never work.
	for _, m := range numberedRe.FindAllStringSubmatch(text, -1) {
		if n, err := strconv.Atoi(m[1]); err != nil || n < 1 || n > maxPlaceholder {
			return nil, command.Errorf("alias.bad_placeholder", "got", fold.Cut(m[0], 24), "max", maxPlaceholder)
		}
	}
	if err := s.checkTarget(ctx, req, name, p.Name); err != nil {
		return nil, err
	}
	if err := s.checkLoop(ctx, req, name, p.Name); err != nil {
		return nil, err
	}
	max := s.lim.PerUser
	if owner == "" {
		max = s.lim.PerChat
	}
	a := Alias{UserID: owner, Name: name, Key: fold.Key(name), Text: text, Created: s.now()}
	if err := s.store.SetAlias(ctx, req.Msg.Chat, a, max); err != nil {
		if errors.Is(err, core.ErrQuota) {
			if owner == "" {
				return nil, command.Errorf("alias.chat_quota", "count", max)
			}
			return nil, command.Errorf("alias.quota", "count", max)
		}
		return nil, internal("set alias", err)
	}
	key := "alias.saved"
	if owner == "" {
		key = "alias.saved_chat"
	}
	return reply.Text(req.TP(key, "name", name, "text", text)), nil
}

// checkTarget makes sure a saved roll starts with a command or another
// saved roll, suggesting the closest command otherwise.
func (s *Service) checkTarget(ctx context.Context, req *command.Request, name, target string) error {
	if fold.Key(narrow(target)) == fold.Key(name) {
		return command.Errorf("error.alias_loop", "name", "/"+name, "chain", "/"+name+" → /"+target)
	}
	if _, ok := req.Router().Lookup(target); ok {
		return nil
	}
	for _, owner := range []string{req.Msg.From.ID, ""} {
		for _, key := range aliasKeys(target) {
			_, err := s.store.Alias(ctx, req.Msg.Chat, owner, key)
			if err == nil {
				return nil
			}
			if !errors.Is(err, core.ErrNotFound) {
				return internal("get alias", err)
			}
		}
	}
	if sug := fold.Closest(target, req.Router().AliasNames(), 1); len(sug) > 0 {
		return command.Errorf("alias.target_unknown_suggest", "name", name, "target", target, "suggestion", "/"+sug[0])
	}
	return command.Errorf("alias.target_unknown", "name", name, "target", target)
}

// maxWalk bounds the saved rolls checkLoop follows: more than any chat
// holds in a chain with the default quotas, few enough to read at once.
const maxWalk = 64

// checkLoop refuses a saved roll name whose target leads back to it
// through the saved rolls stored in the chat ("/alias b /a" when /a is
// "/b"), as the user saving it would run them (their own first, then
// the chat's), or into a loop of older ones: it would only ever answer
// error.alias_loop. It also refuses a chain of more saved rolls than one
// message expands (Limits.MaxDepth, counting the new one) with
// alias.too_deep: it would only ever answer error.alias_depth. The walk
// stops at a command, at a name that is no saved roll, and after maxWalk
// saved rolls. The use-time checks stay: another user's own saved rolls,
// or a saved roll changed later, may still close a loop or deepen a chain.
func (s *Service) checkLoop(ctx context.Context, req *command.Request, name, target string) error {
	chain := []string{name}
	path := func(names []string, more bool) string {
		out := make([]string, 0, len(names)+1)
		for _, c := range names {
			out = append(out, "/"+c)
		}
		if more {
			out = append(out, "…")
		}
		return strings.Join(out, " → ")
	}
	refuse := func(who string) error {
		return command.Errorf("error.alias_loop", "name", "/"+who, "chain", path(append(chain, target), false))
	}
	max := req.Router().Limits().MaxDepth
	deep := func() error {
		all := append(chain, target)
		shown, more := all, false
		if len(all) > max+2 {
			shown, more = all[:max+2], true
		}
		return command.Errorf("alias.too_deep", "name", name, "count", len(chain), "max", max, "chain", path(shown, more))
	}
	for range maxWalk {
		key := fold.Key(narrow(target))
		for _, prev := range chain {
			if fold.Key(narrow(prev)) == key {
				return refuse(prev)
			}
		}
		if _, ok := req.Router().Lookup(target); ok {
			break
		}
		var a Alias
		err := core.ErrNotFound
		for _, owner := range []string{req.Msg.From.ID, ""} {
			for _, k := range aliasKeys(target) {
				if a, err = s.store.Alias(ctx, req.Msg.Chat, owner, k); !errors.Is(err, core.ErrNotFound) {
					break
				}
			}
			if !errors.Is(err, core.ErrNotFound) {
				break
			}
		}
		if errors.Is(err, core.ErrNotFound) {
			break
		}
		if err != nil {
			return internal("get alias", err)
		}
		p, ok := command.Parse(a.Text, req.Settings.Options[command.PrefixOption], "")
		if !ok {
			break
		}
		chain = append(chain, target)
		target = p.Name
	}
	if len(chain) > max {
		return deep()
	}
	return nil
}

func (s *Service) aliasDelete(ctx context.Context, req *command.Request, owner, name string) (*reply.Reply, error) {
	name = strings.TrimLeft(name, "/!／！")
	var err error
	for _, key := range aliasKeys(name) {
		if err = s.store.DeleteAlias(ctx, req.Msg.Chat, owner, key); !errors.Is(err, core.ErrNotFound) {
			break
		}
	}
	switch {
	case errors.Is(err, core.ErrNotFound):
		return nil, command.Errorf("alias.unknown", "name", name)
	case err != nil:
		return nil, internal("delete alias", err)
	}
	return reply.Text(req.TP("alias.deleted", "name", name)), nil
}

func (s *Service) aliasList(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	mine, err := s.store.ListAliases(ctx, req.Msg.Chat, req.Msg.From.ID)
	if err != nil {
		return nil, internal("list aliases", err)
	}
	chat, err := s.store.ListAliases(ctx, req.Msg.Chat, "")
	if err != nil {
		return nil, internal("list aliases", err)
	}
	if len(mine)+len(chat) == 0 {
		return reply.Text(req.TP("alias.list_empty")), nil
	}
	rep := &reply.Reply{}
	for _, part := range []struct {
		title string
		list  []Alias
	}{{"alias.list_mine", mine}, {"alias.list_chat", chat}} {
		if len(part.list) == 0 {
			continue
		}
		rep.Add(reply.B(req.TP(part.title, "count", len(part.list))))
		for _, a := range part.list {
			rep.Add(reply.T("• "), reply.B("/"+a.Name), reply.T(" → "), reply.C(a.Text))
		}
	}
	return rep, nil
}

// ExpandAlias turns a saved roll into the command it stands for
// (command.AliasExpander): the user's own alias first, then the chat's.
// {1}, {2}… are replaced by the words after the alias and {*} by all of
// them; an alias without placeholders gets the words appended. A text
// longer than max characters is refused before it is built.
func (s *Service) ExpandAlias(ctx context.Context, chat core.ChatRef, userID, name, args string, max int) (string, bool, error) {
	if fold.Key(name) == "" || utf8.RuneCountInString(name) > s.lim.NameLen {
		return "", false, nil
	}
	var a Alias
	err := core.ErrNotFound
	for _, owner := range []string{userID, ""} {
		for _, key := range aliasKeys(name) {
			if a, err = s.store.Alias(ctx, chat, owner, key); !errors.Is(err, core.ErrNotFound) {
				break
			}
		}
		if !errors.Is(err, core.ErrNotFound) {
			break
		}
	}
	switch {
	case errors.Is(err, core.ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, internal("get alias", err)
	}
	text, err := ExpandMax(a, args, max)
	if err != nil {
		return "", false, err
	}
	return text, true, nil
}

// ExpandMax fills the placeholders of a saved roll with args, refusing,
// when max > 0, a text longer than max characters
// (error.alias_expansion_too_long): the length is computed first, so that
// a saved roll full of {*} never builds a huge text.
func ExpandMax(a Alias, args string, max int) (string, error) {
	words := strings.Fields(args)
	n, err := expand(a, words, nil)
	if err != nil {
		return "", err
	}
	if max > 0 && n > max {
		return "", command.Errorf("error.alias_expansion_too_long", "name", a.Name, "max", max, "got", n)
	}
	var b strings.Builder
	b.Grow(n)
	_, err = expand(a, words, &b)
	return b.String(), err
}

// expand walks the saved roll's text with words for its placeholders:
// it returns the length in characters of the result and, when b is not
// nil, writes it to b. One walk measures, the next one builds.
func expand(a Alias, words []string, b *strings.Builder) (int, error) {
	size := 0
	write := func(s string) {
		size += utf8.RuneCountInString(s)
		if b != nil {
			b.WriteString(s)
		}
	}
	joined := 0 // characters of all the words joined by spaces
	for i, w := range words {
		if i > 0 {
			joined++
		}
		joined += utf8.RuneCountInString(w)
	}
	all := func() {
		if b == nil {
			size += joined
			return
		}
		write(strings.Join(words, " "))
	}
	used, placeholders := 0, false
	t := a.Text
	for len(t) > 0 {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			write(t)
			break
		}
		write(t[:i])
		t = t[i:]
		j := strings.IndexByte(t, '}')
		if j < 0 {
			write(t)
			break
		}
		inner := t[1:j]
		if k := strings.IndexByte(inner, '{'); k >= 0 {
			// A brace opened before this one closes: a grouped roll
			// holding a placeholder ({1d20+{1}, 1d20+{1}}kh1). The outer
			// brace is text; the walk goes on from the inner one.
			write(t[:k+1])
			t = t[k+1:]
			continue
		}
		switch n, err := strconv.Atoi(inner); {
		case inner == "*":
			placeholders = true
			used = len(words)
			all()
		case err == nil && n >= 1 && n <= 9:
			placeholders = true
			if n > len(words) {
				return 0, missingArg(a, words)
			}
			used = max(used, n)
			write(words[n-1])
		default:
			write(t[:j+1])
		}
		t = t[j+1:]
	}
	switch {
	case !placeholders && len(words) > 0:
		write(" ")
		all()
	case placeholders && used < len(words):
		return 0, command.Errorf("alias.too_many_args", "name", a.Name, "n", used, "text", a.Text)
	}
	return size, nil
}

// missingArg is alias.missing_arg for a saved roll given too few words:
// besides its name and text it carries "filled", the text with the words
// given in their places and the missing ones left as "{n}", and "missing",
// those placeholders in order, so the router can offer a whole line to
// type (command.MissingArgExample).
func missingArg(a Alias, words []string) error {
	seen := map[string]bool{}
	var missing []string
	filled := placeholderRe.ReplaceAllStringFunc(a.Text, func(m string) string {
		if m == "{*}" {
			return strings.Join(words, " ")
		}
		n, _ := strconv.Atoi(m[1 : len(m)-1])
		if n <= len(words) {
			return words[n-1]
		}
		if !seen[m] {
			seen[m] = true
			missing = append(missing, m)
		}
		return m
	})
	sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
	err := command.Errorf("alias.missing_arg", "name", a.Name, "text", a.Text, "filled", filled)
	if ue, ok := err.(*command.UserError); ok {
		ue.Args["missing"] = missing
	}
	return err
}

// placeholderRe is a placeholder the expander fills: {1}…{9} or {*}.
var placeholderRe = regexp.MustCompile(`\{([1-9]|\*)\}`)
