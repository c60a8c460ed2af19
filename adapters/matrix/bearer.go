package matrix

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
)

// bearer puts the session's access token on every request the client makes.
//
// mautrix reads Client.AccessToken (and UserID, DeviceID) without a lock on
// every request, and its Login writes them: logging in again after the
// homeserver ended the session, while room workers are sending, was a data
// race. So the client never holds a token (mautrix then sets no
// Authorization header) and this transport adds the current one; logging in
// again swaps it atomically. Requests made while no session is valid (the
// new login itself) go without one.
type bearer struct {
	base  http.RoundTripper
	token atomic.Pointer[string]

	mu      sync.Mutex
	changed chan struct{} // closed (and replaced) by set and stop
	stopped bool          // no new login will come: waitNew gives up
}

func newBearer(base http.RoundTripper) *bearer {
	if base == nil {
		base = http.DefaultTransport
	}
	return &bearer{base: base}
}

// set makes tok the token of every later request ("" for none).
func (b *bearer) set(tok string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.token.Store(&tok)
	b.wake()
}

// stop says that no new login will come (the sync loop has ended): those
// waiting in waitNew give up.
func (b *bearer) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	b.wake()
}

// wake wakes those waiting in waitNew; called with mu held.
func (b *bearer) wake() {
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
}

// waitNew waits until the token is a valid one other than old (the sync
// loop logged in again after the homeserver ended the session). false:
// ctx ended first, or the sync loop has stopped.
func (b *bearer) waitNew(ctx context.Context, old string) bool {
	for {
		b.mu.Lock()
		if cur := b.current(); cur != "" && cur != old {
			b.mu.Unlock()
			return true
		}
		if b.stopped {
			b.mu.Unlock()
			return false
		}
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// current is the token requests carry now.
func (b *bearer) current() string {
	if p := b.token.Load(); p != nil {
		return *p
	}
	return ""
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	tok := b.current()
	if tok == "" && r.Header.Get("Authorization") == "" {
		return b.base.RoundTrip(r)
	}
	// A RoundTripper must not change the caller's request.
	r = r.Clone(r.Context())
	if tok == "" {
		r.Header.Del("Authorization")
	} else {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return b.base.RoundTrip(r)
}
