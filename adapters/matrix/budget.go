package matrix

import (
	"sync"
	"time"
)

// budget is the one model of the homeserver's rate limit for the bot,
// kept from its answers. Synapse's rc_message (by default 0.2 events/s, a
// burst of 10) is a leaky bucket shared by every message, reaction, state
// event, join and invite of the bot; Dendrite sets none. A 429 says the
// bucket was empty then and when the next action is allowed
// (retry_after_ms); the longest wait it ever asked for is taken as the
// time one action takes to come back.
//
// Two questions are asked of it:
//   - Wait(n): how long until n actions are expected to be allowed. A
//     secret room waits for two (/createRoom: Synapse 1.67 spends one on
//     the request and one on the creator's join, and when only the first
//     is left it makes a room holding nothing but m.room.create, answers
//     429, and never says which: a room the bot can neither see nor join).
//   - Spare(): whether a decoration (the reaction buttons, Config.Reactions
//     "auto") may be sent now: on a homeserver that never rate-limited the
//     bot, always; else only while the bot spent fewer than budgetSends
//     actions in the last window and not for calm after a 429, so a reply
//     always finds room in the burst.
type budget struct {
	mu     sync.Mutex
	calm   time.Duration // calmFor (shorter in tests)
	window time.Duration // budgetWindow (shorter in tests)
	ever   bool          // this homeserver rate-limits the bot (keyLimited)
	at     time.Time     // the latest 429
	retry  time.Duration // its retry_after
	period time.Duration // the longest retry_after seen: one action's refill
	spent  int           // actions since at
	recent []time.Time   // the latest actions, oldest first, at most budgetSends
}

// Budget of the "auto" reaction buttons, once the homeserver has shown it
// rate-limits (a 429, remembered across restarts). Synapse's default limit
// is a burst of 10 sends refilled at 0.2/s (12 a minute): decorations go
// out only while the bot has spent fewer than budgetSends actions in the
// last budgetWindow, and not at all for calmFor after a 429.
const (
	calmFor      = 5 * time.Minute
	budgetWindow = time.Minute
	budgetSends  = 5
	// maxPeriod bounds the refill time taken from a 429.
	maxPeriod = time.Minute
)

func newBudget() *budget { return &budget{calm: calmFor, window: budgetWindow} }

// Remembered says the homeserver rate-limited the bot in an earlier run.
func (b *budget) Remembered() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ever = true
}

// Limited records a 429 asking to wait retry; first says it is the first
// this homeserver ever gave (to be remembered across restarts).
func (b *budget) Limited(retry time.Duration) (first bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first = !b.ever
	b.ever = true
	b.at, b.retry, b.spent = time.Now(), retry, 0
	b.period = max(b.period, min(retry, maxPeriod))
	return first
}

// Spend records n actions the homeserver took.
func (b *budget) Spend(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spent += n
	now := time.Now()
	for range n {
		b.recent = append(b.recent, now)
	}
	if len(b.recent) > budgetSends {
		b.recent = b.recent[len(b.recent)-budgetSends:]
	}
}

// Wait is how long until n actions are expected to be allowed: 0 on a
// homeserver that never said 429 in this run.
func (b *budget) Wait(n int) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at.IsZero() {
		return 0
	}
	// One action at at+retry, then one each period; spent ones are gone.
	// Half a period more: Synapse's bucket drains continuously, and an
	// estimate a hair short costs a half-made room.
	ready := b.at.Add(b.retry + time.Duration(n-1+b.spent)*b.period + b.period/2)
	return max(0, time.Until(ready))
}

// Spare says whether a decoration may be sent now (see budget).
func (b *budget) Spare() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at.IsZero() && !b.ever {
		return true // a homeserver that has never rate-limited the bot
	}
	since, n := time.Now().Add(-b.window), 0
	for _, t := range b.recent {
		if t.After(since) {
			n++
		}
	}
	if n >= budgetSends {
		return false
	}
	return b.at.IsZero() || time.Since(b.at) > b.calm
}
