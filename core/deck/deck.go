// Package deck is /mazo (/deck, !τράπουλα): decks of cards drawn without
// replacement until shuffled, and /elegir (/pick, !διάλεξε), which picks
// one of a list.
//
//	/mazo Tarot                  draws a card: "🃏 Tarot: La Torre · quedan 77"
//	/mazo robar Póker 3          draws three
//	/mazo barajar Tarot          puts every card back
//	/mazo crear Botín: Espada; Escudo; Poción   a GM's own deck (or one card a line)
//	/mazo                        the chat's decks and how many cards each has left
//
// Every chat has a standard 52-card deck (Póker), the same with two jokers
// (Comodines) and a 78-card tarot; a GM adds their own. What was drawn is
// stored, so a deck survives restarts and upgrades. Anyone draws and
// shuffles; GMs create and delete. Inside /secreto and /ciega only
// drawing works.
package deck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/table"
)

// Limits of the decks of a chat, each with its own message (es/el/en).
const (
	// MaxDecks is how many decks of their own the GMs of a chat keep.
	MaxDecks = 20
	// MaxCards is how many cards a GM's deck has.
	MaxCards = 200
	// MaxCardChars is the longest card, in characters.
	MaxCardChars = 100
	// MaxName is the longest deck name, in characters.
	MaxName = 32
	// MaxDraw is how many cards one command draws.
	MaxDraw = 10
	// maxShownDrawn is how many drawn cards /mazo ver lists.
	maxShownDrawn = 20
	// MaxInput is the longest /mazo message: a whole deck in one message.
	MaxInput = 4000
)

// Options configure a Service.
type Options struct {
	Now func() time.Time // nil: time.Now
}

// Service implements /mazo and /elegir on a Store.
type Service struct {
	store Store
	now   func() time.Time
}

// New returns a Service over store.
func New(store Store, o Options) *Service {
	return &Service{store: store, now: command.Clock(o.Now)}
}

// Register adds /mazo and /elegir to r.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "deck", Aliases: []string{"mazo", "mazos", "decks", "τράπουλα", "τράπουλες"},
		Handler: command.WithHints(s.handle, command.PrefixHint), Roll: true, MaxInput: MaxInput, Subs: subs})
	r.Register(command.Command{Name: "pick", Aliases: []string{"elegir", "elige", "διάλεξε"},
		Handler: command.WithHints(pick, command.PrefixHint), Roll: true})
}

// subs are /mazo's sub-commands in es, el and en; a first word that is
// none of them is a deck's name to draw from.
var subs = command.NewSubs(
	command.Sub{Name: "create", Words: map[string][]string{"es": {"crear", "nuevo"}, "el": {"δημιουργία", "νέα"}, "en": {"create", "new"}}},
	command.Sub{Name: "draw", Words: map[string][]string{"es": {"robar", "sacar"}, "el": {"τράβα", "τράβηξε"}, "en": {"draw"}}},
	command.Sub{Name: "shuffle", Words: map[string][]string{"es": {"barajar"}, "el": {"ανακάτεψε", "ανακάτεμα"}, "en": {"shuffle"}}},
	command.Sub{Name: "list", Words: map[string][]string{"es": {"lista"}, "el": {"λίστα"}, "en": {"list"}}},
	command.Sub{Name: "show", Words: map[string][]string{"es": {"ver", "mostrar"}, "el": {"δείξε"}, "en": {"show"}}},
	command.Sub{Name: "delete", Words: map[string][]string{"es": {"borrar", "eliminar"}, "el": {"διάγραψε", "διαγραφή"}, "en": {"delete", "remove"}}},
)

