package storagetest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"zaria/core"
	"zaria/core/ask"
)

// RunAsks checks an ask.Store: a request round-trips with its entries, an
// update is one transaction (two presses at once both land), an error in
// the update changes nothing, a chat keeps only its newest requests, and
// chats share none.
func RunAsks(t *testing.T, open func(t *testing.T) ask.Store) {
	ctx := context.Background()
	s := open(t)
	total, margin, yes := 16, 1.5, true
	r := ask.Request{Check: "/zaria destreza+sigilo dc15", GM: "gm", GMName: "Gema", Created: t0, Chances: "Lyra 62 % · Drake 35 %",
		Entries: []ask.Entry{{Key: "lyra", Name: "Lyra", Owner: "u1", OwnerName: "Ana"}, {Key: "drake", Name: "Drake", Owner: "u2", OwnerName: "Bob"}}}
	got, err := s.CreateAsk(ctx, chatA, r, 3)
	must(t, err)
	if got.ID <= 0 {
		t.Fatalf("id %d", got.ID)
	}
	back, err := s.Ask(ctx, chatA, got.ID)
	must(t, err)
	if !reflect.DeepEqual(back, got) || !back.Created.Equal(t0) {
		t.Errorf("read back %+v, want %+v", back, got)
	}
	for _, c := range []core.ChatRef{chatB, chatC} {
		_, err := s.Ask(ctx, c, got.ID)
		wantErr(t, err, core.ErrNotFound, "a request read from another chat")
		_, err = s.UpdateAsk(ctx, c, got.ID, func(*ask.Request) error { return nil })
		wantErr(t, err, core.ErrNotFound, "a request changed from another chat")
	}

	// Two presses at once: each sets its own entry, neither is lost.
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.UpdateAsk(ctx, chatA, got.ID, func(r *ask.Request) error {
				e := &r.Entries[i]
				e.Rolled, e.Total, e.Outcome, e.Success, e.Margin = true, &total, "success", &yes, &margin
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	back, _ = s.Ask(ctx, chatA, got.ID)
	for _, e := range back.Entries {
		if !e.Rolled || e.Total == nil || *e.Total != 16 || e.Margin == nil || *e.Margin != 1.5 || e.Success == nil || !*e.Success {
			t.Errorf("entry after the presses: %+v", e)
		}
	}
	boom := errors.New("boom")
	_, err = s.UpdateAsk(ctx, chatA, got.ID, func(r *ask.Request) error { r.Closed = true; return boom })
	wantErr(t, err, boom, "fn's error")
	if back, _ := s.Ask(ctx, chatA, got.ID); back.Closed {
		t.Error("an update that failed closed the request")
	}
	closed, err := s.UpdateAsk(ctx, chatA, got.ID, func(r *ask.Request) error { r.Closed = true; return nil })
	must(t, err)
	if back, _ := s.Ask(ctx, chatA, got.ID); !back.Closed || !closed.Closed {
		t.Error("closing did not stay")
	}

	// Three more: the chat keeps its 3 newest, the first is forgotten.
	var last ask.Request
	for range 3 {
		last, err = s.CreateAsk(ctx, chatA, r, 3)
		must(t, err)
	}
	_, err = s.Ask(ctx, chatA, got.ID)
	wantErr(t, err, core.ErrNotFound, "a request beyond the 3 kept")
	if _, err := s.Ask(ctx, chatA, last.ID); err != nil {
		t.Errorf("the newest request: %v", err)
	}
	// Another chat's requests do not count against this one's.
	other, err := s.CreateAsk(ctx, chatB, r, 1)
	must(t, err)
	if _, err := s.Ask(ctx, chatA, last.ID); err != nil {
		t.Errorf("chat A's request after chat B's: %v", err)
	}
	if _, err := s.Ask(ctx, chatB, other.ID); err != nil {
		t.Errorf("chat B's request: %v", err)
	}
}
