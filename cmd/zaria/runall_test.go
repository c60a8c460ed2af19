package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeAdapter runs until ctx ends (returning ctx's error), or returns err
// after the delay when it has one to give.
type fakeAdapter struct {
	name    string
	after   time.Duration
	err     error
	returns bool
	stopped chan struct{}
}

func (f *fakeAdapter) Name() string { return f.name }

func (f *fakeAdapter) Run(ctx context.Context) error {
	defer close(f.stopped)
	if !f.returns {
		<-ctx.Done()
		return ctx.Err()
	}
	select {
	case <-time.After(f.after):
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func newFakeAdapter(name string, returns bool, err error) *fakeAdapter {
	return &fakeAdapter{name: name, after: 20 * time.Millisecond, err: err, returns: returns, stopped: make(chan struct{})}
}

// TestRunAll: a failing adapter stops the others and its error, named,
// is the run's; one that ends (a console at end of input) ends the run
// without error; so does the end of the context.
func TestRunAll(t *testing.T) {
	nop := func(string, ...any) {}
	tg, ops := newFakeAdapter("telegram", true, errors.New("boom")), newFakeAdapter("ops", false, nil)
	err := runAll(context.Background(), []adapter{tg, ops}, nop)
	if err == nil || !strings.Contains(err.Error(), "telegram: boom") {
		t.Errorf("failing adapter: %v", err)
	}
	<-ops.stopped

	console, mx := newFakeAdapter("console", true, nil), newFakeAdapter("matrix", false, nil)
	if err := runAll(context.Background(), []adapter{console, mx}, nop); err != nil {
		t.Errorf("console at end of input: %v", err)
	}
	<-mx.stopped

	ctx, cancel := context.WithCancel(context.Background()) // SIGTERM
	time.AfterFunc(30*time.Millisecond, cancel)
	if err := runAll(ctx, []adapter{newFakeAdapter("a", false, nil), newFakeAdapter("b", false, nil)}, nop); err != nil {
		t.Errorf("end of context: %v", err)
	}
}
