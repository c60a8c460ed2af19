// Package actions keeps what the bot's buttons mean, for every chat
// adapter: one bounded, durable store of reply.Action values over the
// state store the adapter already has (storage/sqlite).
//
// A message's buttons are one Set: their Actions in order, and the
// adapter's own note (View) on how to draw a press's answer (Telegram: the
// message's text and labels, to add the odds to it; Matrix: its thread).
// What a press means is always the Action as the core made it: an adapter
// never builds a command from a button, and hands what Resolve (or GetAt)
// gives back to core.Port.Press.
//
// An adapter carries only an opaque token per button: Telegram's callback
// data and inline result ids (Tokens, Resolve), a Matrix reaction on the
// message whose Set is kept under its event id (PutAt, GetAt, and the Set
// in the event itself), the console's numbered option. Tokens are inline
// (the Action's own stored form, reply.Action.Encode: no write at all)
// when the Set has no View and each Action fits the room the platform
// gives; otherwise the Set is written once and each token names it and a
// button's place in it.
//
// Records and tokens of the release before this package (Telegram's
// "b:<id>:a|o", "p:<id>[:<v>|…]", "P:<key>", "a:"/"o:" data and "c:"/"r:"
// result ids; Matrix's re-roll and pad records) are read through legacy.go,
// the one place that knows them, so buttons already in chats keep working.
package actions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"zaria/adapters/internal/journal"
	"zaria/core/reply"
)

// StateStore is the adapters' key-value state (storage/sqlite).
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
}

// Set is what the buttons of one message mean, in order.
type Set struct {
	Actions []reply.Action
	// View is the adapter's own note on the message, kept with the
	// Actions and never read by the store.
	View string
}

// setWire is a Set's stored form: {"v":1,"a":[<Action.Encode>…],"w":<View>}.
type setWire struct {
	V int      `json:"v"`
	A []string `json:"a"`
	W string   `json:"w,omitempty"`
}

// EncodeSet is the stored form of s (also what a Matrix message carries).
func EncodeSet(s Set) string {
	w := setWire{V: 1, A: make([]string, len(s.Actions)), W: s.View}
	for i, a := range s.Actions {
		w.A[i] = a.Encode()
	}
	b, _ := json.Marshal(w)
	return string(b)
}

// DecodeSet reads a stored Set: EncodeSet's form, or a record the
// release before wrote (legacy.go). ok=false for anything else, or a
// Set with an Action this version cannot read.
func DecodeSet(v string) (Set, bool) {
	var w setWire
	if err := json.Unmarshal([]byte(v), &w); err != nil || w.V == 0 {
		return legacySet([]byte(v)) // no version: the release before's
	}
	if w.V != 1 {
		return Set{}, false
	}
	s := Set{View: w.W}
	for _, e := range w.A {
		a, err := reply.DecodeAction(e)
		if err != nil {
			return Set{}, false
		}
		s.Actions = append(s.Actions, a)
	}
	return s, true
}

// Store keeps Sets under Prefix in a StateStore, the newest Keep of them.
type Store struct {
	st     StateStore
	prefix string
	keep   int
	log    *slog.Logger
	// legacy is the key prefix of the records the release before wrote
	// beside the Sets (Telegram: "<journal key>."), "" for none.
	legacy string

	writes atomic.Int64
	mem    memory
}

// New returns a store of Sets under prefix (one key per Set), pruned to
// its keep newest every pruneEvery writes. legacy is the prefix of
// earlier records read by old tokens ("" for none).
func New(st StateStore, prefix, legacy string, keep int, log *slog.Logger) *Store {
	return &Store{st: st, prefix: prefix, legacy: legacy, keep: keep, log: log}
}

// pruneEvery is how many writes go by between two prunes.
const pruneEvery = 256

// Tokens are the tokens of set's buttons, one per Action, each at most
// room bytes: inline when set has no View and every Action's stored form
// fits, else one record (one write). A Set with a Private Action (a blind
// roll's result) is always a record under a random id: its token tells
// nothing of it, not even through a hash of its content. A record that cannot be written is
// kept in memory, logged: its buttons work until a restart.
func (s *Store) Tokens(ctx context.Context, set Set, room int) []string {
	out := make([]string, len(set.Actions))
	inline := set.View == ""
	private := false
	for i, a := range set.Actions {
		out[i] = a.Encode()
		if len(out[i]) > room || a.Private() {
			inline = false
		}
		private = private || a.Private()
	}
	if inline || len(set.Actions) == 0 {
		return out
	}
	id := newID()
	if set.View == "" && !private {
		// The same buttons offered again (the same question, the same
		// recent roll) are written over, not added.
		h := sha256.Sum256([]byte(EncodeSet(set)))
		id = hex.EncodeToString(h[:8])
	}
	if err := s.put(ctx, s.prefix+id, set); err != nil {
		s.log.Warn("button record not stored; its buttons work until a restart", "err", err)
		s.mem.put(id, set)
	}
	for i := range out {
		out[i] = "b:" + id + ":" + strconv.Itoa(i)
	}
	return out
}

