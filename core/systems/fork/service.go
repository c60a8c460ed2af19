package fork

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/core/systems/engine"
)

// Store keeps a chat's forks and own systems (storage/sqlite implements
// it; the storage contract tests it).
type Store interface {
	Forks(ctx context.Context, chat core.ChatRef) ([]Fork, error)
	// SaveFork creates or replaces f.Key of chat; a new one beyond max is
	// refused with core.ErrQuota.
	SaveFork(ctx context.Context, chat core.ChatRef, f Fork, max int) error
	// DeleteFork removes key of chat; a key not there is no error.
	DeleteFork(ctx context.Context, chat core.ChatRef, key string) error
}

// UndoStore keeps what a user changed last (sheet.UndoStore).
type UndoStore interface {
	PutUndo(ctx context.Context, chat core.ChatRef, userID, kind string, doc []byte, at time.Time) error
	TakeUndo(ctx context.Context, chat core.ChatRef, userID, kind string) (doc []byte, at time.Time, err error)
}

// UndoFor is how long a change can be undone, as the other undos.
const UndoFor = 15 * time.Minute

const undoKind = "system_fork"

// Options are a Service's optional parts.
type Options struct {
	Undo   UndoStore
	Logger *slog.Logger
	Now    func() time.Time
	// Taken reports whether a command name is the bot's (an own system
	// may not shadow it unless it is declared a fork of it).
	Taken func(name string) bool
	// Forkable lists the shipped systems whose commands read a chat's
	// fork (systems.Forkable): only those may be copied.
	Forkable []string
	// Named lists those whose commands read a fork's named values too
	// (systems.NamedForkable): only theirs may change.
	Named []string
	// Layout writes a roll of an own file whose show.reply lays out its
	// check, as a shipped file's (systems.LayoutReply); labels are each
	// side's terms as typed. Without it, the plain look.
	Layout func(req *command.Request, sys *engine.System, res *engine.Result, p *engine.Parsed, pr engine.Params, labels [2]map[string][]string) (*reply.Reply, error)
}

// Service implements /sistema and finds a chat's system for the
// systems' commands (systems.Forks).
type Service struct {
	store Store
	opt   Options

	mu    sync.Mutex
	built map[string]builtFork // chat|key → the last system built
}

type builtFork struct {
	updated time.Time
	sys     *engine.System
}

// maxBuilt bounds the cache of built forks.
const maxBuilt = 512

// New returns a Service over store.
func New(store Store, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{store: store, opt: o, built: map[string]builtFork{}}
}

// Register adds /sistema to r.
func Register(r *command.Router, s *Service) {
	r.Register(command.Command{Name: "sistema", Aliases: []string{"system", "σύστημα"}, Handler: command.WithHints(s.handle, command.PrefixHint),
		MaxInput: engine.MaxFileBytes + 200, TakesFile: true})
}

// base returns a shipped system by key.
func base(key string) (*engine.System, bool) {
	for _, k := range engine.Shipped() {
		if k == key {
			s, err := engine.Builtin(k)
			return s, err == nil
		}
	}
	return nil, false
}

// System is the system chat plays under key: its fork or own file, or nil
// when it has none (the shipped one applies).
func (s *Service) System(ctx context.Context, chat core.ChatRef, key string) (*engine.System, error) {
	fs, err := s.store.Forks(ctx, chat)
	if err != nil {
		return nil, fmt.Errorf("forks of %s: %w", chat, err)
	}
	for _, f := range fs {
		if f.Key != key {
			continue
		}
		sys, err := s.build(chat, f)
		if err != nil {
			// A fork the shipped file no longer admits (a number a new
			// version dropped): the chat plays the book rather than
			// nothing; /sistema still lists the fork to fix or drop.
			s.opt.Logger.ErrorContext(ctx, "fork no longer builds: the book applies", "chat", chat.String(), "system", key, "err", err)
			return nil, nil
		}
		return sys, nil
	}
	return nil, nil
}

