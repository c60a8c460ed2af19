package sheet

import (
	"context"
	"errors"
	"strings"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Sub-commands of /pj, by folded spelling in es, el and en.
const (
	subCreate = "create"
	subList   = "list"
	subRename = "rename"
	subDelete = "delete"
	subUse    = "use"
	subSet    = "set"
	subUnset  = "unset"
	subSystem = "system"
	subShow   = "show"
	subUndo   = "undo"
	// subMarks is in marks.go.
)

// pjSubs are /pj's sub-commands in es, el and en.
var pjSubs = command.NewSubs(
	command.Sub{Name: subCreate, Words: map[string][]string{"es": {"crear", "nuevo"}, "el": {"δημιουργία", "νέος"}, "en": {"create", "new"}}},
	command.Sub{Name: subList, Words: map[string][]string{"es": {"lista"}, "el": {"λίστα"}, "en": {"list", "ls"}}},
	command.Sub{Name: subRename, Words: map[string][]string{"es": {"renombrar"}, "el": {"μετονομασία"}, "en": {"rename"}}},
	command.Sub{Name: subDelete, Words: map[string][]string{"es": {"borrar", "eliminar"}, "el": {"διαγραφή"}, "en": {"delete"}}},
	command.Sub{Name: subUse, Words: map[string][]string{"es": {"usar"}, "el": {"χρήση"}, "en": {"use"}}},
	command.Sub{Name: subSet, Words: map[string][]string{"es": {"poner"}, "el": {"όρισε"}, "en": {"set"}}},
	command.Sub{Name: subUnset, Words: map[string][]string{"es": {"quitar"}, "el": {"αφαίρεση", "αφαίρεσε"}, "en": {"unset"}}},
	command.Sub{Name: subSystem, Words: map[string][]string{"es": {"sistema"}, "el": {"σύστημα"}, "en": {"system"}}},
	command.Sub{Name: subShow, Words: map[string][]string{"es": {"ver"}, "el": {"δείξε"}, "en": {"show"}}},
	command.Sub{Name: subUndo, Words: map[string][]string{"es": {"deshacer"}, "el": {"αναίρεση"}, "en": {"undo"}}},
	command.Sub{Name: subMarks, Words: map[string][]string{"es": {"mejoras"}, "el": {"βελτιώσεις"}, "en": {"marks", "improvements"}}},
)

// isSetVerb reports whether w is a verb a player may write for "set"
// that /pj does not take (it takes poner, set and όρισε): pon, βάλε…
func isSetVerb(w string) bool {
	switch fold.Key(w) {
	case "pon", "fija", "fijar", "establecer", "establece", "cambiar", "cambia", "asignar",
		"put", "change", "assign", "give",
		"βαλε", "βαζω", "θεσε", "αλλαξε", "αλλαγη", "ορισμος":
		return true
	}
	return false
}

// Register adds /pj and its damage button (damage.go) to r. The router must have s as its Sheets for a
// roll to read a sheet.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "pj", Aliases: []string{"char", "personaje", "χαρακτήρας", "χαρ", "ήρωας"},
		Handler: command.WithHints(s.pj, command.PrefixHint), Subs: pjSubs})
	r.HandleAction(reply.ActDamage, s.pressDamage)
	r.RegisterOption(systemOption())
}