// InlineToken is a's token when it fits room bytes with no record,
// ok=false otherwise: for a button offered while a user types, which must
// not write anything.
func (s *Store) InlineToken(a reply.Action, room int) (string, bool) {
	t := a.Encode()
	return t, len(t) <= room && !a.Private()
}

// Pressed is what a token stands for: the button's Action, and for a
// stored Set its id (for SetView), the whole Set and the button's place.
type Pressed struct {
	Action reply.Action
	ID     string // "" for an inline token
	Set    Set
	Index  int
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

// Resolve reads a token made by Tokens (or by the release before).
// ok=false for a token this bot did not make or no longer keeps.
func (s *Store) Resolve(ctx context.Context, token string) (Pressed, bool) {
	if a, err := reply.DecodeAction(token); err == nil {
		return Pressed{Action: a, Set: Set{Actions: []reply.Action{a}}}, true
	}
	if rest, ok := strings.CutPrefix(token, "b:"); ok {
		id, place, ok := strings.Cut(rest, ":")
		if !ok || !hex16.MatchString(id) {
			return Pressed{}, false
		}
		set, ok := s.set(ctx, id)
		if !ok {
			return Pressed{}, false
		}
		i, err := strconv.Atoi(place)
		if err != nil || strconv.Itoa(i) != place {
			i = legacyPlace(set, place)
		}
		if i < 0 || i >= len(set.Actions) {
			return Pressed{}, false
		}
		return Pressed{Action: set.Actions[i], ID: id, Set: set, Index: i}, true
	}
	return s.legacyToken(ctx, token)
}

// set is the stored Set id.
func (s *Store) set(ctx context.Context, id string) (Set, bool) {
	if set, ok := s.mem.get(id); ok {
		return set, true
	}
	return s.GetAt(ctx, s.prefix+id)
}

// SetView replaces the View of the stored Set id (the odds were shown).
func (s *Store) SetView(ctx context.Context, id, view string) error {
	set, ok := s.set(ctx, id)
	if !ok {
		return nil
	}
	set.View = view
	if _, ok := s.mem.get(id); ok {
		s.mem.put(id, set)
		return nil
	}
	return s.st.SetState(ctx, s.prefix+id, EncodeSet(set))
}

// PutAt keeps set under key (which starts with the store's prefix: a
// Matrix message's event id).
func (s *Store) PutAt(ctx context.Context, key string, set Set) error {
	return s.put(ctx, key, set)
}

// put writes without an fsync of its own: buttons are stored while an
// event is handled, before its journal entry's synced write.
func (s *Store) put(ctx context.Context, key string, set Set) error {
	if err := journal.SetLazily(ctx, s.st, key, EncodeSet(set)); err != nil {
		return err
	}
	if s.writes.Add(1)%pruneEvery == 0 {
		if err := journal.Prune(ctx, s.st, s.prefix, s.keep); err != nil {
			s.log.Warn("button records not pruned", "err", err)
		}
	}
	return nil
}

// GetAt reads the Set kept under key.
func (s *Store) GetAt(ctx context.Context, key string) (Set, bool) {
	v, ok, err := s.st.State(ctx, key)
	if err != nil {
		s.log.Warn("button record not read", "err", err)
		return Set{}, false
	}
	if !ok || v == "" {
		return Set{}, false
	}
	return DecodeSet(v)
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// memory keeps the Sets that could not be written, the newest maxMemory.
type memory struct {
	mu    sync.Mutex
	m     map[string]Set
	order []string
}

const maxMemory = 4096

func (m *memory) put(id string, s Set) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]Set{}
	}
	if _, ok := m.m[id]; !ok {
		m.order = append(m.order, id)
	}
	m.m[id] = s
	if len(m.order) > maxMemory {
		delete(m.m, m.order[0])
		m.order = m.order[1:]
	}
}

func (m *memory) get(id string) (Set, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.m[id]
	return s, ok
}