func (s *Service) build(chat core.ChatRef, f Fork) (*engine.System, error) {
	ck := chat.String() + "|" + f.Key
	s.mu.Lock()
	b, ok := s.built[ck]
	s.mu.Unlock()
	if ok && b.updated.Equal(f.Updated) {
		return b.sys, nil
	}
	var sys *engine.System
	var err error
	if f.Own() {
		sys, err = engine.Load(f.Source)
	} else if bs, ok := base(f.Base); !ok {
		err = fmt.Errorf("no shipped system %q", f.Base)
	} else {
		sys, _, err = Build(bs, f.Changes, "en")
	}
	if err != nil {
		return nil, fmt.Errorf("fork %s of %s: %w", f.Key, chat, err)
	}
	s.mu.Lock()
	if len(s.built) >= maxBuilt {
		clear(s.built)
	}
	s.built[ck] = builtFork{updated: f.Updated, sys: sys}
	s.mu.Unlock()
	return sys, nil
}

func (s *Service) find(ctx context.Context, chat core.ChatRef, key string) (Fork, []Fork, bool, error) {
	fs, err := s.store.Forks(ctx, chat)
	if err != nil {
		return Fork{}, nil, false, fmt.Errorf("forks of %s: %w", chat, err)
	}
	for _, f := range fs {
		if f.Key == key {
			return f, fs, true, nil
		}
	}
	return Fork{}, fs, false, nil
}

// undoDoc is what an undo brings back: the fork Key as it was (Had=false:
// it did not exist).
type undoDoc struct {
	Key     string   `json:"key"`
	Had     bool     `json:"had"`
	Base    string   `json:"base,omitempty"`
	Changes []Change `json:"changes,omitempty"`
	Source  []byte   `json:"source,omitempty"`
}

func (s *Service) keepUndo(ctx context.Context, req *command.Request, key string, prev Fork, had bool) {
	if s.opt.Undo == nil {
		return
	}
	doc, err := json.Marshal(undoDoc{Key: key, Had: had, Base: prev.Base, Changes: prev.Changes, Source: prev.Source})
	if err == nil {
		err = s.opt.Undo.PutUndo(ctx, req.Msg.Chat, req.Msg.From.ID, undoKind, doc, s.opt.Now())
	}
	if err != nil {
		s.opt.Logger.ErrorContext(ctx, "keep fork for undo", "chat", req.Msg.Chat.String(), "err", err)
	}
}

func (s *Service) save(ctx context.Context, req *command.Request, f Fork) error {
	f.Updated = s.opt.Now()
	err := s.store.SaveFork(ctx, req.Msg.Chat, f, MaxPerChat)
	if errors.Is(err, core.ErrQuota) {
		return command.Errorf("fork.err.quota", "max", MaxPerChat, "cmd", req.Prefix+req.Alias)
	}
	if err != nil {
		return fmt.Errorf("save fork %s of %s: %w", f.Key, req.Msg.Chat, err)
	}
	return nil
}

// words a subcommand is typed as, in es, el and en.
var (
	wCopy     = []string{"copiar", "copy", "αντιγραφή", "αντιγραφη"}
	wEdit     = []string{"editar", "edit", "αλλαγή", "αλλαγη"}
	wUndo     = []string{"deshacer", "undo", "αναίρεση", "αναιρεση"}
	wOriginal = []string{"original", "πρωτότυπο", "πρωτοτυπο"}
	wImport   = []string{"importar", "import", "εισαγωγή", "εισαγωγη"}
	wRoll     = []string{"tirar", "roll", "ρίξε", "ριξε"}
	wTry      = []string{"probar", "try", "δοκιμή", "δοκιμη"}
	wShow     = []string{"ver", "show", "προβολή", "προβολη"}
	wList     = []string{"lista", "list", "λίστα", "λιστα"}
	wTable    = []string{"tabla", "table", "πίνακας", "πινακας"}
	wName     = []string{"nombre", "name", "όνομα", "ονομα"}
	wRule     = []string{"regla", "rule", "κανόνας", "κανονας"}
	wBand     = []string{"banda", "tramo", "band", "ζώνη", "ζωνη"}
)

func is(w string, words []string) bool {
	k := fold.Key(w)
	for _, x := range words {
		if fold.Key(x) == k {
			return true
		}
	}
	return false
}

