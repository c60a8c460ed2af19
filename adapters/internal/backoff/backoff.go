// Package backoff is the chat adapters' one wait between failed requests
// to their servers (the Telegram Bot API, a Matrix homeserver).
//
// After each failure the wait doubles, from Min up to Max, and is drawn
// at random from the upper half of that step (half fixed, half jitter),
// so that bots restarted together do not retry in step. A wait the server
// asked for (Telegram's retry_after, Matrix's retry_after_ms or a
// Retry-After header) is taken as it is and does not advance the
// doubling. Reset starts over from Min after a success.
//
// A Backoff belongs to one retry loop: it is not safe for concurrent use.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff is the state of one retry loop. The zero value waits nothing;
// use New.
type Backoff struct {
	min, max time.Duration
	step     time.Duration // the next failure's step before jitter
}

// New returns a Backoff whose first step is min and whose steps stop
// growing at max.
func New(min, max time.Duration) *Backoff {
	return &Backoff{min: min, max: max, step: min}
}

// Next is the wait after one more failure: a random duration in [s/2, s]
// for the current step s, which then doubles up to max.
func (b *Backoff) Next() time.Duration {
	s := b.step
	b.step = min(2*s, b.max)
	return Jitter(s)
}

// After is the wait after a failure for which the server asked for a
// wait (asked, ok as returned by the adapters' retryAfter): asked when ok,
// else Next.
func (b *Backoff) After(asked time.Duration, ok bool) time.Duration {
	if ok {
		return asked
	}
	return b.Next()
}

// Reset makes the next failure's step min again.
func (b *Backoff) Reset() { b.step = b.min }

// Jitter is a random duration in [d/2, d]: half of d fixed, half random.
func Jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	return d/2 + rand.N(d-d/2+1)
}

// Sleep waits d, or until ctx ends: then it returns ctx's error. A d of
// zero or less waits nothing. It is the adapters' one way to wait.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
