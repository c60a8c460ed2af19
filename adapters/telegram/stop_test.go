package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

// slowRouter is the test router with /slow, whose handler takes d (or
// until its context ends) and then replies "slow done"; started is
// signalled when it begins.
type slowRouter struct {
	*command.Router
	d       time.Duration
	started chan struct{}
}

func (s *slowRouter) Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool) {
	if !strings.HasPrefix(msg.Text, "/slow") {
		return s.Router.Dispatch(ctx, msg)
	}
	s.started <- struct{}{}
	select {
	case <-time.After(s.d):
		return reply.Text("slow done"), true
	case <-ctx.Done():
		return reply.Text("slow cut"), true
	}
}

// TestStopFinishesBegunUpdate: a stop while an update is being handled
// lets it finish and sends its reply before Run returns.
func TestStopFinishesBegunUpdate(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.PollTimeout = 30 * time.Second
	cfg.DrainTimeout = 3 * time.Second
	d := &slowRouter{Router: testRouter(t), d: 700 * time.Millisecond, started: make(chan struct{}, 1)}
	r := start(t, cfg, d, newMemState())
	f.SayIn(telegramtest.Group(-240), ana, "/slow")
	<-d.started
	t0 := time.Now()
	r.stop(t)
	took := time.Since(t0)
	got := f.SentTo(-240)
	if len(got) != 1 || got[0].Visible != "slow done" {
		t.Fatalf("after the stop the chat got %+v, want the begun update's reply", got)
	}
	if took > 2*time.Second {
		t.Errorf("Run took %v to return", took)
	}
}

// TestStopCutsUpdateAtDrainTime: an update that is still being handled
// when the drain time after the stop is over is cut, so Run returns in
// time (DrainTimeout + 1 s at most); it was not acknowledged, and the next
// start handles it again and answers it once.
func TestStopCutsUpdateAtDrainTime(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.PollTimeout = 30 * time.Second
	cfg.DrainTimeout = 300 * time.Millisecond
	st := newMemState()
	d := &slowRouter{Router: testRouter(t), d: time.Minute, started: make(chan struct{}, 1)}
	r := start(t, cfg, d, st)
	f.SayIn(telegramtest.Group(-241), ana, "/slow")
	<-d.started
	t0 := time.Now()
	r.stop(t)
	if took := time.Since(t0); took > cfg.DrainTimeout+time.Second {
		t.Errorf("Run took %v to return, want ≤ %v", took, cfg.DrainTimeout+time.Second)
	}
	if got := f.SentTo(-241); len(got) != 0 {
		t.Fatalf("the cut update was answered: %+v", got)
	}
	logs := r.logs.String()
	if !strings.Contains(logs, "update cut at the end of the drain time") {
		t.Errorf("the cut is not logged:\n%s", logs)
	}
	d.d = 10 * time.Millisecond
	r2 := start(t, testConfig(f), d, st)
	<-d.started
	got := f.waitSent(-241, 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	if got = f.SentTo(-241); len(got) != 1 || got[0].Visible != "slow done" {
		t.Errorf("after the restart the chat got %+v, want one reply", got)
	}
	r2.stop(t)
	if strings.Contains(r2.logs.String(), "died while handling") {
		t.Error("a stop was taken for a crash")
	}
}
