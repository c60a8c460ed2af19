// Package sheet keeps a chat's character sheets: the model (a character
// and its named values), the store interface, the /pj command and how a
// roll reads a sheet ("/roll 1d20+fuerza", command.Sheets).
//
// The store interface is declared here, where it is used, and implemented
// by storage (storage/sqlite). Every method takes the chat, and a store
// must never return or change anything of another chat: the chat is part
// of every key and of every WHERE clause.
//
// Names (characters, values) are matched case- and accent-insensitively:
// the core computes the key with fold.Key (NameKey for character names)
// and hands it to the store, which compares keys byte for byte and never
// folds anything itself.
package sheet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// Limits are the quotas of sheets. A zero field takes its default
// (DefaultLimits).
type Limits struct {
	CharactersPerUser int // characters one user owns in one chat
	// CharactersPerChat bounds the characters of one chat; it is also how
	// many characters an import may hold, so that a chat's own export is
	// never refused for its number of characters.
	CharactersPerChat int
	ValuesPerSheet    int // named values on one sheet
	NameLen           int // characters of a character, value or saved roll name
	ValueLen          int // characters of one value
}

// DefaultLimits are the quotas where Limits leaves a zero.
func DefaultLimits() Limits {
	return Limits{CharactersPerUser: 10, CharactersPerChat: 200, ValuesPerSheet: 40, NameLen: 32, ValueLen: 64}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&l.CharactersPerUser, d.CharactersPerUser}, {&l.CharactersPerChat, d.CharactersPerChat},
		{&l.ValuesPerSheet, d.ValuesPerSheet}, {&l.NameLen, d.NameLen}, {&l.ValueLen, d.ValueLen},
	} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	return l
}

// Options configure a Service.
type Options struct {
	Limits Limits
	Now    func() time.Time
	// Validators check a value before "/pj set" or "/importar" stores it,
	// keyed by value name (a synonym of the name finds the same check:
	// "weapon" = "arma"). A check returns a *command.UserError for a value
	// it refuses. The game systems provide them (systems.SheetValidators),
	// so this package needs to know none of their tables.
	Validators map[string]func(req *command.Request, value string) error
	// Synonyms are groups of value names that mean one value ("arma",
	// "weapon", "όπλο"): a lookup of one finds a value stored under any
	// other. The game systems provide them (dungeonhack.SheetSynonyms).
	Synonyms [][]string
	// Undo keeps deleted characters for /pj deshacer (optional: without
	// it a deletion cannot be undone).
	Undo core.UndoStore
	// SheetKeys are the keys a new sheet of a system starts with, from its
	// file (template.go; systems.SheetKeys).
	SheetKeys SheetKeysFunc
}

// Service implements /pj and command.Sheets on top of a Store.
type Service struct {
	store Store
	lim   Limits
	now   func() time.Time
	valid map[string]func(*command.Request, string) error // by folded name
	syn   map[string][]string                             // folded name → the other folded names of its group
	head  map[string]string                               // folded name → its group's first name, for "sheet.key.<head>"
	undo  core.UndoStore
	keys  SheetKeysFunc
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	valid := make(map[string]func(*command.Request, string) error, len(o.Validators))
	for name, f := range o.Validators {
		valid[fold.Key(name)] = f
	}
	// Computed once: every value lookup and every value of an import asks it.
	syn := map[string][]string{}
	head := map[string]string{}
	for _, g := range append(append(vitalSynonyms(), commonSynonyms()...), o.Synonyms...) {
		for _, k := range g {
			k = fold.Key(k)
			head[k] = g[0]
			for _, other := range g {
				if other = fold.Key(other); other != k {
					syn[k] = append(syn[k], other)
				}
			}
		}
	}
	return &Service{store: store, lim: o.Limits.withDefaults(), now: o.Now, valid: valid, syn: syn, head: head, undo: o.Undo, keys: o.SheetKeys}
}

// keyName is how a sheet shows the value name stored as name: a name the
// game systems know (a synonym group's) in the chat's language, from the
// catalog's "sheet.key.<first name of the group>" ("db" is "ζθ" in a
// Greek chat, "armour-dice" in an English one); any other as stored.
func (s *Service) keyName(req *command.Request, name string) string {
	h, ok := s.head[fold.Key(name)]
	if !ok {
		return name
	}
	if t := req.T("sheet.key." + h); t != "sheet.key."+h && t != "" {
		return t
	}
	return name
}

// synonyms returns the other folded names of key's group (nil if none);
// key is folded already.
func (s *Service) synonyms(key string) []string { return s.syn[key] }

// Validate runs the check registered for name (or one of its synonyms) on
// value; nil when there is none.
func (s *Service) Validate(req *command.Request, name, value string) error {
	return s.ValidateKey(req, fold.Key(name), value)
}

// ValidateKey is Validate for a value whose name has the key k
// (fold.Key).
func (s *Service) ValidateKey(req *command.Request, k, value string) error {
	f, ok := s.valid[k]
	for _, syn := range s.synonyms(k) {
		if ok {
			break
		}
		f, ok = s.valid[syn]
	}
	if !ok {
		return nil
	}
	return f(req, strings.TrimSpace(value))
}

