// Package table is /tabla (/table, !πίνακας): a chat's random tables.
// A GM writes one in one message, one row per line, and anyone rolls it:
//
//	/tabla crear Encuentros
//	1-2 Lobos
//	3-5 Bandidos ([[1d4]] de ellos)
//	6 Un dragón
//
//	/tabla Encuentros   →  🎲 Encuentros · 1d6
//	                        4 → Bandidos (3 de ellos) · 50 %
//
// The dice follow from the ranges (1d6, 2d6, d66, 1d100) or are given
// (/tabla crear Botín 2d6); text lines without ranges weigh the same.
// Gaps and overlaps are refused naming the line. [[1d4]] in a row is
// rolled; [[Botín]] rolls the chat's table Botín (MaxDepth deep). Every
// roll shows the row's exact chance; /tabla Encuentros ? and /odds tabla
// Encuentros show every row's.
//
// One line works too: /tabla crear Clima: Sol; Lluvia; Niebla.
package table

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Options configure a Service.
type Options struct {
	Now func() time.Time // nil: time.Now
}

// Service implements /tabla on a Store.
type Service struct {
	store Store
	now   func() time.Time
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	return &Service{store: store, now: command.Clock(o.Now)}
}

// Register adds /tabla to r. Rolling a table is a roll (history, /gmroll,
// /ciega); changing one is not, and is refused inside them.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "table", Aliases: []string{"tabla", "tablas", "tables", "πίνακας", "πίνακες"},
		Handler: command.WithHints(s.handle, command.PrefixHint), Odds: command.HandlerFunc(s.oddsHandler),
		Roll: true, MaxInput: MaxInput, Subs: subs})
}

// subs are /tabla's sub-commands in es, el and en; a first word that is
// none of them is a table's name to roll.
var subs = command.NewSubs(
	command.Sub{Name: "create", Words: map[string][]string{"es": {"crear", "nueva"}, "el": {"δημιουργία", "νέος", "νέα"}, "en": {"create", "new"}}},
	command.Sub{Name: "list", Words: map[string][]string{"es": {"lista", "listar"}, "el": {"λίστα"}, "en": {"list"}}},
	command.Sub{Name: "show", Words: map[string][]string{"es": {"ver", "mostrar"}, "el": {"δείξε", "προβολή"}, "en": {"show"}}},
	command.Sub{Name: "edit", Words: map[string][]string{"es": {"editar", "cambiar"}, "el": {"άλλαξε", "αλλαγή"}, "en": {"edit"}}},
	command.Sub{Name: "rename", Words: map[string][]string{"es": {"renombrar"}, "el": {"μετονόμασε", "μετονομασία"}, "en": {"rename"}}},
	command.Sub{Name: "delete", Words: map[string][]string{"es": {"borrar", "eliminar"}, "el": {"διάγραψε", "διαγραφή"}, "en": {"delete", "remove"}}},
	command.Sub{Name: "odds", Words: map[string][]string{"es": {"probabilidad", "probabilidades"}, "el": {"πιθανότητες"}, "en": {"odds"}}},
)

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	if args == "" {
		return s.list(ctx, req)
	}
	header, body, _ := strings.Cut(args, "\n")
	word, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	sub, isSub := subs.Lookup(word)
	if !isSub {
		if body != "" {
			return nil, command.Errorf("table.err.rows_need_create")
		}
		name, ask := strings.CutSuffix(args, "?")
		t, err := s.find(ctx, req, name)
		if err != nil {
			return nil, err
		}
		if ask {
			return s.odds(req, t), nil
		}
		return s.roll(ctx, req, t)
	}
	rest = strings.TrimSpace(rest)
	if sub != "create" && body != "" {
		return nil, command.Errorf("table.err.usage")
	}
	switch sub {
	case "list":
		return s.list(ctx, req)
	case "show", "odds":
		t, err := s.find(ctx, req, rest)
		if err != nil {
			return nil, err
		}
		return s.odds(req, t), nil
	}
	if !req.IsGM {
		return nil, command.Errorf("table.err.gm_only")
	}
	if req.RollsOnly() {
		return nil, command.Errorf("error.not_a_roll", "command", req.TypedPrefix()+req.Alias+" "+word)
	}
	switch sub {
	case "create":
		return s.create(ctx, req, rest, body)
	case "edit":
		return s.edit(ctx, req, rest)
	case "rename":
		return s.rename(ctx, req, rest)
	default:
		t, err := s.find(ctx, req, rest)
		if err != nil {
			return nil, err
		}
		if err := s.store.DeleteTable(ctx, req.Msg.Chat, t.Key); err != nil {
			return nil, storeErr("delete", err)
		}
		return reply.Text("🗑 " + req.T("table.deleted", "name", t.Name)), nil
	}
}

