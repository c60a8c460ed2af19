package matrix

import (
	"sync"
	"time"
)

// pace estimates what is left of the homeserver's message budget for the
// bot, from its answers: Synapse's rc_message (by default 0.2 events/s, a
// burst of 10) is a leaky bucket shared by every message, state event,
// join and invite of the bot. A 429 says the bucket was empty then and
// when its next action is allowed (retry_after_ms); the longest wait it
// ever asked for is taken as the time one action takes to come back.
//
// It matters for /createRoom: Synapse 1.67 spends one action on the request
// and one on the creator's join, and when only the first is left it makes
// a room holding nothing but m.room.create, answers 429, and never says
// which: a room the bot can neither see nor join. So a secret room is asked
// for only when two actions are expected to be there.
type pace struct {
	mu     sync.Mutex
	at     time.Time     // the latest 429
	retry  time.Duration // its retry_after
	period time.Duration // the longest retry_after seen: one action's refill
	spent  int           // actions since at
}

// maxPeriod bounds the refill time taken from a 429.
const maxPeriod = time.Minute

// limited records a 429 asking to wait retry.
func (p *pace) limited(retry time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.at, p.retry, p.spent = time.Now(), retry, 0
	p.period = max(p.period, min(retry, maxPeriod))
}

// spend records n actions the homeserver took.
func (p *pace) spend(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spent += n
}

// wait is how long until n actions are expected to be allowed: 0 on a
// homeserver that never said 429.
func (p *pace) wait(n int) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.at.IsZero() {
		return 0
	}
	// One action at at+retry, then one each period; spent ones are gone.
	// Half a period more: Synapse's bucket drains continuously, and an
	// estimate a hair short costs a half-made room.
	ready := p.at.Add(p.retry + time.Duration(n-1+p.spent)*p.period + p.period/2)
	return max(0, time.Until(ready))
}
