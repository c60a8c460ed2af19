// Package gm names the game masters of a chat, who may edit any sheet,
// import a chat's data and save rolls for the whole chat: /gm add, /gm
// remove, /gm list.
//
// GMs of a chat are its admins (the adapter sets core.Message.FromGM) and
// the users named with /gm add. A user is named by:
//   - their platform user id as the platform gives it: a Matrix id
//     "@ana:example.org", a Telegram numeric id "123456789";
//   - or their name with or without "@" ("@ana", "Ana", "@AnaGarcia" for
//     "Ana García"), matched without case or accents against the users this
//     chat already knows: owners of its characters, users in its roll
//     history, its GMs. Someone the bot has never seen in the chat is asked
//     to roll once first, or named by id. (Telegram gives the bot display
//     names, not @user names; a name that matches two users is refused with
//     their ids.)
package gm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/core/sheet"
)

// Users are the users a chat knows besides its GMs: owners of its
// characters and rollers in its history. storage/sqlite implements it with
// the other stores.
type Users interface {
	ListCharacters(ctx context.Context, chat core.ChatRef) ([]sheet.Character, error)
	RollCounts(ctx context.Context, chat core.ChatRef) ([]history.UserCount, error)
}

// DefaultMax is how many users a chat may name GM unless told.
const DefaultMax = 20

// Options configure a Service.
type Options struct {
	Max int              // users named GM in one chat; 0: DefaultMax
	Now func() time.Time // nil: time.Now
}

// Service implements /gm on top of a Store.
type Service struct {
	store Store
	users Users
	max   int
	now   func() time.Time
}

// New returns a Service over store, finding the chat's users in users.
func New(store Store, users Users, o Options) *Service {
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	return &Service{store: store, users: users, max: o.Max, now: command.Clock(o.Now)}
}

// Register adds /gm to r. The router must have the store as its GMs for a
// named GM to count.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "gm", Aliases: []string{"dj", "master", "αφηγητής"},
		Handler: command.WithHints(s.gm, command.PrefixHint), Subs: subs})
}

// subs are /gm's sub-commands in es, el and en.
var subs = command.NewSubs(
	command.Sub{Name: "add", Words: map[string][]string{"es": {"añadir", "agregar"}, "el": {"προσθήκη", "πρόσθεσε"}, "en": {"add"}}},
	command.Sub{Name: "remove", Words: map[string][]string{"es": {"quitar", "borrar", "eliminar"}, "el": {"αφαίρεση", "αφαίρεσε"}, "en": {"remove"}}},
	command.Sub{Name: "list", Words: map[string][]string{"es": {"lista"}, "el": {"λίστα"}, "en": {"list"}}},
)

func (s *Service) gm(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.Fields(req.Args)
	if len(args) == 0 {
		return s.gmList(ctx, req)
	}
	sub, ok := subs.Lookup(args[0])
	if !ok {
		return nil, command.Errorf("gm.usage")
	}
	if sub == "list" {
		return s.gmList(ctx, req)
	}
	if len(args) != 2 {
		return nil, command.Errorf("gm.usage")
	}
	if !req.IsGM {
		return nil, command.Errorf("gm.only_gm")
	}
	if sub == "add" {
		return s.gmAdd(ctx, req, args[1])
	}
	return s.gmRemove(ctx, req, args[1])
}

func (s *Service) gmList(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	gms, err := s.store.ListGMs(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list gms", err)
	}
	if len(gms) == 0 {
		return reply.Text(req.TP("gm.list_empty")), nil
	}
	rep := (&reply.Reply{}).Add(reply.B(req.TP("gm.list_title", "count", len(gms))))
	for _, g := range gms {
		name, id := fold.Clean(g.Name), fold.Clean(g.UserID)
		line := reply.Line{reply.T("• "), reply.B(name)}
		if name != id {
			line = append(line, reply.C(" "+id))
		}
		rep.Lines = append(rep.Lines, line)
	}
	return rep, nil
}

func (s *Service) gmAdd(ctx context.Context, req *command.Request, arg string) (*reply.Reply, error) {
	u, err := s.findUser(ctx, req.Msg.Chat, arg)
	if err != nil {
		return nil, err
	}
	u.Name = fold.UserName(u.Name)
	added, err := s.store.AddGM(ctx, req.Msg.Chat, GM{UserID: u.ID, Name: u.Name, Added: s.now()}, s.max)
	switch {
	case errors.Is(err, core.ErrQuota):
		return nil, command.Errorf("gm.quota", "count", s.max)
	case err != nil:
		return nil, internal("add gm", err)
	case !added:
		return reply.Text(req.TP("gm.already", "name", u.Name)), nil
	}
	return reply.Text(req.TP("gm.added", "name", u.Name)), nil
}

