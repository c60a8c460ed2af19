package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// StateStore keeps small named values across restarts (storage/sqlite).
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
	// WriteStates sets the keys of set and deletes those of del in one
	// transaction.
	WriteStates(ctx context.Context, set map[string]string, del []string) error
	// StatesWithPrefix returns every key under prefix with its value.
	StatesWithPrefix(ctx context.Context, prefix string) (map[string]string, error)
}

// op is one message the bot owes a chat.
type op struct {
	Method string            `json:"m"` // sendMessage, sendDocument, sendPhoto…
	Chat   int64             `json:"c"`
	Params map[string]string `json:"p"`
	Doc    *document         `json:"f,omitempty"`
	// OnFail is sent when this op cannot be delivered at all (the user
	// never started the bot): the secret-roll hint to the group.
	OnFail *op `json:"x,omitempty"`
	// Fallback is sent instead when this op is refused for good (a photo
	// in a chat where the bot may not send photos): its text form.
	Fallback []*op `json:"fb,omitempty"`
	Done     bool  `json:"d,omitempty"`
	// NoChat: the op names its message otherwise (inline_message_id); Chat
	// only picks the send queue.
	NoChat bool `json:"n,omitempty"`
	// Slot: this op sends the chat's status message of that slot
	// (status.go); its message id is remembered once sent.
	Slot string `json:"sl,omitempty"`
	// SlotEdit: this sendMessage shows the status of Slot as an edit of
	// the slot's message when the slot has one by the time it is sent
	// (sender.deliver asks then, not when the reply was made: two
	// replies at once make one status message); a newer SlotEdit of the
	// same slot waiting in the queue makes it unneeded.
	SlotEdit bool `json:"se,omitempty"`
}

// entry is what one update owes: its ops, in order. It is stored as its
// own record, <journal key>.u.<update id>, from when the update is handled
// until HandledRetention after (then without its ops once all are done):
// the record is what says the update was handled.
type entry struct {
	Update int   `json:"u"`
	At     int64 `json:"t,omitempty"` // when it was journaled, Unix ns (orders pending entries)
	Ops    []*op `json:"o,omitempty"`
	// thread is the update's forum topic while its ops are built (0
	// outside topics): each topic has its own status message.
	thread int
}