// oddsHandler is /odds tabla NAME (and the 📊 button of a table roll).
func (s *Service) oddsHandler(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	t, err := s.find(ctx, req, strings.TrimSuffix(strings.TrimSpace(req.Args), "?"))
	if err != nil {
		return nil, err
	}
	return s.odds(req, t), nil
}

func storeErr(op string, err error) error { return fmt.Errorf("table %s: %w", op, err) }

// CheckName refuses a name that is empty, too long, not one clean line,
// a sub-command word or dice (a user error).
func CheckName(name string) error {
	if name == "" {
		return command.Errorf("table.err.create_usage")
	}
	if n := utf8.RuneCountInString(name); n > MaxName {
		return command.Errorf("table.err.name_long", "max", MaxName, "got", n)
	}
	k := fold.Key(name)
	if _, sub := subs.Lookup(k); sub || k == "" || fold.Clean(name) != name || strings.ContainsAny(name, "[]?;:") {
		return command.Errorf("table.err.bad_name", "name", name)
	}
	if _, ok := ParseDice(name); ok {
		return command.Errorf("table.err.bad_name", "name", name)
	}
	if r, _ := utf8.DecodeRuneInString(name); r >= '0' && r <= '9' {
		return command.Errorf("table.err.bad_name", "name", name)
	}
	return nil
}

// create is /tabla crear NAME [DICE][: row; row] followed by rows, one a line.
func (s *Service) create(ctx context.Context, req *command.Request, header, body string) (*reply.Reply, error) {
	head, afterColon, _ := strings.Cut(header, ":")
	words := strings.Fields(head)
	var given *Dice
	if len(words) > 1 {
		if d, ok := ParseDice(words[len(words)-1]); ok {
			given, words = &d, words[:len(words)-1]
		} else if diceLike.MatchString(words[len(words)-1]) {
			return nil, command.Errorf("table.err.bad_dice", "dice", words[len(words)-1], "max", MaxTotal, "n", MaxDiceCount)
		}
	}
	name := strings.Join(words, " ")
	if err := CheckName(name); err != nil {
		return nil, err
	}
	var lines []string
	if body != "" {
		lines = strings.Split(body, "\n")
	}
	d, rows, err := Build(splitRows(afterColon, lines), given)
	if err != nil {
		return nil, err
	}
	t := Table{Name: name, Key: fold.Key(name), Dice: d, Rows: rows, Updated: s.now()}
	_, err = s.store.Table(ctx, req.Msg.Chat, t.Key)
	existed := err == nil
	if err != nil && !errors.Is(err, core.ErrNotFound) {
		return nil, storeErr("find", err)
	}
	if err := s.store.SaveTable(ctx, req.Msg.Chat, t, MaxTables); err != nil {
		if errors.Is(err, core.ErrQuota) {
			return nil, command.Errorf("table.err.quota", "max", MaxTables)
		}
		return nil, storeErr("save", err)
	}
	key := "table.created"
	if existed {
		key = "table.replaced"
	}
	rep := reply.Text("✅ " + req.T(key, "name", t.Name, "dice", d.String(), "n", len(rows)))
	rep.Add(reply.T(req.T("table.created_hint")+" "), reply.C(req.TypedPrefix()+req.Alias+" "+t.Name))
	return rep, nil
}

// diceLike is a word meant as dice: "3d400", "d1", "7d6".
var diceLike = regexp.MustCompile(`^(?i)\d*[dδ](\d+|%)$`)

// find reads the table named by the whole of name.
func (s *Service) find(ctx context.Context, req *command.Request, name string) (Table, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Table{}, command.Errorf("table.err.which")
	}
	t, err := s.store.Table(ctx, req.Msg.Chat, fold.Key(name))
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, core.ErrNotFound) {
		return Table{}, storeErr("find", err)
	}
	return Table{}, s.unknown(ctx, req, name)
}