func (s *Service) gmRemove(ctx context.Context, req *command.Request, arg string) (*reply.Reply, error) {
	gms, err := s.store.ListGMs(ctx, req.Msg.Chat)
	if err != nil {
		return nil, internal("list gms", err)
	}
	var found []GM
	users := make([]core.User, len(gms))
	for i, g := range gms {
		users[i] = core.User{ID: g.UserID, Name: g.Name}
		if g.UserID == strings.TrimSpace(arg) {
			found = []GM{g}
		}
	}
	if found == nil {
		for _, u := range matchUsers(users, fold.StripAt(arg)) {
			found = append(found, GM{UserID: u.ID, Name: u.Name})
		}
	}
	switch len(found) {
	case 0:
		return nil, command.Errorf("gm.not_gm", "name", arg)
	case 1:
	default:
		return nil, command.Errorf("gm.ambiguous", "name", arg, "ids", gmIDs(found))
	}
	if err := s.store.RemoveGM(ctx, req.Msg.Chat, found[0].UserID); err != nil {
		if errors.Is(err, core.ErrNotFound) {
			return nil, command.Errorf("gm.not_gm", "name", arg)
		}
		return nil, internal("remove gm", err)
	}
	return reply.Text(req.TP("gm.removed", "name", fold.Clean(found[0].Name))), nil
}

func gmIDs(gms []GM) string {
	ids := make([]string, len(gms))
	for i, g := range gms {
		ids[i] = g.UserID
	}
	return strings.Join(ids, ", ")
}

// knownUsers lists the users chat knows of: character owners, roll history
// and GMs, one entry per id with the latest name seen.
func (s *Service) knownUsers(ctx context.Context, chat core.ChatRef) ([]core.User, error) {
	byID := map[string]string{}
	chars, err := s.users.ListCharacters(ctx, chat)
	if err != nil {
		return nil, internal("list", err)
	}
	for _, c := range chars {
		byID[c.Owner] = c.OwnerName
	}
	gms, err := s.store.ListGMs(ctx, chat)
	if err != nil {
		return nil, internal("list gms", err)
	}
	for _, g := range gms {
		byID[g.UserID] = g.Name
	}
	counts, err := s.users.RollCounts(ctx, chat)
	if err != nil {
		return nil, internal("roll counts", err)
	}
	for _, u := range counts {
		byID[u.UserID] = u.UserName
	}
	out := make([]core.User, 0, len(byID))
	for id, name := range byID {
		out = append(out, core.User{ID: id, Name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// findUser resolves a /gm argument to a user (see the package comment).
func (s *Service) findUser(ctx context.Context, chat core.ChatRef, arg string) (core.User, error) {
	arg = strings.TrimSpace(arg)
	known, err := s.knownUsers(ctx, chat)
	if err != nil {
		return core.User{}, err
	}
	for _, u := range known {
		if u.ID == arg {
			if u.Name == "" {
				u.Name = u.ID
			}
			return u, nil
		}
	}
	if looksLikeUserID(arg) {
		return core.User{ID: arg, Name: arg}, nil
	}
	found := matchUsers(known, fold.StripAt(arg))
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return core.User{}, command.Errorf("gm.unknown_user", "name", arg)
	default:
		ids := make([]string, len(found))
		for i, u := range found {
			ids[i] = u.ID
		}
		return core.User{}, command.Errorf("gm.ambiguous", "name", arg, "ids", strings.Join(ids, ", "))
	}
}

// matchUsers finds users by name: the whole display name first ("Ana
// García" for "ana-garcia"), else the name without spaces ("@AnaGarcia", as a
// Telegram user name often is) or one word of it ("@ana").
func matchUsers(known []core.User, name string) []core.User {
	k := fold.Key(name)
	if k == "" {
		return nil
	}
	var exact, loose []core.User
	for _, u := range known {
		n := fold.Key(fold.StripAt(u.Name))
		if n == "" {
			continue
		}
		if n == k {
			exact = append(exact, u)
			continue
		}
		if strings.ReplaceAll(n, " ", "") == strings.ReplaceAll(k, " ", "") {
			loose = append(loose, u)
			continue
		}
		for _, w := range strings.Fields(n) {
			if w == k {
				loose = append(loose, u)
				break
			}
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return loose
}

// maxMatrixID is the longest Matrix user id, in bytes.
const maxMatrixID = 255

// looksLikeUserID reports whether s is a platform user id: a Matrix id
// (@local:server) or a Telegram numeric id.
func looksLikeUserID(s string) bool {
	// A Matrix user id has at most 255 bytes (the spec's limit): a longer
	// "@…:…" is nobody, and stored as a GM it filled /gm's list.
	if strings.HasPrefix(s, "@") && strings.Contains(s, ":") && !strings.ContainsAny(s, " \t") && len(s) <= maxMatrixID {
		return true
	}
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// internal wraps a store failure once; the router logs it and shows the
// user the generic internal-error message.
func internal(op string, err error) error { return fmt.Errorf("gm %s: %w", op, err) }