// snapshot is the journal's main record: the polling offset. Recent and
// Pending are read only, from journals written before the records existed.
type snapshot struct {
	Offset  int      `json:"offset"`
	LastAt  int64    `json:"last_at,omitempty"` // unix time of the last polled update
	Recent  []int    `json:"recent,omitempty"`
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
//   - a crash after it: the update is not handled again (its record), and
//     the pending replies are sent on start, with the same text (the same
//     roll);
//   - the one window left is between Telegram's OK for a message and the
//     next journal write (milliseconds): a crash there sends that message
//     once more, identical, never a different roll. We chose this over the
//     opposite order (mark, then send), which would drop the reply.
//
// Every write is append-only in effect: it writes the records that changed
// (the updates just handled, the entries whose replies were just sent, the
// offset when polling), never the whole journal, so a webhook delivery
// costs one small record whatever the backlog. A redelivered update is
// recognised by its record, for HandledRetention: longer than Telegram
// keeps an update (24 h), so no window of ids can be outrun by a flood
// (TestWebhookOldRetryAfterFlood).
type journal struct {
	store     StateStore
	key       string
	retention time.Duration

	mu      sync.Mutex
	snap    snapshot
	seen    *handledSet // the handled updates' ids (handledset.go)
	pend    []*entry    // entries with undelivered ops, in journal order
	changed map[*entry]bool
	del     []int         // records to delete (expired)
	offDirt bool          // the offset changed
	lastAt  int64         // the newest At given
	swept   int64         // when expired records were last looked for
	dirty   chan struct{} // non-blocking signal for the flusher
	gen     uint64        // bumped by every change
	// durable is the newest gen written; saved is closed and replaced
	// at the end of every write, worked or failed.
	durable uint64
	saved   chan struct{}
	// failedAt is when writes began to fail (zero while they work):
	// waitSaved waits for a failing journal only holdUnkept.
	failedAt time.Time

	flushMu sync.Mutex
}

func newJournal(store StateStore, key string, retention time.Duration) *journal {
	return &journal{store: store, key: key, retention: retention, seen: newHandledSet(int64(retention)), changed: map[*entry]bool{},
		dirty: make(chan struct{}, 1), saved: make(chan struct{})}
}

func (j *journal) recordKey(id int) string { return j.key + ".u." + strconv.Itoa(id) }

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
	recs, err := j.store.StatesWithPrefix(ctx, j.key+".u.")
	if err != nil {
		return fmt.Errorf("load telegram state: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.snap = snapshot{}
	j.seen, j.pend, j.changed = newHandledSet(int64(j.retention)), nil, map[*entry]bool{}
	type handledAt struct {
		id int
		at int64
	}
	ids := make([]handledAt, 0, len(recs))
	for _, r := range recs {
		var e entry
		if json.Unmarshal([]byte(r), &e) != nil || e.Update == 0 {
			continue // unreadable: as if not handled (Telegram may deliver it again)
		}
		ids = append(ids, handledAt{e.Update, e.At})
		j.lastAt = max(j.lastAt, e.At)
		if slices.ContainsFunc(e.Ops, func(o *op) bool { return !o.Done }) {
			j.pend = append(j.pend, &e)
		}
	}
	slices.SortFunc(ids, func(a, b handledAt) int { return cmpInt64(a.at, b.at) })
	for _, h := range ids {
		j.seen.add(h.id, h.at)
	}
	slices.SortFunc(j.pend, func(a, b *entry) int {
		if a.At != b.At {
			return cmpInt64(a.At, b.At)
		}
		return a.Update - b.Update
	})
	var corrupt error
	if ok && v != "" {
		if err := json.Unmarshal([]byte(v), &j.snap); err != nil {
			// Keep the unreadable value for a human and start afresh:
			// Telegram still holds the updates we did not confirm.
			j.snap = snapshot{}
			if serr := j.store.SetState(ctx, j.key+".unreadable", v); serr != nil {
				return fmt.Errorf("load telegram state: %w (and saving a copy: %v)", err, serr)
			}
			corrupt = &corruptState{err: err}
		}
	}
	// A journal from before the records: its recent ids and pending
	// entries become records at the next write.
	now := time.Now().UnixNano()
	for _, id := range j.snap.Recent {
		if !j.seen.has(id) {
			e := &entry{Update: id, At: now}
			j.seen.add(id, now)
			j.changed[e] = true
		}
	}
	for _, e := range j.snap.Pending {
		if e.At == 0 {
			e.At = now
		}
		j.seen.add(e.Update, max(e.At, j.lastAt))
		j.pend = append(j.pend, e)
		j.changed[e] = true
	}
	if j.snap.Recent != nil || j.snap.Pending != nil {
		j.snap.Recent, j.snap.Pending = nil, nil
		j.offDirt = true
		j.gen++
	}
	return corrupt
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (j *journal) offset() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.snap.Offset
}

// pollOffset is the offset for the next getUpdates. Telegram picks the
// next update id at random after a week without updates, possibly below
// our offset, and an offset above an update confirms (drops) it. So after
// six idle days we ask without an offset: what is still unconfirmed was
// journaled and is skipped.
func (j *journal) pollOffset(now time.Time) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.snap.LastAt != 0 && now.Sub(time.Unix(j.snap.LastAt, 0)) > 6*24*time.Hour {
		return 0
	}
	return j.snap.Offset
}

// offsetMark is the polling offset and when it was last moved, for rewind.
func (j *journal) offsetMark() snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	return snapshot{Offset: j.snap.Offset, LastAt: j.snap.LastAt}
}

// rewind puts the polling offset back to s (an offset moved past updates
// whose journal write failed: they are fetched again).
func (j *journal) rewind(s snapshot) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.snap.Offset, j.snap.LastAt = s.Offset, s.LastAt
}

// handled reports whether update id was journaled already.
func (j *journal) handled(id int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seen.has(id)
}

// pending returns the undelivered ops in journal order.
func (j *journal) pending() []*entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.pend)
}

// commit records handled updates (with their ops) and the next offset
// (0 keeps it: webhook mode) at time now.
func (j *journal) commit(entries []*entry, next int, now time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range entries {
		if j.seen.has(e.Update) {
			continue
		}
		j.lastAt = max(j.lastAt+1, now.UnixNano())
		e.At = j.lastAt
		j.seen.add(e.Update, e.At)
		j.changed[e] = true
		if len(e.Ops) > 0 {
			j.pend = append(j.pend, e)
		}
	}
	if next > 0 {
		j.snap.Offset = next // may go down: see pollOffset
		j.snap.LastAt = now.Unix()
		j.offDirt = true
	}
	j.sweep(now)
	j.markDirty()
}

