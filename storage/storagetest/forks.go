package storagetest

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/systems/fork"
)

// RunForks checks a fork.Store: a fork round-trips with its changes in
// order and an own file with its bytes, per chat; the quota refuses a new
// one only; a delete removes one key.
func RunForks(t *testing.T, open func(t *testing.T) fork.Store) {
	ctx := context.Background()
	s := open(t)
	rq := fork.Fork{Key: "rq", Base: "rq", Updated: t0, Changes: []fork.Change{
		{Kind: fork.KindNumber, Key: "fumble_from", Value: "95"},
		{Kind: fork.KindCell, Key: "pct", Row: 7, Col: 3, Value: "60"},
	}}
	must(t, s.SaveFork(ctx, chatA, rq, 2))
	own := fork.Fork{Key: "ro", Source: []byte("system: ro\n"), Updated: t0}
	must(t, s.SaveFork(ctx, chatA, own, 2))
	wantErr(t, s.SaveFork(ctx, chatA, fork.Fork{Key: "kh", Base: "kh"}, 2), core.ErrQuota, "a third fork beyond 2")
	must(t, s.SaveFork(ctx, chatA, rq, 2)) // replacing is not a new one
	fs, err := s.Forks(ctx, chatA)
	must(t, err)
	if len(fs) != 2 || fs[0].Key != "ro" || string(fs[0].Source) != "system: ro\n" || !fs[0].Own() ||
		fs[1].Key != "rq" || len(fs[1].Changes) != 2 || fs[1].Changes[1] != rq.Changes[1] || !fs[1].Updated.Equal(t0) {
		t.Fatalf("read back %+v", fs)
	}
	for _, c := range []core.ChatRef{chatB, chatC} {
		if fs, err := s.Forks(ctx, c); err != nil || len(fs) != 0 {
			t.Fatalf("another chat %s sees %v, %v", c, fs, err)
		}
	}
	must(t, s.DeleteFork(ctx, chatA, "rq"))
	must(t, s.DeleteFork(ctx, chatA, "rq"))
	if fs, err := s.Forks(ctx, chatA); err != nil || len(fs) != 1 || fs[0].Key != "ro" {
		t.Fatalf("after delete: %v, %v", fs, err)
	}
}
