package backoff

import (
	"testing"
	"time"
)

// TestDoublingWithJitter: every wait lies in the upper half of its step,
// the steps double from min and stop at max.
func TestDoublingWithJitter(t *testing.T) {
	b := New(500*time.Millisecond, 30*time.Second)
	steps := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
		16 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second}
	for i, s := range steps {
		if d := b.Next(); d < s/2 || d > s {
			t.Fatalf("wait %d is %v; want within [%v, %v]", i+1, d, s/2, s)
		}
	}
}

// TestJitterSpreads: waits of one step differ (bots restarted together do
// not retry in step) and cover the half they are drawn from.
func TestJitterSpreads(t *testing.T) {
	const s = time.Second
	lo, hi := s, time.Duration(0)
	seen := map[time.Duration]bool{}
	for range 2000 {
		d := Jitter(s)
		if d < s/2 || d > s {
			t.Fatalf("Jitter(%v) = %v; want within [%v, %v]", s, d, s/2, s)
		}
		lo, hi = min(lo, d), max(hi, d)
		seen[d] = true
	}
	if len(seen) < 1900 || lo > 510*time.Millisecond || hi < 990*time.Millisecond {
		t.Errorf("2000 waits: %d distinct, from %v to %v; want them spread over [500ms, 1s]", len(seen), lo, hi)
	}
	for _, d := range []time.Duration{0, 1, 2} {
		if j := Jitter(d); j < d/2 || j > d {
			t.Errorf("Jitter(%d) = %d", d, j)
		}
	}
}

// TestServerAskedWait: a wait the server asked for is taken as is and
// does not advance the doubling; Reset starts over from min.
func TestServerAskedWait(t *testing.T) {
	b := New(time.Second, time.Minute)
	if d := b.After(7*time.Second, true); d != 7*time.Second {
		t.Errorf("asked 7s, waited %v", d)
	}
	if d := b.After(0, false); d < 500*time.Millisecond || d > time.Second {
		t.Errorf("first own wait after an asked one is %v; want the first step, within [500ms, 1s]", d)
	}
	if d := b.Next(); d < time.Second || d > 2*time.Second {
		t.Errorf("second own wait %v; want within [1s, 2s]", d)
	}
	b.Reset()
	if d := b.Next(); d < 500*time.Millisecond || d > time.Second {
		t.Errorf("wait after Reset %v; want within [500ms, 1s]", d)
	}
}

// TestMaxBelowMin: a max below min (not refused by the adapters' own
// config) caps every step after the first, as the adapters did.
func TestMaxBelowMin(t *testing.T) {
	b := New(time.Second, 100*time.Millisecond)
	if d := b.Next(); d < 500*time.Millisecond || d > time.Second {
		t.Errorf("first wait %v", d)
	}
	if d := b.Next(); d < 50*time.Millisecond || d > 100*time.Millisecond {
		t.Errorf("second wait %v; want capped at 100ms", d)
	}
}
