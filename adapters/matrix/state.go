package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	ajournal "zaria/adapters/internal/journal"
)

// StateStore keeps small values across restarts (storage/sqlite implements
// it). The adapter keeps there its device id and session, the sync token,
// the join time of each room, the secret-roll rooms, the journal of
// handled events, the pads' records, the newest pad of each room's thread,
// each room's status message and what each answered reaction stood for (re-roll records of earlier
// versions are still read).
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
}

// Keys in the StateStore. All start with "matrix/".
const (
	keyDeviceID    = "matrix/device_id"
	keyAccessToken = "matrix/access_token"
	keyUserID      = "matrix/user_id"
	keyNextBatch   = "matrix/next_batch"
	keyFilterID    = "matrix/filter_id"
	// keyLimited is "1" once the homeserver has answered 429.
	keyLimited = "matrix/rate_limited"
	// keyJournal is the journal of earlier versions (one batch's events).
	keyJournal = "matrix/journal"
)

func keyJoined(room id.RoomID) string { return "matrix/joined/" + string(room) }
func keyDirect(room id.RoomID) string { return "matrix/direct/" + string(room) }
func keyAgain(evt id.EventID) string  { return "matrix/again/" + string(evt) }
func keyPad(evt id.EventID) string    { return "matrix/pad/" + string(evt) }
func keyTap(evt id.EventID) string    { return "matrix/tap/" + string(evt) }

// keyStatus holds the event id of room's status message of slot (the
// turn order's), so a restart edits the same message.
func keyStatus(room id.RoomID, slot string) string {
	return "matrix/status/" + string(room) + "|" + slot
}

// keyLastPad holds the newest pad the bot posted in room's thread (""
// for the main timeline) in answer to user ("" for anyone): a bare "!2"
// there presses that pad's second line (see Adapter.typedPad).
func keyLastPad(room id.RoomID, thread id.EventID, user id.UserID) string {
	return "matrix/lastpad/" + string(room) + "|" + string(thread) + "|" + string(user)
}
func keyDone(evt id.EventID) string { return "matrix/done/" + string(evt) }
func keyInflight(room id.RoomID) string {
	return "matrix/inflight/" + string(room)
}
func keyLast(room id.RoomID) string { return "matrix/last/" + string(room) }
func keySecret(room id.RoomID, user id.UserID) string {
	return "matrix/secret/" + string(room) + "/" + string(user)
}

// syncStore is mautrix's SyncStore on top of a StateStore.
type syncStore struct{ st StateStore }

var _ mautrix.SyncStore = syncStore{}

func (s syncStore) SaveFilterID(ctx context.Context, _ id.UserID, filterID string) error {
	return s.st.SetState(ctx, keyFilterID, filterID)
}

func (s syncStore) LoadFilterID(ctx context.Context, _ id.UserID) (string, error) {
	v, _, err := s.st.State(ctx, keyFilterID)
	return v, err
}

func (s syncStore) SaveNextBatch(ctx context.Context, _ id.UserID, token string) error {
	return s.st.SetState(ctx, keyNextBatch, token)
}

func (s syncStore) LoadNextBatch(ctx context.Context, _ id.UserID) (string, error) {
	v, _, err := s.st.State(ctx, keyNextBatch)
	return v, err
}

// journal remembers, durably, which events were answered (one key per
// event, "matrix/done/<event id>", pruned to the newest keepDone) and,
// through the adapters' shared quarantine (adapters/internal/journal),
// which event each room is working on ("matrix/inflight/<room>"). A
// restart in the middle of a batch (the sync token not yet saved, the
// homeserver sends the batch again) or of a catch-up answers none twice;
// an event a run died on is first looked for in the room (its reply may
// have made it), and one that was in flight during MaxCrashes deaths is
// given up (see Adapter.poisoned).
type journal struct {
	st      StateStore
	q       *ajournal.Quarantine
	bounded ajournal.Bounded
}

func newJournal(st StateStore) *journal {
	j := &journal{st: st, bounded: ajournal.Bounded{St: st, Keep: keepDone, Every: pruneEvery}}
	j.q = ajournal.New(st, func(ctx context.Context, evt string) bool {
		seen, _ := j.seen(ctx, id.EventID(evt))
		return seen
	})
	return j
}

// keepDone is how many answered events are remembered: far more than a
// catch-up can hold (maxGap per room).
const keepDone = 20000

// pruneEvery is how many marks go by between two prunes.
const pruneEvery = 500

// seen reports whether evt was already handled.
func (j *journal) seen(ctx context.Context, evt id.EventID) (bool, error) {
	v, ok, err := j.st.State(ctx, keyDone(evt))
	if err != nil {
		return false, fmt.Errorf("load journal: %w", err)
	}
	return ok && v != "", nil
}

// start records, before anything is done for it, that evt of room is being
// handled. It returns how many runs died handling it, and unsure=true when
// an earlier run started it (its reply may be out).
func (j *journal) start(ctx context.Context, room id.RoomID, evt id.EventID) (crashes int, unsure bool, err error) {
	crashes, unsure, err = j.q.Start(ctx, keyInflight(room), string(evt))
	if err != nil {
		return crashes, unsure, fmt.Errorf("journal: %w", err)
	}
	return crashes, unsure, nil
}