func (s *Service) handle(ctx context.Context, req *command.Request) (*reply.Reply, error) {
	args := req.Args
	var file string
	if i := strings.IndexByte(args, '\n'); i >= 0 {
		args, file = args[:i], args[i+1:]
	}
	ws := strings.Fields(args)
	if len(ws) == 0 || is(ws[0], wList) {
		return s.list(ctx, req)
	}
	sub, rest := ws[0], ws[1:]
	switch {
	case is(sub, wRoll):
		return s.roll(ctx, req, rest)
	case is(sub, wShow):
		return s.show(ctx, req, rest)
	case !req.IsGM && (is(sub, wCopy) || is(sub, wEdit) || is(sub, wTry) || is(sub, wUndo) || is(sub, wOriginal) || is(sub, wImport)):
		return nil, command.Errorf("fork.err.gm")
	case is(sub, wCopy):
		return s.copy(ctx, req, rest)
	case is(sub, wEdit):
		return s.edit(ctx, req, rest, true)
	case is(sub, wTry):
		return s.edit(ctx, req, rest, false)
	case is(sub, wUndo):
		return s.undo(ctx, req)
	case is(sub, wOriginal):
		return s.original(ctx, req, rest)
	case is(sub, wImport):
		return s.importFile(ctx, req, file)
	}
	return nil, command.Errorf("fork.err.usage", "cmd", req.Prefix+req.Alias)
}

func systemKey(req *command.Request, ws []string) (string, error) {
	if len(ws) == 0 {
		return "", command.Errorf("fork.err.usage", "cmd", req.Prefix+req.Alias)
	}
	return strings.ToLower(ws[0]), nil
}

func (s *Service) copy(ctx context.Context, req *command.Request, ws []string) (*reply.Reply, error) {
	key, err := systemKey(req, ws)
	if err != nil {
		return nil, err
	}
	bs, ok := base(key)
	if !ok || !slices.Contains(s.opt.Forkable, key) {
		return nil, command.Errorf("fork.err.no_system", "name", fold.Cut(key, 32), "list", strings.Join(s.opt.Forkable, ", "))
	}
	if _, _, had, err := s.find(ctx, req.Msg.Chat, key); err != nil {
		return nil, err
	} else if had {
		return nil, command.Errorf("fork.err.exists", "name", key, "cmd", req.Prefix+req.Alias)
	}
	if err := s.save(ctx, req, Fork{Key: key, Base: key}); err != nil {
		return nil, err
	}
	s.keepUndo(ctx, req, key, Fork{}, false)
	rep := reply.Text(req.T("fork.copied", "name", bs.File.Title.In(req.Lang), "cmd", "/"+bs.File.Command))
	hint := "fork.copied_hint_other"
	ex, number := editExample(req, bs)
	if number {
		hint = "fork.copied_hint"
	}
	rep.Add(reply.I(req.T(hint, "edit", ex)))
	return rep, nil
}

// editExample is "/sistema editar rq pifia 95": the first number, cell or
// band of the file, else the rename of its first outcome, each by its
// name in the chat's language; number reports whether it is a number's.
func editExample(req *command.Request, bs *engine.System) (example string, number bool) {
	p := req.Prefix + req.Alias + " " + req.T("fork.word.edit") + " " + bs.File.System + " "
	f := bs.File
	switch {
	case len(f.Numbers) > 0:
		n := f.Numbers[0]
		v := min((n.Min+n.Max)*19/20, n.Max)
		if v == n.Value {
			v = max(n.Value-1, n.Min)
		}
		return p + strings.ToLower(n.Names.In(req.Lang)) + " " + strconv.Itoa(v), true
	case len(f.Tables) > 0:
		t := f.Tables[0]
		return p + req.T("fork.word.table") + " " + strconv.Itoa(t.Rows.From) + " 1 " + "10", false
	}
	for _, o := range f.Outcomes {
		if b := bandOf(&f, o.Key); b != nil {
			v, err := strconv.Atoi(*cmp.Or(b.AtLeast, b.Above))
			if err != nil {
				continue
			}
			return p + req.T("fork.word.band") + " " + strings.ToLower(o.Names.In(req.Lang)) + " " + strconv.Itoa(v+1), false
		}
	}
	return p + req.T("fork.word.name") + " " + strings.ToLower(f.Outcomes[0].Names.In(req.Lang)) + " " + req.T("fork.example_name"), false
}

