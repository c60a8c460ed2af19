package telegram

import (
	"context"
	"sync"
	"time"
)

// window allows at most max sends in any span of length per, counted the
// way the server sees them: a send holds its slot from the moment it
// starts until per after its answer arrived. Whatever the network delay,
// the server never sees more than max requests within per.
type window struct {
	max int
	per time.Duration

	mu       sync.Mutex
	inFlight int
	frees    []time.Time   // when finished sends give their slot back, ascending
	wake     chan struct{} // made by the first waiter, closed by the next release (nil: nobody waits)
}

func newWindow(max int, per time.Duration) *window {
	return &window{max: max, per: per}
}

// acquire waits for a slot. The caller must call release once the request
// is answered (or failed).
func (w *window) acquire(ctx context.Context) error {
	for {
		w.mu.Lock()
		now := time.Now()
		i := 0
		for i < len(w.frees) && !w.frees[i].After(now) {
			i++
		}
		w.frees = w.frees[i:]
		if len(w.frees) == 0 {
			// Not even the backing array stays: a window at rest is
			// its struct only (10,000 chats keep one or two each).
			w.frees = nil
		}
		if w.inFlight+len(w.frees) < w.max {
			w.inFlight++
			w.mu.Unlock()
			return nil
		}
		if w.wake == nil {
			w.wake = make(chan struct{})
		}
		wake := w.wake
		var t *time.Timer
		var timer <-chan time.Time
		if len(w.frees) > 0 {
			t = time.NewTimer(w.frees[0].Sub(now))
			timer = t.C
		}
		w.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-wake:
		case <-timer:
		}
		if t != nil {
			t.Stop()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// release gives the slot back per after now and wakes the waiters, who
// look again.
func (w *window) release() {
	w.mu.Lock()
	w.inFlight--
	w.frees = append(w.frees, time.Now().Add(w.per))
	if w.wake != nil {
		close(w.wake)
		w.wake = nil
	}
	w.mu.Unlock()
}