// pj handles /pj and its sub-commands.
func (s *Service) pj(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.Fields(req.Args)
	if len(args) == 0 {
		c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, "")
		if err != nil {
			return nil, err
		}
		return s.show(req, c), nil
	}
	sub, ok := pjSubs.Lookup(args[0])
	if !ok {
		// "/pj pv -3", "/pj @Drake pv -2d6", "/pj estado +envenenado 2".
		who, rest := target(args)
		if len(rest) > 1 && isConditionWord(rest[0]) {
			return s.pjCondition(ctx, req, who, rest[1:])
		}
		if len(rest) == 2 && isDelta(rest[1]) {
			if rep, ok := foeHP(ctx, req, who, rest[0], rest[1]); ok {
				return rep, nil
			}
			return s.pjChange(ctx, req, who, rest[0], rest[1])
		}
		if len(args) == 1 {
			// /pj Drake shows Drake.
			c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, args[0])
			if err != nil {
				return nil, err
			}
			return s.show(req, c), nil
		}
		if len(rest) >= 2 {
			// "/pj fuerza 4", "/pj βάλε δύναμη 4": a value without the
			// verb, or with one /pj does not know.
			if isSetVerb(rest[0]) && len(rest) >= 3 {
				rest = rest[1:]
			}
			if who != "" {
				rest = append([]string{who}, rest...)
			}
			return nil, command.Errorf("character.set_verb", "rest", strings.Join(rest, " "))
		}
		return nil, command.Errorf("character.usage")
	}
	rest := args[1:]
	switch sub {
	case subCreate:
		return s.pjCreate(ctx, req, rest)
	case subList:
		return s.pjList(ctx, req)
	case subRename:
		return s.pjRename(ctx, req, rest)
	case subDelete:
		return s.pjDelete(ctx, req, rest)
	case subUse:
		return s.pjUse(ctx, req, rest)
	case subSet:
		return s.pjSet(ctx, req, rest)
	case subUnset:
		return s.pjUnset(ctx, req, rest)
	case subSystem:
		return s.pjSystem(ctx, req, rest)
	case subMarks:
		return s.pjMarks(ctx, req, rest)
	case subUndo:
		if len(rest) > 0 {
			return nil, command.Errorf("character.usage")
		}
		return s.pjUndo(ctx, req)
	default: // subShow
		who := ""
		if len(rest) > 0 {
			who = rest[0]
		}
		c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, who)
		if err != nil {
			return nil, err
		}
		return s.show(req, c), nil
	}
}

// CheckCharacterName validates a new character name.
func (s *Service) CheckCharacterName(name string) error {
	if err := CheckName(name, s.lim.NameLen, "character"); err != nil {
		return err
	}
	if _, reserved := pjSubs.Lookup(name); reserved {
		return command.Errorf("character.name_reserved", "name", name)
	}
	return nil
}

func (s *Service) pjCreate(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, command.Errorf("character.create_usage")
	}
	name := fold.StripAt(args[0])
	if err := s.CheckCharacterName(name); err != nil {
		return nil, err
	}
	if err := CheckNewName(name, "character"); err != nil {
		return nil, err
	}
	system := ""
	if len(args) == 2 {
		var ok bool
		if system, ok = ParseSystem(args[1]); !ok {
			return nil, command.Errorf("character.system_unknown", "name", args[1], "systems", SystemList())
		}
	} else {
		system = defaultSystem(req)
	}
	list, err := s.store.ListCharacters(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list", err)
	}
	if err := lookAlike(list, name, 0); err != nil {
		return nil, err
	}
	now := s.now()
	c := Character{
		Chat: req.Msg.Chat, Owner: req.Msg.From.ID, OwnerName: fold.UserName(req.Msg.From.Name),
		Name: name, Key: NameKey(name), System: system, Created: now, Updated: now,
		Values: s.startValues(req, system),
	}
	c, err = s.store.CreateCharacter(ctx, req.Msg.Chat, c, Quota{PerOwner: s.lim.CharactersPerUser, PerChat: s.lim.CharactersPerChat})
	switch {
	case errors.Is(err, core.ErrExists):
		return nil, s.nameTaken(ctx, req, name)
	case errors.Is(err, core.ErrQuota):
		return nil, s.quotaError(ctx, req)
	case err != nil:
		return nil, internal("create", err)
	}
	if len(c.Values) > 0 {
		// The sheet the system's file starts it with, and how to change it.
		rep := s.show(req, c)
		rep.Lines = append([]reply.Line{{reply.T(req.TP("character.created_sheet", "name", c.Name,
			"system", systemDisplay(req.Lang, c.System), "suggestion", c.Values[0].Name))}}, rep.Lines[1:]...)
		return rep, nil
	}
	return reply.Text(req.TP("character.created", "name", c.Name)), nil
}

