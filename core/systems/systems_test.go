package systems_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// bot is a real router with the real catalogs and the systems registered.
type bot struct {
	t      *testing.T
	r      *command.Router
	store  *memory.Store
	sheets command.Sheets
}

func newBot(t *testing.T, sheets command.Sheets) *bot {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, Sheets: sheets, Limits: command.Limits{Burst: 1 << 30}})
	systems.Register(r)
	return &bot{t: t, r: r, store: st, sheets: sheets}
}

var chat = core.ChatRef{Platform: "console", ID: "mesa"}

// set stores a chat option, as /ajustes would.
func (b *bot) set(key, val string) {
	b.t.Helper()
	s, _ := b.store.Settings(context.Background(), chat)
	s = s.Clone()
	s.Options[key] = val
	if err := b.store.SaveSettings(context.Background(), chat, s); err != nil {
		b.t.Fatal(err)
	}
}

// roll sends text in lang with scripted dice and returns the reply; every
// die given must be used.
func (b *bot) roll(lang, text string, faces ...int) *reply.Reply {
	b.t.Helper()
	return b.rollSome(lang, text, true, faces...)
}

// rollSome is roll, optionally allowing dice left over (a 1D4 that an
// opposed RQ roll only sometimes needs).
func (b *bot) rollSome(lang, text string, all bool, faces ...int) *reply.Reply {
	b.t.Helper()
	s, _ := b.store.Settings(context.Background(), chat)
	s = s.Clone()
	s.Lang = lang
	if err := b.store.SaveSettings(context.Background(), chat, s); err != nil {
		b.t.Fatal(err)
	}
	src := dice.NewScripted(faces)
	rep, ok := b.r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text}, src)
	if !ok {
		b.t.Fatalf("%q: not handled", text)
	}
	if all && !rep.Error && src.Used() != len(faces) {
		b.t.Errorf("%q: used %d of %d dice", text, src.Used(), len(faces))
	}
	return rep
}

func text(r *reply.Reply) string { return reply.PlainText(r) }

// bold returns the bold spans of a reply.
func bold(r *reply.Reply) []string {
	var out []string
	for _, l := range r.Lines {
		for _, s := range l {
			if s.Style == reply.Bold {
				out = append(out, s.Text)
			}
		}
	}
	return out
}

func hasBold(r *reply.Reply, s string) bool {
	for _, b := range bold(r) {
		if strings.Contains(b, s) {
			return true
		}
	}
	return false
}

// expect checks what a user sees and the --json facts.
type expect struct {
	lang    string
	text    string
	dice    []int
	has     []string // substrings of the rendered text
	not     []string // substrings that must not be there
	bold    string   // a bold span contains this
	outcome string
	chance  string // exact "p/q"
	total   *int
	level   *int
	winner  string
	noOdds  bool // the odds line must not be there
	errHas  string
}

func ip(v int) *int { return &v }

