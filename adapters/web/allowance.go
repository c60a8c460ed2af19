package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Screen reads each user may make: readBurst at once, then one each
// readEvery (a page reads a screen per tap and the turn order every 4 s;
// the chat's own allowance covers writes).
const (
	readBurst = 30
	readEvery = 500 * time.Millisecond
)

// allowance is a per-user token bucket (platform|user → limiter).
type allowance struct {
	mu    sync.Mutex
	users map[string]*rate.Limiter
}

// allow takes one read from user's bucket at now; false when it is empty.
func (al *allowance) allow(user string, now time.Time) bool {
	al.mu.Lock()
	defer al.mu.Unlock()
	l := al.users[user]
	if l == nil {
		if len(al.users) >= memberKeep {
			clear(al.users)
		}
		l = rate.NewLimiter(rate.Every(readEvery), readBurst)
		al.users[user] = l
	}
	return l.AllowN(now, 1)
}
