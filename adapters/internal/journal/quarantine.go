// Package journal is the chat adapters' shared bookkeeping of what they
// handle: the poison quarantine (an event that was being handled each time
// the process died is skipped the next time, with an apology, instead of
// killing the bot forever) and the bounding of per-event keys in the
// state store. Telegram and Matrix use it alike; what is platform's own
// (Telegram's update offset and pending replies, Matrix's sync token and
// per-event handled marks) stays in the adapter.
package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// MaxCrashes is how many process deaths an event may be in flight for:
// at the next delivery after that many, it is skipped.
const MaxCrashes = 2

// maxSuspects bounds the events remembered, per lane, as having been in
// flight at a death (the oldest are forgotten).
const maxSuspects = 32

// StateStore is the adapters' key-value state (storage/sqlite).
type StateStore interface {
	State(ctx context.Context, key string) (string, bool, error)
	SetState(ctx context.Context, key, value string) error
}

// Quarantine records, durably and before anything is done for it, which
// event each lane is handling (a lane handles one event at a time:
// Telegram has one, Matrix one per room). The first time a lane is read in
// a process, an event its record says was running is one the last
// process died with: unless it was handled after all (Handled), it counts
// a crash. One write per event begun, none when it ends: a handled event
// is never begun again.
type Quarantine struct {
	st StateStore
	// Handled reports whether an event was handled after all (its mark
	// was left "running" because ending costs no write); nil: never.
	handled func(ctx context.Context, item string) bool

	mu    sync.Mutex
	lanes map[string]*lane
}

type lane struct {
	item    string // the event running or last run
	crashes map[string]int
	crashed string // the event the last process died with, "" for none
}

// New returns a quarantine over st; handled may be nil.
func New(st StateStore, handled func(ctx context.Context, item string) bool) *Quarantine {
	return &Quarantine{st: st, handled: handled, lanes: map[string]*lane{}}
}

// record is a lane's stored form. The fields of earlier versions are read
// too: Telegram's {"u":<update>,"c":{…}} (u set: running) and Matrix's
// {"event","crashes","running"}.
type record struct {
	Item    string         `json:"i,omitempty"`
	Running bool           `json:"r,omitempty"`
	Crashes map[string]int `json:"c,omitempty"`

	U        json.Number `json:"u,omitempty"`
	Event    string      `json:"event,omitempty"`
	MCrashes int         `json:"crashes,omitempty"`
	MRunning bool        `json:"running,omitempty"`
}

// load reads lane key once per process.
func (q *Quarantine) load(ctx context.Context, key string) (*lane, error) {
	q.mu.Lock()
	l, ok := q.lanes[key]
	q.mu.Unlock()
	if ok {
		return l, nil
	}
	l = &lane{crashes: map[string]int{}}
	v, found, err := q.st.State(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("load work mark: %w", err)
	}
	var r record
	if found && v != "" && json.Unmarshal([]byte(v), &r) == nil { // unreadable: only the count is lost
		switch {
		case r.U != "":
			r.Item, r.Running = r.U.String(), r.U.String() != "0"
		case r.Event != "":
			r.Item, r.Running = r.Event, r.MRunning
			if r.MCrashes > 0 {
				r.Crashes = map[string]int{r.Event: r.MCrashes}
			}
		}
		for it, n := range r.Crashes {
			if q.handled == nil || !q.handled(ctx, it) {
				l.crashes[it] = n
			}
		}
		l.item = r.Item
		if r.Running && r.Item != "" && (q.handled == nil || !q.handled(ctx, r.Item)) {
			l.crashes[r.Item]++
			l.crashed = r.Item
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if prev, ok := q.lanes[key]; ok {
		return prev, nil
	}
	q.lanes[key] = l
	return l, nil
}

// Crashed is the event lane key's last process died handling ("" for
// none), and how many deaths it was in flight for.
func (q *Quarantine) Crashed(ctx context.Context, key string) (string, int, error) {
	l, err := q.load(ctx, key)
	if err != nil {
		return "", 0, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return l.crashed, l.crashes[l.crashed], nil
}

// Poisoned reports how many deaths item was in flight for in lane key,
// and whether that is MaxCrashes or more: skip it.
func (q *Quarantine) Poisoned(ctx context.Context, key, item string) (int, bool, error) {
	l, err := q.load(ctx, key)
	if err != nil {
		return 0, false, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	n := l.crashes[item]
	return n, n >= MaxCrashes, nil
}

// Begin records durably that lane key handles item now. again: the lane's
// last event was item (a run before started it: its answer may be out).
func (q *Quarantine) Begin(ctx context.Context, key, item string) (again bool, err error) {
	l, err := q.load(ctx, key)
	if err != nil {
		return false, err
	}
	q.mu.Lock()
	again = l.item == item
	l.item = item
	b := q.encode(l, true)
	q.mu.Unlock()
	// Not fsynced: the mark is there for crashes of the process, which it
	// survives; a power cut loses at most a count.
	if err := SetLazily(ctx, q.st, key, b); err != nil {
		return again, fmt.Errorf("save work mark: %w", err)
	}
	return again, nil
}

// Start is Poisoned then Begin in one call: how many deaths
// item was in flight for (the caller skips it at MaxCrashes), and again
// as Begin says. item is recorded as begun either way.
func (q *Quarantine) Start(ctx context.Context, key, item string) (crashes int, again bool, err error) {
	crashes, _, err = q.Poisoned(ctx, key, item)
	if err != nil {
		return 0, false, err
	}
	again, err = q.Begin(ctx, key, item)
	return crashes, again, err
}

// Interrupted records that the process stopped (cleanly) with lane key's
// event not handled: the next run handles it again, and it is no crash.
func (q *Quarantine) Interrupted(ctx context.Context, key string) error {
	l, err := q.load(ctx, key)
	if err != nil {
		return err
	}
	q.mu.Lock()
	b := q.encode(l, false)
	q.mu.Unlock()
	if err := q.st.SetState(ctx, key, b); err != nil {
		return fmt.Errorf("save work mark: %w", err)
	}
	return nil
}

// Forget drops item's crash count once it is handled or skipped.
func (q *Quarantine) Forget(key, item string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if l, ok := q.lanes[key]; ok {
		delete(l.crashes, item)
	}
}

// encode is l's record, its oldest suspects forgotten past maxSuspects.
// Called with q.mu held.
func (q *Quarantine) encode(l *lane, running bool) string {
	if len(l.crashes) > maxSuspects {
		items := make([]string, 0, len(l.crashes))
		for k := range l.crashes {
			items = append(items, k)
		}
		sort.Slice(items, func(i, j int) bool { return older(items[i], items[j]) })
		for _, k := range items[:len(items)-maxSuspects] {
			delete(l.crashes, k)
		}
	}
	b, _ := json.Marshal(record{Item: l.item, Running: running, Crashes: l.crashes})
	return string(b)
}

// older orders items: numerically when both are numbers (Telegram's
// update ids), else as text.
func older(a, b string) bool {
	x, errA := strconv.ParseInt(a, 10, 64)
	y, errB := strconv.ParseInt(b, 10, 64)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}