func storeErr(op string, err error) error { return fmt.Errorf("deck %s: %w", op, err) }

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	if args == "" {
		return s.list(ctx, req)
	}
	header, body, _ := strings.Cut(args, "\n")
	word, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	rest = strings.TrimSpace(rest)
	sub, isSub := subs.Lookup(word)
	if !isSub {
		sub, rest = "draw", strings.TrimSpace(header)
	}
	if sub != "create" && body != "" {
		return nil, command.Errorf("deck.err.usage")
	}
	if req.RollsOnly() && sub != "draw" {
		return nil, command.Errorf("error.not_a_roll", "command", req.TypedPrefix()+req.Alias+" "+word)
	}
	switch sub {
	case "list":
		return s.list(ctx, req)
	case "draw":
		return s.draw(ctx, req, rest)
	case "shuffle":
		return s.shuffle(ctx, req, rest)
	case "show":
		return s.show(ctx, req, rest)
	}
	if !req.IsGM {
		return nil, command.Errorf("deck.err.gm_only")
	}
	if sub == "create" {
		return s.create(ctx, req, rest, body)
	}
	key, kind := deckKey(rest)
	if kind != "" {
		return nil, command.Errorf("deck.err.builtin_delete", "name", req.T("deck.builtin."+kind))
	}
	d, err := s.find(ctx, req, rest)
	if err != nil {
		return nil, err
	}
	if err := s.store.DeleteDeck(ctx, req.Msg.Chat, key); err != nil {
		return nil, storeErr("delete", err)
	}
	return reply.Text("🗑 " + req.T("deck.deleted", "name", d.Name)), nil
}

// deckKey is the key of the deck named name, and its kind when it is a
// built-in deck.
func deckKey(name string) (key, kind string) {
	k := fold.Key(name)
	if kind, ok := builtinWords[k]; ok {
		return kind, kind
	}
	return k, ""
}

// name is how req's language names d.
func name(req *command.Request, d Deck) string {
	if d.Kind != "" {
		return req.T("deck.builtin." + d.Kind)
	}
	return d.Name
}

// find reads the deck named name: a built-in one (never drawn from: a
// full deck) or one of the chat's.
func (s *Service) find(ctx context.Context, req *command.Request, n string) (Deck, error) {
	n = strings.TrimSpace(n)
	if n == "" {
		return Deck{}, command.Errorf("deck.err.which")
	}
	key, kind := deckKey(n)
	d, err := s.store.Deck(ctx, req.Msg.Chat, key)
	switch {
	case err == nil:
		return d, nil
	case !errors.Is(err, core.ErrNotFound):
		return Deck{}, storeErr("find", err)
	case kind != "":
		return Deck{Key: key, Kind: kind, Name: kind}, nil
	}
	ds, err := s.store.ListDecks(ctx, req.Msg.Chat)
	if err != nil {
		return Deck{}, storeErr("list", err)
	}
	names := []string{}
	for _, k := range Kinds() {
		names = append(names, req.T("deck.builtin."+k))
	}
	for _, d := range ds {
		if d.Kind == "" {
			names = append(names, d.Name)
		}
	}
	if c := fold.Closest(n, names, 1); len(c) > 0 {
		return Deck{}, command.Errorf("deck.err.unknown_suggest", "name", fold.Cut(n, 40), "suggestion", c[0])
	}
	return Deck{}, command.Errorf("deck.err.unknown", "name", fold.Cut(n, 40))
}

