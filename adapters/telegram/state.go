package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
)

// StateStore keeps small named values across restarts (storage/sqlite).
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
}

// op is one message the bot owes a chat.
type op struct {
	Method string            `json:"m"` // sendMessage or sendDocument
	Chat   int64             `json:"c"`
	Params map[string]string `json:"p"`
	Doc    *document         `json:"f,omitempty"`
	// OnFail is sent when this op cannot be delivered at all (the user
	// never started the bot): the secret-roll hint to the group.
	OnFail *op  `json:"x,omitempty"`
	Done   bool `json:"d,omitempty"`
	// NoChat: the op names its message otherwise (inline_message_id); Chat
	// only picks the send queue.
	NoChat bool `json:"n,omitempty"`
}

// entry is what one update owes: its ops, in order.
type entry struct {
	Update int   `json:"u"`
	Ops    []*op `json:"o"`
}

// snapshot is the journal as stored, in one value so that it is written
// atomically.
type snapshot struct {
	Offset  int      `json:"offset"`
	LastAt  int64    `json:"last_at,omitempty"` // unix time of the last polled update
	Recent  []int    `json:"recent"`
	Pending []*entry `json:"pending,omitempty"`
}

// journal records which updates were handled and which of their replies
// are not yet delivered.
//
// Crash safety. An update's replies are rendered (dice rolled) and written
// to the journal, together with the new offset, BEFORE the first of them is
// sent. A reply is marked delivered after Telegram confirms it and the
// journal is written again shortly after (the flusher). So:
//   - a crash before the write: nothing was sent, the offset was not
//     stored, Telegram delivers the update again and it is handled afresh;
//   - a crash after it: the update is not fetched again (offset), and the
//     pending replies are sent on start, with the same text (the same roll);
//   - the one window left is between Telegram's OK for a message and the
//     next journal write (milliseconds): a crash there sends that message
//     once more, identical, never a different roll. We chose this over the
//     opposite order (mark, then send), which would drop the reply.
//
// Recent update ids also guard against a webhook redelivering an update.
type journal struct {
	store  StateStore
	key    string
	recent int

	mu    sync.Mutex
	snap  snapshot
	seen  map[int]bool
	dirty chan struct{} // non-blocking signal for the flusher
	gen   uint64        // bumped by every change
	// durable is the newest gen written (or given up on); saved is
	// closed and replaced whenever it grows.
	durable uint64
	saved   chan struct{}

	flushMu sync.Mutex
}

func newJournal(store StateStore, key string, recent int) *journal {
	return &journal{store: store, key: key, recent: recent, seen: map[int]bool{}, dirty: make(chan struct{}, 1), saved: make(chan struct{})}
}

// corruptState reports a stored journal that could not be read; the
// journal starts empty and the old value is kept under key+".unreadable".
type corruptState struct{ err error }

func (e *corruptState) Error() string {
	return "telegram state unreadable, starting afresh: " + e.err.Error()
}

// load reads the stored journal. A missing value is a fresh start.
func (j *journal) load(ctx context.Context) error {
	v, ok, err := j.store.State(ctx, j.key)
	if err != nil {
		return fmt.Errorf("load telegram state: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.snap = snapshot{}
	if ok && v != "" {
		if err := json.Unmarshal([]byte(v), &j.snap); err != nil {
			// Keep the unreadable value for a human and start afresh:
			// Telegram still holds the updates we did not confirm.
			j.snap = snapshot{}
			if serr := j.store.SetState(ctx, j.key+".unreadable", v); serr != nil {
				return fmt.Errorf("load telegram state: %w (and saving a copy: %v)", err, serr)
			}
			return &corruptState{err: err}
		}
	}
	j.seen = map[int]bool{}
	for _, id := range j.snap.Recent {
		j.seen[id] = true
	}
	return nil
}

func (j *journal) offset() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.snap.Offset
}

// pollOffset is the offset for the next getUpdates. Telegram picks the
// next update id at random after a week without updates, possibly below
// our offset, and an offset above an update confirms (drops) it. So after
// six idle days we ask without an offset: what is still unconfirmed is in
// the recent ids and skipped.
func (j *journal) pollOffset(now time.Time) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.snap.LastAt != 0 && now.Sub(time.Unix(j.snap.LastAt, 0)) > 6*24*time.Hour {
		return 0
	}
	return j.snap.Offset
}

