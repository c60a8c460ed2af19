package character

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// chatFlag makes /alias act on the chat's saved rolls (GM only).
const chatFlag = "--chat"

func aliasSubcommands() map[string]string {
	return map[string]string{
		"borrar": "delete", "eliminar": "delete", "delete": "delete", "remove": "delete", "διαγραφη": "delete", "σβησε": "delete",
		"lista": "list", "list": "list", "λιστα": "list",
	}
}

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
	switch aliasSubcommands()[fold.Key(args[0])] {
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

// checkAliasName validates a new alias name and that no command has it.
func (s *Service) checkAliasName(req *command.Request, name string) error {
	if err := checkName(name, s.lim.NameLen, "alias"); err != nil {
		return err
	}
	if _, reserved := aliasSubcommands()[fold.Key(name)]; reserved {
		return command.Errorf("alias.reserved", "name", name)
	}
	if cmd, ok := req.Router().Lookup(name); ok {
		return command.Errorf("alias.shadows", "name", name, "command", "/"+cmd.Name)
	}
	return nil
}

func (s *Service) aliasSet(ctx context.Context, req *command.Request, owner, name, text string) (*reply.Reply, error) {
	name = strings.TrimLeft(name, "/!")
	if err := s.checkAliasName(req, name); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(text); n > s.lim.AliasLen {
		return nil, command.Errorf("alias.too_long", "max", s.lim.AliasLen, "got", n)
	}
	for _, r := range text {
		if unicode.IsControl(r) {
			return nil, command.Errorf("alias.not_command", "name", name)
		}
	}
	p, ok := command.Parse(text, req.Settings.Options["prefix"], "")
	if !ok {
		return nil, command.Errorf("alias.not_command", "name", name)
	}
	if err := s.checkTarget(ctx, req, name, p.Name); err != nil {
		return nil, err
	}
	max := s.lim.AliasesPerUser
	if owner == "" {
		max = s.lim.AliasesPerChat
	}
	a := Alias{UserID: owner, Name: name, Key: fold.Key(name), Text: text, Created: s.now()}
	if err := s.store.SetAlias(ctx, req.Msg.Chat, a, max); err != nil {
		if errors.Is(err, ErrQuota) {
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
	return reply.Text(tr(req, key, "name", name, "text", text)), nil
}

// checkTarget makes sure a saved roll starts with a command or another
// saved roll, suggesting the closest command otherwise.
func (s *Service) checkTarget(ctx context.Context, req *command.Request, name, target string) error {
	if _, ok := req.Router().Lookup(target); ok {
		return nil
	}
	for _, owner := range []string{req.Msg.From.ID, ""} {
		_, err := s.store.Alias(ctx, req.Msg.Chat, owner, fold.Key(target))
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrNotFound) {
			return internal("get alias", err)
		}
	}
	if sug := fold.Closest(target, req.Router().AliasNames(), 1); len(sug) > 0 {
		return command.Errorf("alias.target_unknown_suggest", "name", name, "target", target, "suggestion", "/"+sug[0])
	}
	return command.Errorf("alias.target_unknown", "name", name, "target", target)
}

func (s *Service) aliasDelete(ctx context.Context, req *command.Request, owner, name string) (*reply.Reply, error) {
	name = strings.TrimLeft(name, "/!")
	err := s.store.DeleteAlias(ctx, req.Msg.Chat, owner, fold.Key(name))
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, command.Errorf("alias.unknown", "name", name)
	case err != nil:
		return nil, internal("delete alias", err)
	}
	return reply.Text(tr(req, "alias.deleted", "name", name)), nil
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
		return reply.Text(tr(req, "alias.list_empty")), nil
	}
	rep := &reply.Reply{}
	for _, part := range []struct {
		title string
		list  []Alias
	}{{"alias.list_mine", mine}, {"alias.list_chat", chat}} {
		if len(part.list) == 0 {
			continue
		}
		rep.Add(reply.B(tr(req, part.title, "count", len(part.list))))
		for _, a := range part.list {
			rep.Add(reply.T("• "), reply.B("/"+a.Name), reply.T(" → "), reply.C(a.Text))
		}
	}
	return rep, nil
}

// ExpandAlias turns a saved roll into the command it stands for
// (command.AliasExpander): the user's own alias first, then the chat's.
// {1}, {2}… are replaced by the words after the alias and {*} by all of
// them; an alias without placeholders gets the words appended.
func (s *Service) ExpandAlias(ctx context.Context, chat core.ChatRef, userID, name, args string) (string, bool, error) {
	key := fold.Key(name)
	if key == "" || utf8.RuneCountInString(name) > s.lim.NameLen {
		return "", false, nil
	}
	var a Alias
	var err error
	for _, owner := range []string{userID, ""} {
		a, err = s.store.Alias(ctx, chat, owner, key)
		if !errors.Is(err, ErrNotFound) {
			break
		}
	}
	switch {
	case errors.Is(err, ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, internal("get alias", err)
	}
	text, err := Expand(a, args)
	if err != nil {
		return "", false, err
	}
	return text, true, nil
}

// Expand fills the placeholders of a saved roll with args.
func Expand(a Alias, args string) (string, error) {
	words := strings.Fields(args)
	var b strings.Builder
	used, placeholders := 0, false
	t := a.Text
	for len(t) > 0 {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:i])
		t = t[i:]
		j := strings.IndexByte(t, '}')
		if j < 0 {
			b.WriteString(t)
			break
		}
		inner := t[1:j]
		switch n, err := strconv.Atoi(inner); {
		case inner == "*":
			placeholders = true
			used = len(words)
			b.WriteString(strings.Join(words, " "))
		case err == nil && n >= 1 && n <= 9:
			placeholders = true
			if n > len(words) {
				return "", command.Errorf("alias.missing_arg", "name", a.Name, "n", n, "text", a.Text)
			}
			used = max(used, n)
			b.WriteString(words[n-1])
		default:
			b.WriteString(t[:j+1])
		}
		t = t[j+1:]
	}
	out := b.String()
	switch {
	case !placeholders && len(words) > 0:
		out += " " + strings.Join(words, " ")
	case placeholders && used < len(words):
		return "", command.Errorf("alias.too_many_args", "name", a.Name, "n", used, "text", a.Text)
	}
	return out, nil
}