// nameTaken is the error for a name whose key another character of the
// chat has: plain "exists", or, when that character's name only looks like
// this one (a full-width or Cyrillic letter), which name it is.
func (s *Service) nameTaken(ctx context.Context, req *command.Request, name string) error {
	other, err := s.store.Character(ctx, req.Msg.Chat, NameKey(name))
	if err == nil && fold.Key(other.Name) != fold.Key(name) {
		return command.Errorf("character.exists_lookalike", "name", fold.Clean(name), "other", fold.Clean(other.Name))
	}
	return command.Errorf("character.exists", "name", name)
}

// lookAlike refuses name when a character of list other than the one
// with id except (0: none) looks like it in capitals
// (fold.CapitalSkeleton: Cyrillic "Мira" beside "Mira"); one with the
// same NameKey the store refuses itself (ErrExists, nameTaken).
func lookAlike(list []Character, name string, except int64) error {
	k := fold.CapitalSkeleton(name)
	for _, c := range list {
		if c.ID != except && c.Key != NameKey(name) && fold.CapitalSkeleton(c.Name) == k {
			return command.Errorf("character.exists_lookalike", "name", fold.Clean(name), "other", fold.Clean(c.Name))
		}
	}
	return nil
}

// quotaError says which character quota a refused create reached.
func (s *Service) quotaError(ctx context.Context, req *command.Request) error {
	list, err := s.store.ListCharacters(ctx, req.Msg.Chat)
	if err == nil && len(list) >= s.lim.CharactersPerChat {
		return command.Errorf("character.chat_quota", "count", s.lim.CharactersPerChat)
	}
	return command.Errorf("character.quota", "count", s.lim.CharactersPerUser)
}

func (s *Service) pjList(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	list, err := s.store.ListCharacters(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list", err)
	}
	if len(list) == 0 {
		return reply.Text(req.TP("character.list_empty")), nil
	}
	rep := (&reply.Reply{}).Add(reply.B(req.TP("character.list_title", "count", len(list))))
	for _, c := range list {
		line := reply.Line{reply.T("• "), reply.B(fold.Clean(c.Name))}
		if c.System != "" {
			line = append(line, reply.T(" · "+systemDisplay(req.Lang, c.System)))
		}
		line = append(line, reply.I(" · "+req.TP("character.owner", "name", OwnerLabel(c))))
		if c.Active && c.Owner == req.Msg.From.ID {
			line = append(line, reply.T(" ⭐"))
		}
		rep.Lines = append(rep.Lines, line)
	}
	return rep, nil
}

func (s *Service) pjRename(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	var who, name string
	switch len(args) {
	case 1:
		name = args[0]
	case 2:
		who, name = args[0], args[1]
	default:
		return nil, command.Errorf("character.rename_usage")
	}
	name = fold.StripAt(name)
	if err := s.CheckCharacterName(name); err != nil {
		return nil, err
	}
	if err := CheckNewName(name, "character"); err != nil {
		return nil, err
	}
	// Read before the edit's transaction: the check is against the others.
	list, err := s.store.ListCharacters(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list", err)
	}
	var old string
	_, err = s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		if err := lookAlike(list, name, c.ID); err != nil {
			return err
		}
		old = c.Name
		c.Name, c.Key = name, NameKey(name)
		return nil
	})
	if ue := (*command.UserError)(nil); errors.As(err, &ue) && ue.Key == "character.exists" {
		return nil, s.nameTaken(ctx, req, name)
	}
	if err != nil {
		return nil, err
	}
	return reply.Text(req.TP("character.renamed", "old", old, "name", name)), nil
}