// begin is seen, then (for an event not handled yet) start, in one call:
// seen=true, the event was handled already; err joins what failed.
func (j *journal) begin(ctx context.Context, room id.RoomID, evt id.EventID) (seen bool, crashes int, unsure bool, err error) {
	seen, err = j.seen(ctx, evt)
	if seen {
		return true, 0, false, err
	}
	crashes, unsure, serr := j.start(ctx, room, evt)
	return false, crashes, unsure, errors.Join(err, serr)
}

// joinedAt is when (unix ms) the bot joined room, 0 when unknown: events
// older are history, never answered.
func (j *journal) joinedAt(ctx context.Context, room id.RoomID) (int64, error) {
	v, _, err := j.st.State(ctx, keyJoined(room))
	if err != nil {
		return 0, fmt.Errorf("load join time: %w", err)
	}
	return parseInt(v), nil
}

// interrupted records that the adapter stopped (cleanly) before room's
// event was handled: the next run handles it again, and it is no crash.
func (j *journal) interrupted(ctx context.Context, room id.RoomID) error {
	if err := j.q.Interrupted(ctx, keyInflight(room)); err != nil {
		return fmt.Errorf("save journal: %w", err)
	}
	return nil
}

// mark records evt of room as handled.
func (j *journal) mark(ctx context.Context, room id.RoomID, evt id.EventID) error {
	// One write (a commit, an fsync): the room's in-flight record is left
	// as it is; it only matters for an event started again, and a handled
	// event is never started again (seen comes first).
	j.q.Forget(keyInflight(room), string(evt))
	if err := j.bounded.Set(ctx, "matrix/done/", keyDone(evt), "1"); err != nil {
		return fmt.Errorf("save journal: %w", err)
	}
	return nil
}

// lastEvent is the newest timeline event of a room that a completed sync
// batch held: a catch-up never goes further back.
type lastEvent struct {
	Event id.EventID `json:"event"`
	TS    int64      `json:"ts"`
}

func (j *journal) last(ctx context.Context, room id.RoomID) (lastEvent, error) {
	var l lastEvent
	v, ok, err := j.st.State(ctx, keyLast(room))
	if err != nil || !ok || v == "" {
		return l, err
	}
	_ = json.Unmarshal([]byte(v), &l)
	return l, nil
}

// setLast records l as room's newest handled event, unless one newer is
// recorded (an event decrypted late is older than what followed it).
func (j *journal) setLast(ctx context.Context, room id.RoomID, l lastEvent) error {
	if cur, err := j.last(ctx, room); err == nil && cur.TS > l.TS {
		return nil
	}
	b, _ := json.Marshal(l)
	return j.st.SetState(ctx, keyLast(room), string(b))
}

func parseInt(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// migrate carries the answered events of an earlier version's journal
// (one batch, in keyJournal) over to the per-event keys.
func (j *journal) migrate(ctx context.Context) error {
	v, ok, err := j.st.State(ctx, keyJournal)
	if err != nil || !ok || v == "" {
		return err
	}
	var rec struct {
		Done []id.EventID `json:"done"`
	}
	_ = json.Unmarshal([]byte(v), &rec) // damaged: nothing to carry over
	for _, e := range rec.Done {
		if err := j.st.SetState(ctx, keyDone(e), "1"); err != nil {
			return fmt.Errorf("migrate journal: %w", err)
		}
	}
	return j.st.SetState(ctx, keyJournal, "")
}

// Prefixes of per-event keys other than the journal's, each bounded to
// keepDone keys by setBounded.
const (
	prefixPad     = "matrix/pad/"
	prefixTap     = "matrix/tap/"
	prefixLastPad = "matrix/lastpad/"
)

// setBounded stores a per-event key under prefix, pruning the prefix to
// its keepDone newest keys every pruneEvery writes. A pruned pad record is
// still read from the pad message itself (Adapter.buttonsOn); a pruned tap
// is one so old that taking it back presses nothing.
func (j *journal) setBounded(ctx context.Context, prefix, key, value string) error {
	return j.bounded.Set(ctx, prefix, key, value)
}

// tapRecord is what a reaction the bot answered stood for: a second tap on
// it in Element redacts it, and by then its content is gone, so the press
// it stood for is kept under keyTap(reaction) when it is first handled.
type tapRecord struct {
	Room id.RoomID  `json:"room"`
	On   id.EventID `json:"on"`  // the bot's message it reacted to
	Key  string     `json:"key"` // its key, without variation selectors
	By   id.UserID  `json:"by"`  // who reacted: only they take it back to press
}

// saveTap records what the reaction evt stood for.
func (j *journal) saveTap(ctx context.Context, evt id.EventID, rec tapRecord) error {
	b, _ := json.Marshal(rec)
	if err := j.setBounded(ctx, prefixTap, keyTap(evt), string(b)); err != nil {
		return fmt.Errorf("save tap: %w", err)
	}
	return nil
}

// tap is what the reaction evt stood for, if the bot answered it.
func (j *journal) tap(ctx context.Context, evt id.EventID) (tapRecord, bool, error) {
	var rec tapRecord
	v, ok, err := j.st.State(ctx, keyTap(evt))
	if err != nil {
		return rec, false, fmt.Errorf("load tap: %w", err)
	}
	if !ok || v == "" || json.Unmarshal([]byte(v), &rec) != nil {
		return rec, false, nil
	}
	return rec, true, nil
}

// forgetTap records that the reaction evt was taken back and answered: a
// second redaction of it presses nothing.
func (j *journal) forgetTap(ctx context.Context, evt id.EventID) error {
	if err := j.st.SetState(ctx, keyTap(evt), ""); err != nil {
		return fmt.Errorf("save tap: %w", err)
	}
	return nil
}