// Limits returns the quotas.
func (s *Service) Limits() Limits { return s.lim }

// sheetSystems are the systems a sheet can belong to: the choices of
// the chat's SystemOption but none, each a shipped system file.
func sheetSystems() []string {
	return slices.DeleteFunc(slices.Clone(systemOption().Values), func(v string) bool { return v == noSystem })
}

// noSystemWords are the words that clear a sheet's system.
var noSystemWords = []string{noSystem, "none", "no", "κανενα"}

// ParseSystem maps what a user typed to a system id: a word that names
// a sheet system in its file (its key, command, an alias or a spelling:
// "runequest"), or "" for one of noSystemWords.
func ParseSystem(s string) (string, bool) {
	if slices.Contains(noSystemWords, fold.Key(s)) {
		return "", true
	}
	for _, id := range sheetSystems() {
		if engine.MustBuiltin(id).Names(s) {
			return id, true
		}
	}
	return "", false
}

// systemDisplay is a sheet system's title in lang, as its file names it;
// id itself for a system the bot does not ship.
func systemDisplay(lang, id string) string {
	if sys, err := engine.Builtin(id); err == nil {
		return sys.File.Title.In(lang)
	}
	return id
}

// SystemList names the systems a sheet can belong to: "zaria, daegon, …".
func SystemList() string { return strings.Join(sheetSystems(), ", ") }

// internal wraps a store failure once; the router logs it and shows the
// user the generic internal-error message.
func internal(op string, err error) error { return fmt.Errorf("sheet %s: %w", op, err) }

// CheckName validates a character, value or saved roll name: one word of
// letters, digits, marks and - _ . ' of at most max characters. kind is
// "character", "value" or "alias" and picks the message.
func CheckName(name string, max int, kind string) error {
	return checkName(name, fold.Key(name), max, kind)
}

// checkName is CheckName for a name whose fold.Key is key.
func checkName(name, key string, max int, kind string) error {
	n := utf8.RuneCountInString(name)
	if n > max {
		return command.Errorf("character.name_too_long_"+kind, "name", fold.Cut(name, 20), "max", max, "got", n)
	}
	if n == 0 || key == "" {
		return command.Errorf("character.name_bad_"+kind, "name", name)
	}
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || strings.ContainsRune("-_.'’", r) {
			continue
		}
		return command.Errorf("character.name_bad_"+kind, "name", name)
	}
	return nil
}

// CheckNewName is what a name typed for a new character (kind
// "character"), value ("value") or saved roll ("alias") must be besides
// CheckName: a letter or digit in it (".", "'" and "..." are no names), no
// letter drawn as nothing (fold.Invisible), and for a value no "." or
// "'", which no roll reads back ("/tirar 1d20+fuerza.x" is not
// understood). Names stored before, and imported, are not checked again,
// so that a chat's own export is never refused.
func CheckNewName(name, kind string) error {
	word := false
	for _, r := range name {
		switch {
		case fold.Invisible(r):
			// A Hangul filler is a letter drawn as nothing: "ㅤ" looked
			// like a character without a name.
			return command.Errorf("character.name_bad_"+kind, "name", name)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = true
		case kind == "value" && strings.ContainsRune(".'’", r):
			return command.Errorf("character.name_bad_"+kind, "name", name)
		}
	}
	if !word {
		return command.Errorf("character.name_bad_"+kind, "name", name)
	}
	return nil
}

// CheckValueName is CheckName plus: not a number and not a dice term, so
// that "fuerza+2" and "1d20+fuerza" stay unambiguous.
func CheckValueName(name string, max int) error {
	_, err := ValueKey(name, max)
	return err
}

// ValueKey is CheckValueName that also returns the name's key (fold.Key),
// computed once: an import checks thousands of names.
func ValueKey(name string, max int) (string, error) {
	key := fold.Key(name)
	if err := checkName(name, key, max, "value"); err != nil {
		return "", err
	}
	if isNumber(name) || looksLikeDice(name) {
		return "", command.Errorf("character.value_name_number", "name", name)
	}
	return key, nil
}

// isNumber reports whether s is written like a number: digits and signs
// only, with a digit. A number too big for an int ("99999999999999999999")
// and "1-2" count: a roll reads them as numbers or arithmetic, never as a
// value's name.
func isNumber(s string) bool {
	return strings.Trim(s, "+-0123456789") == "" && strings.ContainsAny(s, "0123456789")
}