func (s *Service) pjDelete(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if len(args) != 1 {
		return nil, command.Errorf("character.delete_usage")
	}
	c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, args[0])
	if err != nil {
		return nil, err
	}
	if !canEdit(c, req.Msg.From.ID, req.IsGM) {
		return nil, notYours(c)
	}
	if err := s.store.DeleteCharacter(ctx, req.Msg.Chat, c.ID); err != nil {
		if errors.Is(err, core.ErrNotFound) {
			return nil, command.Errorf("character.unknown", "name", c.Name)
		}
		return nil, internal("delete", err)
	}
	rep := reply.Text(req.TP("character.deleted", "name", c.Name))
	if err := s.keepUndo(ctx, req.Msg.Chat, req.Msg.From.ID, c); err != nil {
		return rep, nil // the deletion stands; the reply offers no undo
	}
	rep.Add(reply.I(req.TP("character.undo_hint", "minutes", int(core.UndoFor/time.Minute))))
	return rep, nil
}

func (s *Service) pjUse(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	if len(args) != 1 {
		return nil, command.Errorf("character.use_usage")
	}
	c, err := s.resolve(ctx, req.Msg.Chat, req.Msg.From.ID, args[0])
	if err != nil {
		return nil, err
	}
	if c.Owner != req.Msg.From.ID {
		return nil, command.Errorf("character.use_not_yours", "name", c.Name, "owner", OwnerLabel(c))
	}
	if err := s.store.SetActive(ctx, req.Msg.Chat, req.Msg.From.ID, c.ID); err != nil {
		if errors.Is(err, core.ErrNotFound) {
			return nil, command.Errorf("character.unknown", "name", c.Name)
		}
		return nil, internal("set active", err)
	}
	return reply.Text(req.TP("character.using", "name", c.Name)), nil
}

// target splits an optional leading @Character off args.
func target(args []string) (who string, rest []string) {
	if len(args) > 0 && strings.HasPrefix(args[0], "@") {
		return args[0], args[1:]
	}
	return "", args
}

func (s *Service) pjSet(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	who, args := target(args)
	if words, quoted, ok := command.Words(req.Args); ok && len(words) > 1 {
		words, quoted = words[1:], quoted[1:] // the sub-command
		if len(words) > 0 && !quoted[0] && strings.HasPrefix(words[0], "@") {
			words, quoted = words[1:], quoted[1:]
		}
		pw, pq, ok, err := s.tablePairs(req, words, quoted)
		if ok {
			return s.pjSetMany(ctx, req, who, pw, pq)
		}
		if err != nil && len(words) > 2 {
			return nil, err
		}
		if isMulti(words, quoted) {
			return s.pjSetMany(ctx, req, who, words, quoted)
		}
		if len(words) == 2 && quoted[1] {
			// "/pj poner notas "dos goblins"": the text, without its quotes.
			args = words
		}
	}
	if len(args) == 1 {
		// "/pj set fuerza=4" is accepted too.
		if k, v, ok := strings.Cut(args[0], "="); ok {
			args = []string{k, v}
		}
	}
	if len(args) < 2 {
		return nil, command.Errorf("character.set_usage")
	}
	name, text := args[0], strings.Join(args[1:], " ")
	if f, ok := s.checked(name); ok && len(args) > 2 {
		text = tableText(req, f, args[1:]) // "arma espada larga": espada-larga
	}
	if err := CheckValueName(name, s.lim.NameLen); err != nil {
		return nil, err
	}
	if err := CheckNewName(name, "value"); err != nil {
		return nil, err
	}
	// Refused here, not in CheckValueName: an import keeps such a value
	// stored before, so that a chat's own export is never refused.
	if dice.ReadsAsKeyword(name) {
		return nil, command.Errorf("character.value_name_keyword", "name", name)
	}
	if err := CheckValueText(text, s.lim.ValueLen); err != nil {
		return nil, err
	}
	if err := s.Validate(req, name, text); err != nil {
		return nil, err
	}
	var v Value
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		if err := s.setValue(c, name, text); err != nil {
			return err
		}
		if req.Msg.From.ID == c.Owner && req.Msg.From.Name != "" {
			c.OwnerName = fold.UserName(req.Msg.From.Name)
		}
		v = c.Values[s.valueIndex(*c, name)]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return reply.Text(req.TP("character.value_set", "character", c.Name, "name", s.keyName(req, v.Name), "value", v.Text)), nil
}