// handled reports whether update id was handled already.
func (j *journal) handled(id int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seen[id]
}

// pending returns the undelivered ops in update order.
func (j *journal) pending() []*entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.snap.Pending)
}

// commit records handled updates (with their ops) and the next offset
// (0 keeps it: webhook mode) at time now.
func (j *journal) commit(entries []*entry, next int, now time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range entries {
		if !j.seen[e.Update] {
			j.seen[e.Update] = true
			j.snap.Recent = append(j.snap.Recent, e.Update)
		}
		if len(e.Ops) > 0 {
			j.snap.Pending = append(j.snap.Pending, e)
		}
	}
	if extra := len(j.snap.Recent) - j.recent; extra > 0 {
		for _, id := range j.snap.Recent[:extra] {
			delete(j.seen, id)
		}
		j.snap.Recent = slices.Clone(j.snap.Recent[extra:])
	}
	if next > 0 {
		j.snap.Offset = next // may go down: see pollOffset
		j.snap.LastAt = now.Unix()
	}
}

// uncommit takes back entries just committed whose journal write failed
// (webhook mode: the update is refused and delivered again).
func (j *journal) uncommit(entries []*entry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range entries {
		delete(j.seen, e.Update)
		if i := slices.Index(j.snap.Recent, e.Update); i >= 0 {
			j.snap.Recent = slices.Delete(j.snap.Recent, i, i+1)
		}
		if i := slices.Index(j.snap.Pending, e); i >= 0 {
			j.snap.Pending = slices.Delete(j.snap.Pending, i, i+1)
		}
	}
	j.markDirty()
}

// addOp appends an op to an entry (a follow-up such as the secret-roll
// hint) and returns its index.
func (j *journal) addOp(e *entry, o *op) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	e.Ops = append(e.Ops, o)
	if !slices.Contains(j.snap.Pending, e) {
		j.snap.Pending = append(j.snap.Pending, e)
	}
	j.markDirty()
	return len(e.Ops) - 1
}

// done marks an op delivered (or given up) and drops finished entries. It
// returns the generation to wait for (waitSaved) to know it is stored.
func (j *journal) done(e *entry, o *op) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	o.Done = true
	if !slices.ContainsFunc(e.Ops, func(x *op) bool { return !x.Done }) {
		if i := slices.Index(j.snap.Pending, e); i >= 0 {
			j.snap.Pending = slices.Delete(j.snap.Pending, i, i+1)
		}
	}
	j.markDirty()
	return j.gen
}

// waitSaved waits until generation g was written (or its write failed,
// which was logged: sending goes on rather than stall).
func (j *journal) waitSaved(ctx context.Context, g uint64) error {
	for {
		j.mu.Lock()
		if j.durable >= g {
			j.mu.Unlock()
			return nil
		}
		ch := j.saved
		j.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// edit changes an op under the journal's lock.
func (j *journal) edit(f func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f()
	j.markDirty()
}

func (j *journal) markDirty() {
	j.gen++
	select {
	case j.dirty <- struct{}{}:
	default:
	}
}

// flush writes the journal. Writes are serialized and each writes the
// state as it is when it starts, so the last write is the newest state.
func (j *journal) flush(ctx context.Context) error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.mu.Lock()
	b, err := json.Marshal(&j.snap)
	g := j.gen
	j.mu.Unlock()
	if err == nil {
		err = j.store.SetState(ctx, j.key, string(b))
	}
	j.mu.Lock()
	if g > j.durable {
		j.durable = g
		close(j.saved)
		j.saved = make(chan struct{})
	}
	j.mu.Unlock()
	if err != nil {
		return fmt.Errorf("save telegram state: %w", err)
	}
	return nil
}