// unknown is the error for a table the chat does not have, with the
// closest name it has.
func (s *Service) unknown(ctx context.Context, req *command.Request, name string) error {
	ts, err := s.store.ListTables(ctx, req.Msg.Chat)
	if err != nil {
		return storeErr("list", err)
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	if c := fold.Closest(name, names, 1); len(c) > 0 {
		return command.Errorf("table.err.unknown_suggest", "name", fold.Cut(name, 40), "suggestion", c[0])
	}
	return command.Errorf("table.err.unknown", "name", fold.Cut(name, 40))
}

// findPrefix finds the table named by the longest run of words that
// starts args, and returns the words after it.
func (s *Service) findPrefix(ctx context.Context, req *command.Request, args string) (Table, []string, error) {
	words := strings.Fields(args)
	if len(words) == 0 {
		return Table{}, nil, command.Errorf("table.err.which")
	}
	ts, err := s.store.ListTables(ctx, req.Msg.Chat)
	if err != nil {
		return Table{}, nil, storeErr("list", err)
	}
	for i := len(words); i >= 1; i-- {
		k := fold.Key(strings.Join(words[:i], " "))
		for _, t := range ts {
			if t.Key == k {
				return t, words[i:], nil
			}
		}
	}
	return Table{}, nil, s.unknown(ctx, req, words[0])
}

// edit is /tabla editar NAME TOTAL TEXT: the row of TOTAL gets TEXT.
func (s *Service) edit(ctx context.Context, req *command.Request, args string) (*reply.Reply, error) {
	t, rest, err := s.findPrefix(ctx, req, args)
	if err != nil {
		return nil, err
	}
	if len(rest) < 2 {
		return nil, command.Errorf("table.err.edit_usage")
	}
	v, err := strconv.Atoi(strings.Split(rest[0], "-")[0])
	if err != nil {
		return nil, command.Errorf("table.err.edit_usage")
	}
	i := -1
	for j, r := range t.Rows {
		if v >= r.Lo && v <= r.Hi {
			i = j
		}
	}
	if i < 0 {
		return nil, command.Errorf("table.err.no_row", "value", rest[0], "name", t.Name, "min", t.Dice.Min(), "max", t.Dice.Max())
	}
	text := fold.Clean(strings.Join(rest[1:], " "))
	if n := utf8.RuneCountInString(text); n > MaxRowChars {
		return nil, command.Errorf("table.err.row_long", "line", i+1, "max", MaxRowChars, "got", n)
	}
	if n := strings.Count(text, "[["); n > MaxInline {
		return nil, command.Errorf("table.err.inline_many", "line", i+1, "max", MaxInline, "got", n)
	}
	t.Rows[i].Text = text
	t.Updated = s.now()
	if err := s.store.SaveTable(ctx, req.Msg.Chat, t, 0); err != nil {
		return nil, storeErr("save", err)
	}
	r := t.Rows[i]
	return reply.Text("✏️ " + req.T("table.edited", "name", t.Name, "range", rangeText(r.Lo, r.Hi), "text", r.Text)), nil
}

// rename is /tabla renombrar OLD NEW, or OLD: NEW when the words alone
// would be ambiguous (a new name that starts with the old one, or with
// another table's name): no table's name holds a colon.
func (s *Service) rename(ctx context.Context, req *command.Request, args string) (*reply.Reply, error) {
	var (
		t    Table
		rest []string
		err  error
	)
	if old, name, ok := strings.Cut(args, ":"); ok {
		t, err = s.find(ctx, req, old)
		rest = strings.Fields(name)
	} else {
		t, rest, err = s.findPrefix(ctx, req, args)
	}
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return nil, command.Errorf("table.err.rename_usage")
	}
	old := t.Name
	t.Name = strings.Join(rest, " ")
	if err := CheckName(t.Name); err != nil {
		return nil, err
	}
	oldKey := t.Key
	t.Key = fold.Key(t.Name)
	t.Updated = s.now()
	if err := s.store.RenameTable(ctx, req.Msg.Chat, oldKey, t); err != nil {
		if errors.Is(err, core.ErrExists) {
			return nil, command.Errorf("table.err.exists", "name", t.Name)
		}
		return nil, storeErr("rename", err)
	}
	return reply.Text("✏️ " + req.T("table.renamed", "old", old, "name", t.Name)), nil
}