// draw is /mazo [robar] NAME [N].
func (s *Service) draw(ctx context.Context, req *command.Request, args string) (*reply.Reply, error) {
	n := 1
	if f := strings.Fields(args); len(f) > 1 {
		if v, err := strconv.Atoi(f[len(f)-1]); err == nil {
			n, args = v, strings.Join(f[:len(f)-1], " ")
		}
	}
	if n < 1 || n > MaxDraw {
		return nil, command.Errorf("deck.err.draw_count", "max", MaxDraw)
	}
	d, err := s.find(ctx, req, args)
	if err != nil {
		return nil, err
	}
	if err := req.Budget.Spend(n * d.Size()); err != nil {
		return nil, err
	}
	var drawn []int
	err = s.store.UpdateDeck(ctx, req.Msg.Chat, d.Key, d.Kind != "", func(cur *Deck) error {
		if cur.Kind == "" && cur.Name == "" {
			cur.Kind, cur.Name = d.Kind, d.Kind
		}
		left := cur.Left()
		switch {
		case left == 0:
			return command.Errorf("deck.err.empty", "name", name(req, *cur), "cmd", req.TypedPrefix()+req.Alias)
		case n > left:
			return command.Errorf("deck.err.few", "name", name(req, *cur), "count", left, "want", n)
		}
		taken := make(map[int]bool, len(cur.Drawn))
		for _, i := range cur.Drawn {
			taken[i] = true
		}
		for range n {
			rest := make([]int, 0, cur.Size())
			for i := 0; i < cur.Size(); i++ {
				if !taken[i] {
					rest = append(rest, i)
				}
			}
			c := rest[req.Rand.IntN(len(rest))]
			taken[c] = true
			cur.Drawn = append(cur.Drawn, c)
			drawn = append(drawn, c)
		}
		cur.Updated = s.now()
		d = *cur
		return nil
	})
	if err != nil {
		if _, ok := command.AsUserError(err); ok {
			return nil, err
		}
		return nil, storeErr("draw", err)
	}
	cards := make([]string, len(drawn))
	for i, c := range drawn {
		cards[i] = d.Card(c, req.T)
	}
	rep := &reply.Reply{}
	head := reply.Line{reply.T("🃏 "), reply.B(name(req, d))}
	if n > 1 {
		head = append(head, reply.T(" ("+strconv.Itoa(n)+")"))
	}
	head = append(head, reply.T(": "))
	for i, c := range cards {
		if i > 0 {
			head = append(head, reply.T(", "))
		}
		head = append(head, reply.B(c))
	}
	rep.Lines = append(rep.Lines, head)
	rep.Add(reply.I(req.T("deck.left", "count", d.Left(), "size", d.Size())))
	left := d.Left()
	rep.Check = &reply.Check{System: "deck", Dice: []int{}, Deck: name(req, d), Cards: cards, Left: &left}
	return rep, nil
}

// shuffle is /mazo barajar NAME: every card back in the deck.
func (s *Service) shuffle(ctx context.Context, req *command.Request, args string) (*reply.Reply, error) {
	d, err := s.find(ctx, req, args)
	if err != nil {
		return nil, err
	}
	err = s.store.UpdateDeck(ctx, req.Msg.Chat, d.Key, d.Kind != "", func(cur *Deck) error {
		if cur.Kind == "" && cur.Name == "" {
			cur.Kind, cur.Name = d.Kind, d.Kind
		}
		cur.Drawn, cur.Updated = nil, s.now()
		return nil
	})
	if err != nil {
		return nil, storeErr("shuffle", err)
	}
	return reply.Text("🔀 " + req.T("deck.shuffled", "name", name(req, d), "count", d.Size())), nil
}

// show is /mazo ver NAME: how many cards are left and the last drawn.
func (s *Service) show(ctx context.Context, req *command.Request, args string) (*reply.Reply, error) {
	d, err := s.find(ctx, req, args)
	if err != nil {
		return nil, err
	}
	rep := (&reply.Reply{}).Add(reply.T("🃏 "), reply.B(name(req, d)), reply.T(" · "+req.T("deck.left", "count", d.Left(), "size", d.Size())))
	if len(d.Drawn) > 0 {
		from := max(0, len(d.Drawn)-maxShownDrawn)
		cards := make([]string, 0, len(d.Drawn)-from)
		for _, c := range d.Drawn[from:] {
			cards = append(cards, d.Card(c, req.T))
		}
		rep.Add(reply.T(req.T("deck.drawn", "count", len(d.Drawn)) + " " + strings.Join(cards, ", ")))
	}
	if d.Kind == "" && len(d.Cards) > 0 {
		rep.Add(reply.I(req.T("deck.cards", "cards", fold.Cut(strings.Join(d.Cards, " · "), 1500))))
	}
	return rep, nil
}

