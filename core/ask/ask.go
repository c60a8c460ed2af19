// Package ask is /pedir (/ask, !ζήτα): the GM asks the table for a roll.
//
//	/pedir /zaria destreza+sigilo dc15      every member's active character
//	/pedir @Lyra @Drake /rq buscar difícil  these characters only
//	/pedir 1d20+percepción vs 14            dice with the sheet's names
//	/pedir ciega /daegon sigilo d3          the table sees only who rolled
//	/pedir tirar 3 Lyra · /pedir cerrar 3   a button's press, typed
//
// The bot answers with one message (a status message, reply.Reply.Status,
// under the slot "ask:<id>", which every adapter edits in place): the
// check, one line and one button per character, and whom it waits for.
// A character's owner presses its button: the check is run as if the
// owner had typed it for that character (command.Request.RunAs: the same
// limits, history, session log and blind rules) and the message is edited
// with the result. A GM's press rolls for an absent player, marked as the
// GM's; ⏹ (GMs) closes it with a summary. Before anyone rolls, the GMs
// get privately each character's chance, the core's /odds of the same
// check for that character.
//
// Requests are stored (Store), so a press after a restart or a group's
// upgrade finds its request; a chat keeps its Keep newest, and a button
// of an older one answers that it is closed.
package ask

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/sheet"
)

// Limits, each with its own message (es, el, en).
const (
	// MaxCharacters is how many characters one request asks: what a
	// Matrix message offers as numbered keycaps with ⏹ beside them.
	MaxCharacters = 8
	// Keep is how many requests a chat keeps: a button of an older one
	// answers that the request is closed.
	Keep = 20
)

// SlotPrefix starts the status slot of a request ("ask:12"): each request
// is a message of its own, edited in place.
const SlotPrefix = "ask:"

// Options configure a Service.
type Options struct {
	Now func() time.Time // nil: time.Now
}

// Service implements /pedir on a Store.
type Service struct {
	store Store
	chars Characters
	now   func() time.Time

	mu    sync.Mutex
	locks map[string]*sync.Mutex // one per request being pressed: two taps never both roll
}

// New builds the service.
func New(store Store, chars Characters, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{store: store, chars: chars, now: o.Now, locks: map[string]*sync.Mutex{}}
}

// Register adds /pedir and its button to r.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "ask", Aliases: []string{"pedir", "pide", "ζήτα", "ζητώ"},
		Handler: command.HandlerFunc(s.handle)})
	r.HandleAction(reply.ActAsk, s.answer)
}

// Subcommand words: a button's press typed (the console, the CLI).
var (
	blindWords = []string{"ciega", "aciegas", "blind", "τυφλή"}
	rollWords  = []string{"tirar", "tira", "roll", "ρίξε", "ριξε"}
	closeWords = []string{"cerrar", "cierra", "close", "κλείσε", "κλεισε"}
)

func isWord(w string, words []string) bool {
	k := fold.Key(w)
	for _, x := range words {
		if fold.Key(x) == k {
			return true
		}
	}
	return false
}

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	f := strings.Fields(req.Args)
	if len(f) == 0 {
		return nil, command.Errorf("ask.usage")
	}
	if req.Msg.Private {
		return nil, command.Errorf("ask.private")
	}
	switch {
	case isWord(f[0], rollWords) && len(f) >= 3:
		id, err := requestID(f[1])
		if err != nil {
			return nil, err
		}
		return s.answer(ctx, req, reply.Action{Kind: reply.ActAsk, Request: id, Character: sheet.NameKey(strings.Join(f[2:], " "))})
	case isWord(f[0], closeWords) && len(f) == 2:
		id, err := requestID(f[1])
		if err != nil {
			return nil, err
		}
		return s.answer(ctx, req, reply.Action{Kind: reply.ActAsk, Request: id})
	}
	if !req.IsGM {
		return nil, command.Errorf("ask.gm_only")
	}
	return s.create(ctx, req, f)
}

func requestID(w string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(w, "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0, command.Errorf("ask.usage")
	}
	return id, nil
}

// create asks: [ciega] [@A @B …] CHECK.
func (s *Service) create(ctx context.Context, req *command.Request, f []string) (*reply.Reply, error) {
	r := Request{GM: req.Msg.From.ID, GMName: displayName(req.Msg.From), Created: s.now()}
	if isWord(f[0], blindWords) {
		r.Blind, f = true, f[1:]
	}
	var names []string
	for len(f) > 0 && strings.HasPrefix(f[0], "@") && len(f[0]) > 1 {
		names, f = append(names, f[0][1:]), f[1:]
	}
	if len(f) == 0 {
		return nil, command.Errorf("ask.usage")
	}
	check, err := checkText(req, strings.Join(f, " "))
	if err != nil {
		return nil, err
	}
	r.Check = check
	if r.Entries, err = s.entries(ctx, req, names); err != nil {
		return nil, err
	}
	// The chances first: a check that cannot be rolled (a value a sheet
	// lacks) is told to the GMs before anyone presses.
	chances, short := s.chances(ctx, req, r)
	r.Chances = short
	r, err = s.store.CreateAsk(ctx, req.Msg.Chat, r, Keep)
	if err != nil {
		return nil, fmt.Errorf("ask: create: %w", err)
	}
	rep := &reply.Reply{Status: render(req, r, false),
		Secret: chances, SecretTo: req.NamedGMs(ctx), Blind: true, Data: map[string]any{"request": jsonOf(r)}}
	return rep, nil
}