func run(t *testing.T, b *bot, cases []expect) {
	t.Helper()
	for _, c := range cases {
		rep := b.roll(c.lang, c.text, c.dice...)
		got := text(rep)
		name := c.lang + " " + c.text
		if c.errHas != "" {
			if !rep.Error || !strings.Contains(got, c.errHas) {
				t.Errorf("%s: want error containing %q, got %q (error=%v)", name, c.errHas, got, rep.Error)
			}
			continue
		}
		if rep.Error {
			t.Errorf("%s: unexpected error %q", name, got)
			continue
		}
		for _, h := range c.has {
			if !strings.Contains(got, h) {
				t.Errorf("%s: %q does not contain %q", name, got, h)
			}
		}
		for _, h := range c.not {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q contains %q", name, got, h)
			}
		}
		if c.bold != "" && !hasBold(rep, c.bold) {
			t.Errorf("%s: no bold %q in %q (bold: %q)", name, c.bold, got, bold(rep))
		}
		for _, raw := range []string{"zaria.", "daegon.", "rq.", "kh.", "dh.", "sys.", "<no value>"} {
			if strings.Contains(got, raw) {
				t.Errorf("%s: untranslated %q in %q", name, raw, got)
			}
		}
		ck := rep.Check
		if ck == nil {
			t.Errorf("%s: no Check", name)
			continue
		}
		if ck.Outcome != c.outcome {
			t.Errorf("%s: outcome %q, want %q", name, ck.Outcome, c.outcome)
		}
		// The Check's dice are the faces rolled, so --dice can replay them.
		if fmt.Sprint(ck.Dice) != fmt.Sprint(append([]int{}, c.dice...)) {
			t.Errorf("%s: Check.Dice %v, rolled %v", name, ck.Dice, c.dice)
		}
		if len(ck.Sides) != len(ck.Dice) {
			t.Errorf("%s: Check.Sides %v for dice %v", name, ck.Sides, ck.Dice)
		}
		for i, s := range ck.Sides {
			if s < 2 || ck.Dice[i] < 1 || ck.Dice[i] > s {
				t.Errorf("%s: die %d of %v is not a face of d%d", name, ck.Dice[i], ck.Dice, s)
			}
		}
		if c.chance != "" && ck.ChanceExact != c.chance {
			t.Errorf("%s: chance %q, want %q", name, ck.ChanceExact, c.chance)
		}
		if c.total != nil && (ck.Total == nil || *ck.Total != *c.total) {
			t.Errorf("%s: total %v, want %d", name, ck.Total, *c.total)
		}
		if c.level != nil && (ck.Level == nil || *ck.Level != *c.level) {
			t.Errorf("%s: level %v, want %d", name, ck.Level, *c.level)
		}
		if ck.Winner != c.winner {
			t.Errorf("%s: winner %q, want %q", name, ck.Winner, c.winner)
		}
		// Every check states its exact chance, with or without "?".
		if c.noOdds && !strings.Contains(got, "📊") && ck.Chance != nil {
			t.Errorf("%s: a check without its odds line: %q", name, got)
		}
	}
}

// sheets is a small in-memory character store for the tests (the real one
// is core/sheet on SQLite); it behaves as command.Sheets documents:
// "" is the sender's active character, unknown names are user errors.
type sheets struct {
	active map[string]string            // user → character
	chars  map[string]map[string]string // character → value name → text
	writes []string
	broken bool // the store fails (not a user error) on every call
}

var errStore = errors.New("disk on fire")

func newSheets() *sheets {
	return &sheets{active: map[string]string{}, chars: map[string]map[string]string{}}
}

func (s *sheets) char(userID, who string) (map[string]string, string, error) {
	if s.broken {
		return nil, "", errStore
	}
	who = strings.TrimPrefix(who, "@")
	if who == "" {
		who = s.active[userID]
		if who == "" {
			return nil, "", command.Errorf("character.no_active")
		}
	}
	c, ok := s.chars[strings.ToLower(who)]
	if !ok {
		return nil, "", command.Errorf("character.unknown", "name", who)
	}
	return c, who, nil
}

func (s *sheets) SheetInt(ctx context.Context, chat core.ChatRef, userID, who, name string) (int, error) {
	c, _, err := s.char(userID, who)
	if err != nil {
		return 0, err
	}
	v, ok := c[strings.ToLower(name)]
	if !ok {
		return 0, command.Errorf("character.value_unknown", "name", name)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, command.Errorf("character.value_not_number", "name", name)
	}
	return n, nil
}

func (s *sheets) SheetText(ctx context.Context, chat core.ChatRef, userID, who, name string) (string, error) {
	c, _, err := s.char(userID, who)
	if err != nil {
		return "", err
	}
	v, ok := c[strings.ToLower(name)]
	if !ok {
		return "", command.Errorf("character.value_unknown", "name", name)
	}
	return v, nil
}

func (s *sheets) SetSheetText(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name, value string) error {
	c, w, err := s.char(userID, who)
	if err != nil {
		return err
	}
	c[strings.ToLower(name)] = value
	s.writes = append(s.writes, w+"."+name+"="+value)
	return nil
}