func (s *Service) list(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	ds, err := s.store.ListDecks(ctx, req.Msg.Chat)
	if err != nil {
		return nil, storeErr("list", err)
	}
	stored := map[string]Deck{}
	for _, d := range ds {
		stored[d.Key] = d
	}
	rep := (&reply.Reply{}).Add(reply.B("🃏 " + req.T("deck.list_title")))
	line := func(d Deck) {
		rep.Add(reply.T("• "), reply.C(req.TypedPrefix()+req.Alias+" "+name(req, d)), reply.T(" · "+req.T("deck.left", "count", d.Left(), "size", d.Size())))
	}
	for _, k := range Kinds() {
		d, ok := stored[k]
		if !ok {
			d = Deck{Key: k, Kind: k}
		}
		line(d)
	}
	for _, d := range ds {
		if d.Kind == "" {
			line(d)
		}
	}
	return rep, nil
}

// CheckName refuses a deck name that is empty, too long, not one clean
// line, a built-in deck's, a sub-command word or starts with a digit.
func CheckName(n string) error {
	if n == "" {
		return command.Errorf("deck.err.create_usage")
	}
	if c := utf8.RuneCountInString(n); c > MaxName {
		return command.Errorf("deck.err.name_long", "max", MaxName, "got", c)
	}
	k := fold.Key(n)
	_, sub := subs.Lookup(k)
	_, builtin := builtinWords[k]
	r, _ := utf8.DecodeRuneInString(n)
	if sub || builtin || k == "" || fold.Clean(n) != n || strings.ContainsAny(n, ";:") || (r >= '0' && r <= '9') {
		return command.Errorf("deck.err.bad_name", "name", n)
	}
	if f := strings.Fields(n); len(f) > 1 {
		if _, err := strconv.Atoi(f[len(f)-1]); err == nil {
			return command.Errorf("deck.err.bad_name", "name", n)
		}
	}
	return nil
}

// create is /mazo crear NAME[: card; card] (or | between cards) and one
// card a line below.
func (s *Service) create(ctx context.Context, req *command.Request, header, body string) (*reply.Reply, error) {
	head, afterColon, _ := strings.Cut(header, ":")
	n := strings.Join(strings.Fields(head), " ")
	if err := CheckName(n); err != nil {
		return nil, err
	}
	var raw []string
	if strings.TrimSpace(afterColon) != "" {
		raw = append(raw, table.OneLine(afterColon)...) // as a table's rows
	}
	if body != "" {
		raw = append(raw, strings.Split(body, "\n")...)
	}
	var cards []string
	for _, c := range raw {
		c = strings.TrimLeft(strings.TrimSpace(fold.StripInvisible(c)), "•*-–— ")
		if c == "" {
			continue
		}
		if l := utf8.RuneCountInString(c); l > MaxCardChars {
			return nil, command.Errorf("deck.err.card_long", "line", len(cards)+1, "max", MaxCardChars, "got", l)
		}
		cards = append(cards, fold.Clean(c))
	}
	switch {
	case len(cards) < 2:
		return nil, command.Errorf("deck.err.few_cards")
	case len(cards) > MaxCards:
		return nil, command.Errorf("deck.err.too_many_cards", "max", MaxCards, "got", len(cards))
	}
	d := Deck{Name: n, Key: fold.Key(n), Cards: cards, Updated: s.now()}
	if err := s.store.SaveDeck(ctx, req.Msg.Chat, d, MaxDecks); err != nil {
		if errors.Is(err, core.ErrQuota) {
			return nil, command.Errorf("deck.err.quota", "max", MaxDecks)
		}
		return nil, storeErr("save", err)
	}
	rep := reply.Text("✅ " + req.T("deck.created", "name", n, "count", len(cards)))
	rep.Add(reply.T(req.T("deck.created_hint")+" "), reply.C(req.TypedPrefix()+req.Alias+" "+n))
	return rep, nil
}