// checkText is the command each character rolls: a roll command of the
// chat as typed ("/zaria …", "!rq …"), or dice ("1d20+percepción vs 14",
// rolled by /roll). A blind or secret roll is asked with "ciega", and a
// request never asks another.
func checkText(req *command.Request, text string) (string, error) {
	if !strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "!") {
		text = "/roll " + text
	}
	p, ok := req.Parse(text)
	if !ok {
		return "", command.Errorf("ask.not_a_roll", "check", text)
	}
	c, found := req.Router().Lookup(p.Name)
	if !found || !c.Roll || c.Name == "ask" || c.Name == "blind" || c.Name == "gmroll" {
		return "", command.Errorf("ask.not_a_roll", "check", text)
	}
	if p.Args == "" {
		return "", command.Errorf("ask.usage")
	}
	return "/" + p.Name + " " + p.Args, nil
}

// entries are the characters asked: those named, else each member's
// active character (the asking GM's too, when she has one).
func (s *Service) entries(ctx context.Context, req *command.Request, names []string) ([]Entry, error) {
	all, err := s.chars.ListCharacters(ctx, req.Msg.Chat)
	if err != nil {
		return nil, fmt.Errorf("ask: characters: %w", err)
	}
	var out []Entry
	seen := map[string]bool{}
	add := func(key, name, owner, ownerName string) {
		if !seen[key] {
			seen[key] = true
			out = append(out, Entry{Key: key, Name: name, Owner: owner, OwnerName: ownerName})
		}
	}
	for _, n := range names {
		k := sheet.NameKey(n)
		found := false
		for _, c := range all {
			if c.Key == k {
				add(c.Key, c.Name, c.Owner, c.OwnerName)
				found = true
				break
			}
		}
		if !found {
			return nil, command.Errorf("ask.unknown_character", "name", n)
		}
	}
	if len(names) == 0 {
		for _, c := range all {
			if c.Active && c.Owner != "" {
				add(c.Key, c.Name, c.Owner, c.OwnerName)
			}
		}
	}
	if len(out) == 0 {
		return nil, command.Errorf("ask.no_characters")
	}
	if len(out) > MaxCharacters {
		return nil, command.Errorf("ask.too_many", "max", MaxCharacters, "got", len(out))
	}
	return out, nil
}

// chances is the GMs' private message: each character's chance of the
// check, as /odds gives it for that character, before anyone rolls; and
// the same in one short line for the message's 📊 button, which shows it
// to a GM in a pop-up (at most reply.MaxSecret characters).
func (s *Service) chances(ctx context.Context, req *command.Request, r Request) (*reply.Reply, string) {
	rep := &reply.Reply{}
	rep.Add(reply.T("📊 "+req.T("ask.chances_head")+" "), reply.C(r.Check))
	odds := oddsText(r.Check)
	var brief []string
	for _, e := range r.Entries {
		line := "—"
		if o, ok := req.RedispatchAs(ctx, odds, e.Name); ok && o != nil {
			line = targetLine(o)
			if !o.Error {
				_, pct, _ := cutLast(line, ": ")
				brief = append(brief, e.Name+" "+pct)
			}
		}
		rep.Add(reply.B(e.Name), reply.T(" · "+line))
	}
	return rep, short(strings.Join(brief, " · "), reply.MaxSecret)
}

// cutLast is strings.Cut at the last sep: "CD 15 · media: 62 %" gives
// "62 %"; without sep, after is s.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

// oddsText is /odds of the check: "/odds zaria 4+2 dc15", "/odds 1d20+3 vs 14".
func oddsText(check string) string {
	word, args, _ := strings.Cut(strings.TrimPrefix(check, "/"), " ")
	if word == "roll" {
		return "/odds " + args
	}
	return "/odds " + word + " " + args
}

// targetLine is what /odds says of the check's target ("🎯 CD 15 ·
// media: 62 %"), else its first line (an error says why there is none).
func targetLine(o *reply.Reply) string {
	var first string
	for _, l := range o.Lines {
		t := strings.TrimSpace(lineText(l))
		if first == "" && t != "" {
			first = t
		}
		if rest, ok := strings.CutPrefix(t, "🎯"); ok {
			return strings.TrimSpace(rest)
		}
	}
	if o.Error {
		return first
	}
	if first == "" {
		return "—"
	}
	return first
}

func lineText(l reply.Line) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

// errClosed says a request is closed, forgotten or never was.
var errClosed = errors.New("closed")