// edit makes one change in the chat's fork and says what it moves; with
// save false (/sistema probar, the page's preview) it only says so.
func (s *Service) edit(ctx context.Context, req *command.Request, ws []string, save bool) (*reply.Reply, error) {
	key, err := systemKey(req, ws)
	if err != nil {
		return nil, err
	}
	f, _, had, err := s.find(ctx, req.Msg.Chat, key)
	if err != nil {
		return nil, err
	}
	if had && f.Own() { // a file of the chat's own changes by sending it again
		return nil, command.Errorf("fork.err.own_edit", "name", fold.Cut(key, 32), "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.import"))
	}
	if !had {
		return nil, command.Errorf("fork.err.no_fork", "name", fold.Cut(key, 32), "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.copy")+" "+fold.Cut(key, 32))
	}
	bs, ok := base(f.Base)
	if !ok {
		return nil, fmt.Errorf("fork %s: no shipped %s", f.Key, f.Base)
	}
	before, _, err := Build(bs, f.Changes, req.Lang)
	if err != nil {
		return nil, fmt.Errorf("fork %s: %w", f.Key, err)
	}
	c, err := readChange(req, before, ws[1:], slices.Contains(s.opt.Named, key))
	if err != nil {
		return nil, err
	}
	nf, err := f.with(c)
	if err != nil {
		return nil, err
	}
	after, moved, err := Build(bs, nf.Changes, req.Lang)
	if err != nil {
		// Refused, nothing saved: a value out of range (already the
		// user's message), or a file no longer valid.
		var ue *command.UserError
		if errors.As(err, &ue) {
			return nil, err
		}
		why := err.Error()
		var ee *engine.Error
		if errors.As(err, &ee) {
			why = refusal(req, ee)
		}
		return nil, command.Errorf("fork.err.invalid", "why", why)
	}
	if save {
		if err := s.save(ctx, req, nf); err != nil {
			return nil, err
		}
		s.keepUndo(ctx, req, key, f, true)
	}
	rep := reply.Text(describe(texts(req), before, c) + " → " + valueText(texts(req), after, c))
	moves := OddsMoves(before, after, req.Lang)
	if c.Kind == KindNamed {
		moves = NamedMoves(before, after, c, req.Lang)
	}
	for _, m := range moves {
		rep.Add(reply.T("📊 " + req.T("fork.odds", "inputs", m.Inputs, "outcome", m.Outcome, "old", req.Percent(m.Old), "new", req.Percent(m.New))))
	}
	if len(moved) > 0 {
		rep.Add(reply.T(req.T("fork.moved", "count", len(moved), "list", movedText(req, after, moved))))
	}
	if !save {
		return rep.Add(reply.I(req.T("fork.preview", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.edit")+" "+strings.Join(ws, " ")))), nil
	}
	rep.Add(reply.I(req.T("fork.undo_hint", "cmd", req.Prefix+req.Alias+" "+req.T("fork.word.undo"), "minutes", int(UndoFor/time.Minute))))
	return rep, nil
}

// refusal is the engine's refusal of a file in the chat's language, a
// file's own message (engine.FileKey) translated too.
func refusal(req *command.Request, ee *engine.Error) string {
	return req.T(ee.Key, kvOf(ee.VarsIn(func(key string) string { return req.T(key) }))...)
}

func kvOf(m map[string]any) []any {
	var kv []any
	for k, v := range m {
		kv = append(kv, k, v)
	}
	return kv
}

// movedText is "R1 98 Fallo → Pifia; R9 96 Éxito → Pifia", at most 3.
func movedText(req *command.Request, s *engine.System, ms []Moved) string {
	var parts []string
	for i, m := range ms {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, m.Vector+": "+outcomeName(texts(req), s, m.Old)+" → "+outcomeName(texts(req), s, m.New))
	}
	sep := "; "
	if req.Lang == "el" {
		sep = " · " // the Greek ";" is a question mark
	}
	return strings.Join(parts, sep)
}

func outcomeName(tx Texts, s *engine.System, k string) string {
	for _, o := range s.File.Outcomes {
		if o.Key == k {
			return o.Names.In(tx.Lang)
		}
	}
	return k
}

// HouseRule is the default the chat's system gives house rule key (what
// the systems' commands play when /ajustes sets none): the choice of the
// chat's fork or own file of the shipped system that declares key. ok is
// false when the chat plays that system's book.
func (s *Service) HouseRule(ctx context.Context, chat core.ChatRef, key string) (choice string, ok bool, err error) {
	for _, k := range engine.Shipped() {
		bs, err := engine.Builtin(k)
		if err != nil {
			return "", false, err
		}
		if !slices.ContainsFunc(bs.File.HouseRules, func(h engine.HouseRule) bool { return h.Key == key }) {
			continue
		}
		sys, err := s.System(ctx, chat, k)
		if err != nil || sys == nil {
			return "", false, err
		}
		for _, h := range sys.File.HouseRules {
			if h.Key == key {
				return h.Default, true, nil
			}
		}
		return "", false, nil
	}
	return "", false, nil
}
