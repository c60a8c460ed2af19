package storagetest

import (
	"context"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/session"
)

// RunSessions checks a session.Store: one open session a chat, its log
// bounded with the dropped counted, the last session found open or
// ended, old sessions pruned, and chats sharing nothing.
func RunSessions(t *testing.T, open func(t *testing.T) session.Store) {
	ctx := context.Background()
	s := open(t)
	_, err := s.LastSession(ctx, chatA)
	wantErr(t, err, core.ErrNotFound, "no session yet")
	ok, err := s.AppendEvent(ctx, chatA, session.Event{Text: "x"}, 3)
	if err != nil || ok {
		t.Fatalf("logged without a session: %v %v", ok, err)
	}
	_, err = s.EndSession(ctx, chatA, t0)
	wantErr(t, err, core.ErrNotFound, "end without a session")
	first, err := s.StartSession(ctx, chatA, session.Session{Title: "Uno", Started: t0}, 2)
	must(t, err)
	_, err = s.StartSession(ctx, chatA, session.Session{Title: "Dos", Started: t0}, 2)
	wantErr(t, err, core.ErrExists, "a second open session")
	if chats, err := s.OpenSessions(ctx); err != nil || len(chats) != 1 || chats[0] != chatA {
		t.Fatalf("chats with an open session: %v %v", chats, err)
	}
	for i, txt := range []string{"a", "b", "c", "d", "e"} {
		e := session.Event{Time: t0.Add(time.Duration(i) * time.Minute), UserName: "Ana", Command: "/roll " + txt, Text: txt}
		if i == 4 {
			e.Secret, e.Blind = "secret e", true
		}
		if ok, err := s.AppendEvent(ctx, chatA, e, 3); err != nil || !ok {
			t.Fatalf("append %s: %v %v", txt, ok, err)
		}
	}
	last, err := s.LastSession(ctx, chatA)
	must(t, err)
	if last.ID != first.ID || !last.Open() || last.Dropped != 2 || last.Title != "Uno" || !last.Started.Equal(t0) {
		t.Fatalf("open session %+v", last)
	}
	evs, err := s.Events(ctx, chatA, first.ID)
	must(t, err)
	if len(evs) != 3 || evs[0].Text != "c" || evs[2].Secret != "secret e" || !evs[2].Blind || !evs[2].Time.Equal(t0.Add(4*time.Minute)) {
		t.Fatalf("events %+v", evs)
	}
	ended, err := s.EndSession(ctx, chatA, t0.Add(time.Hour))
	must(t, err)
	if !ended.Ended.Equal(t0.Add(time.Hour)) || ended.Open() {
		t.Fatalf("ended %+v", ended)
	}
	if chats, err := s.OpenSessions(ctx); err != nil || len(chats) != 0 {
		t.Fatalf("chats with an open session after its end: %v %v", chats, err)
	}
	if ok, _ := s.AppendEvent(ctx, chatA, session.Event{Text: "late"}, 3); ok {
		t.Fatal("logged into an ended session")
	}
	for _, c := range []core.ChatRef{chatB, chatC} {
		_, err := s.LastSession(ctx, c)
		wantErr(t, err, core.ErrNotFound, "a session of another chat")
		if evs, _ := s.Events(ctx, c, first.ID); len(evs) != 0 {
			t.Fatalf("%s reads another chat's log", c)
		}
	}
	// Beyond keep sessions, the oldest goes with its log.
	for _, title := range []string{"Dos", "Tres"} {
		_, err := s.StartSession(ctx, chatA, session.Session{Title: title, Started: t0.Add(2 * time.Hour)}, 2)
		must(t, err)
		_, err = s.EndSession(ctx, chatA, t0.Add(3*time.Hour))
		must(t, err)
	}
	if last, _ := s.LastSession(ctx, chatA); last.Title != "Tres" {
		t.Fatalf("last session %+v", last)
	}
	if evs, _ := s.Events(ctx, chatA, first.ID); len(evs) != 0 {
		t.Fatalf("the pruned session's log is still there: %d", len(evs))
	}
}
