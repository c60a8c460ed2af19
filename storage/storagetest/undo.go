package storagetest

import (
	"context"
	"testing"
	"time"

	"zaria/core"
)

// RunUndo checks a core.UndoStore: nothing at first, the last put is
// what is taken, once, with its time; users, kinds and chats are apart.
func RunUndo(t *testing.T, open func(t *testing.T) core.UndoStore) {
	ctx := context.Background()
	s := open(t)
	if _, _, err := s.TakeUndo(ctx, chatA, "u1", "character"); err == nil {
		t.Fatal("an undo before any was kept")
	} else {
		wantErr(t, err, core.ErrNotFound, "nothing to undo")
	}
	at := time.Unix(1_700_000_000, 0).UTC()
	must(t, s.PutUndo(ctx, chatA, "u1", "character", []byte(`{"name":"A"}`), at))
	must(t, s.PutUndo(ctx, chatA, "u1", "character", []byte(`{"name":"B"}`), at.Add(time.Second)))
	must(t, s.PutUndo(ctx, chatA, "u2", "character", []byte(`{"name":"C"}`), at))
	must(t, s.PutUndo(ctx, chatB, "u1", "character", []byte(`{"name":"D"}`), at))
	doc, when, err := s.TakeUndo(ctx, chatA, "u1", "character")
	must(t, err)
	if string(doc) != `{"name":"B"}` || !when.Equal(at.Add(time.Second)) {
		t.Fatalf("took %s at %v, want the last one", doc, when)
	}
	if _, _, err := s.TakeUndo(ctx, chatA, "u1", "character"); err == nil {
		t.Fatal("an undo taken twice")
	}
	if _, _, err := s.TakeUndo(ctx, chatA, "u1", "pad"); err == nil {
		t.Fatal("another kind's undo")
	}
	for _, c := range []struct {
		chat core.ChatRef
		user string
		want string
	}{{chatA, "u2", `{"name":"C"}`}, {chatB, "u1", `{"name":"D"}`}} {
		doc, _, err := s.TakeUndo(ctx, c.chat, c.user, "character")
		must(t, err)
		if string(doc) != c.want {
			t.Fatalf("%v %s took %s, want %s", c.chat, c.user, doc, c.want)
		}
	}
}
