package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"
)

// StateStore keeps small values across restarts (storage/sqlite implements
// it). The adapter keeps there its device id and session, the sync token,
// the join time of each room, which 🎲 reactions re-run which command, the
// secret-roll rooms, and the events of the sync batch in progress.
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
	keyJournal     = "matrix/journal"
)

func keyJoined(room id.RoomID) string { return "matrix/joined/" + string(room) }
func keyDirect(room id.RoomID) string { return "matrix/direct/" + string(room) }
func keyAgain(evt id.EventID) string  { return "matrix/again/" + string(evt) }
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

// journal remembers which events of the sync batch in progress were already
// handled, so that a restart in the middle of a batch (the sync token not
// yet saved, the homeserver sends the batch again) answers none twice. It
// also remembers the event being answered: if the process died while its
// reply was on the way, the next run first looks whether the reply made it.
// It holds at most one batch.
type journal struct {
	st StateStore

	mu    sync.Mutex
	since string
	done  map[id.EventID]bool
	doing id.EventID
	// interrupted is the event a previous run was answering when it died.
	interrupted id.EventID
}

type journalRecord struct {
	Since string       `json:"since"`
	Done  []id.EventID `json:"done"`
	Doing id.EventID   `json:"doing,omitempty"`
}

// begin starts the batch requested with since, keeping what a previous run
// recorded for the same since token.
func (j *journal) begin(ctx context.Context, since string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done != nil && j.since == since {
		return nil
	}
	first := j.done == nil
	j.since, j.done, j.doing = since, map[id.EventID]bool{}, ""
	v, ok, err := j.st.State(ctx, keyJournal)
	if err != nil || !ok || v == "" {
		return err
	}
	var rec journalRecord
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return nil // a damaged journal only loses its protection for one batch
	}
	if rec.Since == since {
		for _, e := range rec.Done {
			j.done[e] = true
		}
		if first && rec.Doing != "" && !j.done[rec.Doing] {
			j.interrupted = rec.Doing
		}
	}
	return nil
}

// seen reports whether evt was already handled.
func (j *journal) seen(evt id.EventID) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.done[evt]
}

// wasInterrupted reports whether a previous run died answering evt.
func (j *journal) wasInterrupted(evt id.EventID) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return evt != "" && j.interrupted == evt
}

// start records that evt is being answered.
func (j *journal) start(ctx context.Context, evt id.EventID) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.doing = evt
	return j.save(ctx)
}

// mark records evt as handled.
func (j *journal) mark(ctx context.Context, evt id.EventID) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done == nil {
		j.done = map[id.EventID]bool{}
	}
	j.done[evt] = true
	if j.doing == evt {
		j.doing = ""
	}
	if j.interrupted == evt {
		j.interrupted = ""
	}
	return j.save(ctx)
}

func (j *journal) save(ctx context.Context) error {
	rec := journalRecord{Since: j.since, Done: make([]id.EventID, 0, len(j.done)), Doing: j.doing}
	for e := range j.done {
		rec.Done = append(rec.Done, e)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := j.st.SetState(ctx, keyJournal, string(b)); err != nil {
		return fmt.Errorf("save journal: %w", err)
	}
	return nil
}

func parseInt(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