func (s *Service) lock(chat core.ChatRef, id int64) func() {
	key := chat.String() + "#" + strconv.FormatInt(id, 10)
	s.mu.Lock()
	m := s.locks[key]
	if m == nil {
		m = &sync.Mutex{}
		s.locks[key] = m
	}
	s.mu.Unlock()
	m.Lock()
	return func() {
		m.Unlock()
		s.mu.Lock()
		if m.TryLock() { // nobody waits: forget it
			delete(s.locks, key)
			m.Unlock()
		}
		s.mu.Unlock()
	}
}

// answer resolves a press of a request's button (reply.ActAsk), or its
// typed form: roll for a.Character, or close the request when it names
// none.
func (s *Service) answer(ctx context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
	if a.Request <= 0 {
		return nil, command.Errorf("ask.closed")
	}
	chat := req.Msg.Chat
	defer s.lock(chat, a.Request)()
	r, err := s.store.Ask(ctx, chat, a.Request)
	switch {
	case errors.Is(err, core.ErrNotFound):
		return nil, command.Errorf("ask.closed")
	case err != nil:
		return nil, fmt.Errorf("ask: read: %w", err)
	case r.Closed:
		return nil, command.Errorf("ask.closed")
	}
	if a.Character == "" {
		return s.close(ctx, req, r)
	}
	i := -1
	for j, e := range r.Entries {
		if e.Key == a.Character || e.Key == sheet.NameKey(a.Character) {
			i = j
		}
	}
	if i < 0 {
		return nil, command.Errorf("ask.not_asked", "name", a.Character)
	}
	e := r.Entries[i]
	if e.Rolled {
		return nil, command.Errorf("ask.already", "name", e.Name)
	}
	mine := req.Msg.From.ID == e.Owner
	if !mayPress(e, req.Msg.From.ID, req.IsGM) {
		return nil, command.Errorf("ask.not_yours", "name", e.Name, "owner", fold.Clean(e.OwnerName))
	}
	text := r.Check
	if r.Blind {
		text = "/blind " + r.Check
	}
	inner, ok := req.RunAs(ctx, text, core.User{ID: e.Owner, Name: e.OwnerName}, e.Name)
	if !ok || inner == nil {
		return nil, command.Errorf("ask.not_a_roll", "check", r.Check)
	}
	if inner.Error {
		return inner, nil // the owner's own error (a value the sheet lacks): nothing changes
	}
	ck := inner.Check
	if ck == nil && inner.Secret != nil {
		ck = inner.Secret.Check
	}
	r, err = s.store.UpdateAsk(ctx, chat, r.ID, func(r *Request) error {
		if r.Closed {
			return errClosed
		}
		e := &r.Entries[i]
		if e.Rolled {
			return errClosed
		}
		e.Rolled, e.ByGM = true, !mine
		if ck != nil {
			e.Total, e.Outcome, e.Margin = ck.Total, ck.Outcome, ck.Margin
			e.Success = succeeded(ck.Outcome)
		}
		return nil
	})
	switch {
	case errors.Is(err, errClosed) || errors.Is(err, core.ErrNotFound):
		return nil, command.Errorf("ask.closed")
	case err != nil:
		return nil, fmt.Errorf("ask: update: %w", err)
	}
	rep := s.status(req, r)
	if r.Blind && inner.Secret != nil {
		// The result goes to the GMs only, as /ciega's does.
		secret := *inner.Secret
		secret.Buttons = nil
		rep.Secret, rep.Blind, rep.SecretTo = &secret, true, inner.SecretTo
	}
	return rep, nil
}

// close ends the request with its summary (GMs only).
func (s *Service) close(ctx context.Context, req *command.Request, r Request) (*reply.Reply, error) {
	if !req.IsGM {
		return nil, command.Errorf("ask.close_gm_only")
	}
	r, err := s.store.UpdateAsk(ctx, req.Msg.Chat, r.ID, func(r *Request) error {
		if r.Closed {
			return errClosed
		}
		r.Closed = true
		return nil
	})
	switch {
	case errors.Is(err, errClosed) || errors.Is(err, core.ErrNotFound):
		return nil, command.Errorf("ask.closed")
	case err != nil:
		return nil, fmt.Errorf("ask: close: %w", err)
	}
	rep := s.status(req, r)
	if r.Blind {
		// The GMs read the summary with its numbers.
		secret := render(req, r, true)
		secret.Buttons = nil
		rep.Secret, rep.Blind, rep.SecretTo = secret, true, req.NamedGMs(context.WithoutCancel(ctx))
	}
	return rep, nil
}

// status is the reply that edits the request's message.
func (s *Service) status(req *command.Request, r Request) *reply.Reply {
	return &reply.Reply{Status: render(req, r, false),
		Data: map[string]any{"request": jsonOf(r)}}
}

// succeeded reads a check's outcome: true or false when it is a success
// or a failure of any degree, nil when it says neither (a damage roll).
func succeeded(outcome string) *bool {
	var v bool
	switch outcome {
	case "success", "epic_win", "major_success", "marginal", "critical":
		v = true
	case "failure", "major_failure", "epic_fail", "fumble", "impossible":
		v = false
	default:
		return nil
	}
	return &v
}

func displayName(u core.User) string {
	if n := fold.Clean(u.Name); n != "" {
		return n
	}
	return u.ID
}

// short cuts s to n characters.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