// sweep schedules the deletion of records older than the retention whose
// replies are all sent, at most once a minute. Called with j.mu.
func (j *journal) sweep(now time.Time) {
	if now.UnixNano()-j.swept < int64(time.Minute) {
		return
	}
	j.swept = now.UnixNano()
	horizon := now.Add(-j.retention).UnixNano()
	pending := make(map[int]bool, len(j.pend))
	for _, e := range j.pend {
		pending[e.Update] = true
	}
	j.del = append(j.del, j.seen.expire(horizon, func(id int) bool { return pending[id] })...)
}

// uncommit takes back entries just committed whose journal write failed
// (webhook mode: the update is refused and delivered again).
func (j *journal) uncommit(entries []*entry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range entries {
		if j.changed[e] && e.At != 0 {
			j.seen.remove(e.Update) // committed just now, not written
		}
		delete(j.changed, e)
		if i := slices.Index(j.pend, e); i >= 0 {
			j.pend = slices.Delete(j.pend, i, i+1)
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
	if !slices.Contains(j.pend, e) {
		j.pend = append(j.pend, e)
	}
	j.changed[e] = true
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
		if i := slices.Index(j.pend, e); i >= 0 {
			j.pend = slices.Delete(j.pend, i, i+1)
		}
	}
	j.changed[e] = true
	j.markDirty()
	return j.gen
}

// waitSaved waits until generation g was written: a chat's next message
// leaves only once the one before is marked sent, so a crash repeats at
// most one per chat. A failed write does not end the wait (the flusher
// writes again); only writes failing for holdUnkept do, logged by the
// adapter: sending then goes on unrecorded rather than stall on a full
// disk (TestSendWaitsForTheMarkThroughAWriteFailure).
func (j *journal) waitSaved(ctx context.Context, g uint64) error {
	for {
		j.mu.Lock()
		if j.durable >= g || (!j.failedAt.IsZero() && time.Since(j.failedAt) >= holdUnkept) {
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

// edit changes an op of e under the journal's lock.
func (j *journal) edit(e *entry, f func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f()
	j.changed[e] = true
	j.markDirty()
}

func (j *journal) markDirty() {
	j.gen++
	j.poke()
}

// poke wakes the flusher.
func (j *journal) poke() {
	select {
	case j.dirty <- struct{}{}:
	default:
	}
}

// flush writes what changed since the last write, in one transaction.
// Writes are serialized; a failed one is retried by the next.
func (j *journal) flush(ctx context.Context) error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.mu.Lock()
	set := make(map[string]string, len(j.changed)+1)
	var err error
	written := j.changed
	for e := range written {
		rec := e
		if !slices.ContainsFunc(e.Ops, func(o *op) bool { return !o.Done }) {
			rec = &entry{Update: e.Update, At: e.At} // all sent: only that it was handled
		}
		b, merr := json.Marshal(rec)
		if merr != nil {
			err = merr
			break
		}
		set[j.recordKey(e.Update)] = string(b)
	}
	var del []string
	for _, id := range j.del {
		del = append(del, j.recordKey(id))
	}
	deleted, offDirt := j.del, j.offDirt
	if offDirt && err == nil {
		b, merr := json.Marshal(&j.snap)
		if merr != nil {
			err = merr
		}
		set[j.key] = string(b)
	}
	g := j.gen
	j.changed, j.del, j.offDirt = map[*entry]bool{}, nil, false
	j.mu.Unlock()
	if err == nil {
		err = j.store.WriteStates(ctx, set, del)
	}
	j.mu.Lock()
	if err != nil {
		// Written by the next flush (an entry taken back since is not).
		for e := range written {
			if j.seen.has(e.Update) {
				j.changed[e] = true
			}
		}
		j.del = append(j.del, deleted...)
		j.offDirt = j.offDirt || offDirt
		if j.failedAt.IsZero() {
			j.failedAt = time.Now()
		}
	} else {
		j.failedAt = time.Time{}
		j.durable = max(j.durable, g)
	}
	close(j.saved)
	j.saved = make(chan struct{})
	j.mu.Unlock()
	if err != nil {
		return fmt.Errorf("save telegram state: %w", err)
	}
	return nil
}