// looksLikeDice reports whether s reads as dice notation (d20, 2d6, d%).
func looksLikeDice(s string) bool {
	k := strings.ToLower(s)
	i := strings.IndexByte(k, 'd')
	if i < 0 {
		return false
	}
	for _, r := range k[:i] {
		if r < '0' || r > '9' {
			return false
		}
	}
	rest := k[i+1:]
	if rest == "%" || rest == "f" {
		return true
	}
	if rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CheckValueText validates a value: not empty, at most max characters, no
// control or invisible character.
func CheckValueText(v string, max int) error {
	if n := utf8.RuneCountInString(v); n > max {
		return command.Errorf("character.value_too_long", "max", max, "got", n)
	}
	if v != "" && fold.Clean(v) == v {
		// One line of single spaces without control or invisible
		// characters, the common case: no need to look further.
		return nil
	}
	if strings.TrimSpace(v) == "" {
		return command.Errorf("character.value_empty")
	}
	for _, r := range v {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return command.Errorf("character.value_bad")
		}
	}
	if fold.Clean(v) != strings.Join(strings.Fields(v), " ") {
		// Bidirectional controls, zero-width characters.
		return command.Errorf("character.value_bad")
	}
	return nil
}

// resolve finds the character who names in chat: "" is userID's active
// character, "Drake" or "@Drake" that character of the chat. Unknown names
// are user errors with a suggestion.
func (s *Service) resolve(ctx context.Context, chat core.ChatRef, userID, who string) (Character, error) {
	who = fold.StripAt(who)
	if who == "" {
		c, err := s.store.ActiveCharacter(ctx, chat, userID)
		if errors.Is(err, core.ErrNotFound) {
			return Character{}, command.Errorf("character.no_active")
		}
		if err != nil {
			return Character{}, internal("active", err)
		}
		return c, nil
	}
	c, err := s.store.Character(ctx, chat, NameKey(who))
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, core.ErrNotFound) {
		return Character{}, internal("get", err)
	}
	return Character{}, s.unknownCharacter(ctx, chat, who)
}

// unknownCharacter builds the "no such character" error, with the closest
// name of the chat when there is one.
func (s *Service) unknownCharacter(ctx context.Context, chat core.ChatRef, who string) error {
	list, err := s.store.ListCharacters(ctx, chat)
	if err != nil {
		return internal("list", err)
	}
	names := make([]string, len(list))
	for i, c := range list {
		names[i] = c.Name
	}
	if sug := fold.Closest(who, names, 1); len(sug) > 0 {
		return command.Errorf("character.unknown_suggest", "name", who, "suggestion", sug[0])
	}
	return command.Errorf("character.unknown", "name", who)
}

// canEdit reports whether userID may change c.
func canEdit(c Character, userID string, isGM bool) bool { return isGM || c.Owner == userID }

func notYours(c Character) error {
	return command.Errorf("character.not_yours", "name", c.Name, "owner", OwnerLabel(c))
}

// OwnerLabel is how a sheet names its owner: the display name, else the
// user id, cleaned (fold.Clean) whatever was stored.
func OwnerLabel(c Character) string {
	if n := fold.Clean(c.OwnerName); n != "" {
		return n
	}
	return fold.Clean(c.Owner)
}

// NameKey is the key of a character name: its confusable skeleton
// (fold.Skeleton), so that "Drake", "ＤRAKE" (full-width) and "Drаke"
// (Cyrillic а) are one name in a chat and the second one is refused.
// Stores compare it byte for byte.
func NameKey(name string) string { return fold.Skeleton(fold.StripAt(name)) }

// valueIndex finds a value of c by name, trying the synonyms of its name
// (weapon = arma = όπλο). -1 when absent.
func (s *Service) valueIndex(c Character, name string) int {
	k := fold.Key(name)
	for i, v := range c.Values {
		if v.Key == k {
			return i
		}
	}
	for _, syn := range s.synonyms(k) {
		for i, v := range c.Values {
			if v.Key == syn {
				return i
			}
		}
	}
	return -1
}

// unknownValue builds the "no such value" error with the closest name.
func unknownValue(c Character, name string) error {
	names := make([]string, len(c.Values))
	for i, v := range c.Values {
		names[i] = v.Name
	}
	if sug := fold.Closest(name, names, 1); len(sug) > 0 {
		// Suggested as every roll reads it: in /roll a "-" is a minus
		// ("fuerza-bruta" is fuerza − bruta) and "_" is the same letter
		// to a name's key, so "fuerza_bruta" finds the value everywhere.
		return command.Errorf("character.value_unknown_suggest", "name", name, "character", c.Name, "suggestion", strings.ReplaceAll(sug[0], "-", "_"))
	}
	return command.Errorf("character.value_unknown", "name", name, "character", c.Name)
}

// setValue sets or adds a value on c (in memory), enforcing the quotas.
func (s *Service) setValue(c *Character, name, text string) error {
	if err := CheckValueName(name, s.lim.NameLen); err != nil {
		return err
	}
	text = strings.TrimSpace(text)
	if err := CheckValueText(text, s.lim.ValueLen); err != nil {
		return err
	}
	if i := s.valueIndex(*c, name); i >= 0 {
		c.Values[i].Text = text
		return nil
	}
	if len(c.Values) >= s.lim.ValuesPerSheet {
		return command.Errorf("character.values_quota", "count", s.lim.ValuesPerSheet, "name", c.Name)
	}
	c.Values = append(c.Values, Value{Name: name, Key: fold.Key(name), Text: text})
	return nil
}

// parseInt reads a sheet value as a number: "4", "+2", "-1".
func parseInt(text string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "+"))
	return n, err == nil
}