func (s *Service) pjUnset(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	who, args := target(args)
	if len(args) != 1 {
		return nil, command.Errorf("character.unset_usage")
	}
	var gone Value
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		i := s.valueIndex(*c, args[0])
		if i < 0 {
			return unknownValue(*c, args[0])
		}
		gone = c.Values[i]
		c.Values = append(c.Values[:i:i], c.Values[i+1:]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return reply.Text(req.TP("character.value_unset", "character", c.Name, "name", gone.Name)), nil
}

func (s *Service) pjSystem(ctx context.Context, req *command.Request, args []string) (*reply.Reply, error) {
	who, args := target(args)
	if len(args) != 1 {
		return nil, command.Errorf("character.system_usage", "systems", SystemList())
	}
	system, ok := ParseSystem(args[0])
	if !ok {
		return nil, command.Errorf("character.system_unknown", "name", args[0], "systems", SystemList())
	}
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		c.System = system
		return nil
	})
	if err != nil {
		return nil, err
	}
	if system == "" {
		return reply.Text(req.TP("character.system_cleared", "character", c.Name)), nil
	}
	return reply.Text(req.TP("character.system_set", "character", c.Name, "system", systemDisplay(req.Lang, system))), nil
}

// show renders a sheet: name, system and owner, then the values, three to
// a line.
func (s *Service) show(req *command.Request, c Character) *reply.Reply {
	head := reply.Line{reply.B("🧙 " + fold.Clean(c.Name))}
	if c.System != "" {
		head = append(head, reply.T(" · "+systemDisplay(req.Lang, c.System)))
	}
	head = append(head, reply.I(" · "+req.TP("character.owner", "name", OwnerLabel(c))))
	rep := &reply.Reply{Lines: []reply.Line{head}}
	values := make([]Value, 0, len(c.Values))
	for _, v := range c.Values {
		if !isMark(v) { // shown on their own line (marks.go)
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		rep.Add(reply.I(req.TP("character.no_values", "name", c.Name)))
		if l := marksLine(req, c); l != nil {
			rep.Lines = append(rep.Lines, l)
		}
		return rep
	}
	var line reply.Line
	for i, v := range values {
		if i%3 != 0 {
			line = append(line, reply.T(" · "))
		}
		line = append(line, reply.T(s.keyName(req, v.Name)+" "), reply.B(v.Text))
		if i%3 == 2 || i == len(values)-1 {
			rep.Lines = append(rep.Lines, line)
			line = nil
		}
	}
	if l := marksLine(req, c); l != nil {
		rep.Lines = append(rep.Lines, l)
	}
	return rep
}

// foeHP runs "/pj @Lobo pv -6" as "/init pv Lobo -6" when Lobo is no
// character but a foe of the chat's turn order whose hit points the order
// keeps (core/initiative, with its rights: the GM's): a damage roll names
// a combatant as it names a character. ok is false for anything else.
func foeHP(ctx context.Context, req *command.Request, who, name, delta string) (*reply.Reply, bool) {
	if who == "" || !IsHitPoints(name) {
		return nil, false
	}
	c, found, err := req.Combatant(ctx, who)
	if err != nil || !found || c.Character || !c.HP {
		return nil, false
	}
	foe := c.Name
	if strings.ContainsAny(foe, " \t") {
		foe = `"` + foe + `"`
	}
	return req.Redispatch(ctx, "/init pv "+foe+" "+delta, nil)
}