func (s *Service) list(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	ts, err := s.store.ListTables(ctx, req.Msg.Chat)
	if err != nil {
		return nil, storeErr("list", err)
	}
	if len(ts) == 0 {
		return reply.Text(req.T("table.list_empty", "cmd", req.TypedPrefix()+req.Alias)), nil
	}
	rep := (&reply.Reply{}).Add(reply.B("📜 " + req.T("table.list_title", "count", len(ts))))
	for _, t := range ts {
		rep.Add(reply.T("• "), reply.C(req.TypedPrefix()+req.Alias+" "+t.Name),
			reply.T(" · "+req.T("table.list_line", "dice", t.Dice.String(), "n", len(t.Rows))))
	}
	return rep, nil
}

// odds lists every row of t with its exact chance.
func (s *Service) odds(req *command.Request, t Table) *reply.Reply {
	rep := (&reply.Reply{}).Add(reply.T("📊 "), reply.B(t.Name), reply.T(" · "), reply.C(t.Dice.String()))
	ways := t.Dice.Ways()
	for _, r := range t.Rows {
		rep.Add(reply.B(rangeText(r.Lo, r.Hi)), reply.T(" "+r.Text+" · "+req.Percent(t.Dice.Chance(ways, r.Lo, r.Hi))))
	}
	return rep
}

// roll rolls t and shows the dice, the row and its chance, and each table
// the row named.
func (s *Service) roll(ctx context.Context, req *command.Request, t Table) (*reply.Reply, error) {
	ro := &roller{ctx: ctx, store: s.store, chat: req.Msg.Chat, src: req.Rand, budget: req.Budget}
	res, err := ro.roll(t, 0)
	if err != nil {
		return nil, err
	}
	return Render(req, res), nil
}

// Render is the reply of a table roll: "🎲 Encuentros · 1d6", then
// "4 → Bandidos (3 de ellos) · 50 %", then one line per table the row
// rolled in turn.
func Render(req *command.Request, res *Result) *reply.Reply {
	rep := (&reply.Reply{}).Add(reply.T("🎲 "), reply.B(res.Table.Name), reply.T(" · "), reply.C(diceShown(res)))
	line := reply.Line{reply.B(strconv.Itoa(res.Total)), reply.T(" → ")}
	line = append(line, res.Text...)
	line = append(line, reply.T(" · "+req.Percent(res.Chance)))
	rep.Lines = append(rep.Lines, line)
	var nested func(r *Result, depth int)
	nested = func(r *Result, depth int) {
		for _, n := range r.Nested {
			rep.Add(reply.T(strings.Repeat("  ", depth)+"↳ "), reply.B(n.Table.Name), reply.T(" · "), reply.C(diceShown(n)),
				reply.T(" → "+strconv.Itoa(n.Total)+" · "+req.Percent(n.Chance)))
			nested(n, depth+1)
		}
	}
	nested(res, 0)
	var missing, deep []string
	var notes func(r *Result)
	notes = func(r *Result) {
		missing, deep = append(missing, r.Missing...), append(deep, r.TooDeep...)
		for _, n := range r.Nested {
			notes(n)
		}
	}
	notes(res)
	if len(missing) > 0 {
		rep.Add(reply.I(req.T("table.note.missing", "names", strings.Join(missing, ", "))))
	}
	if len(deep) > 0 {
		rep.Add(reply.I(req.T("table.note.too_deep", "names", strings.Join(deep, ", "), "max", MaxDepth)))
	}
	f, _ := res.Chance.Float64()
	total := res.Total
	rep.Check = &reply.Check{System: "table", Dice: res.Faces, Sides: res.Table.Dice.Sides(), Total: &total,
		Chance: &f, ChanceExact: res.Chance.RatString(), Table: res.Table.Name, Row: res.Plain()}
	rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonAgain, Label: req.T("dice.button.again")})
	return rep
}

// diceShown is "1d6", or "2d6 [3, 4]" when more than one die was thrown.
func diceShown(r *Result) string {
	s := r.Table.Dice.String()
	if len(r.Faces) < 2 {
		return s
	}
	fs := make([]string, len(r.Faces))
	for i, f := range r.Faces {
		fs[i] = strconv.Itoa(f)
	}
	return s + " [" + strings.Join(fs, ", ") + "]"
}
