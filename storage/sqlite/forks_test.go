package sqlite

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/systems/fork"
	"zaria/storage/storagetest"
)

func TestForks(t *testing.T) {
	storagetest.RunForks(t, func(t *testing.T) fork.Store { return openTemp(t) })
}

// A group's upgrade (MoveChat) takes its forks along; merged into a chat
// that has one of the same key, that chat's own stays.
func TestMoveChatForks(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	from := core.ChatRef{Platform: "telegram", ID: "-5"}
	to := core.ChatRef{Platform: "telegram", ID: "-1005"}
	other := core.ChatRef{Platform: "telegram", ID: "-1006"}
	rq := fork.Fork{Key: "rq", Base: "rq", Changes: []fork.Change{{Kind: fork.KindNumber, Key: "fumble_from", Value: "95"}}}
	if err := db.SaveFork(ctx, from, rq, 8); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MoveChat(ctx, from, to, nil); err != nil {
		t.Fatal(err)
	}
	if fs, err := db.Forks(ctx, to); err != nil || len(fs) != 1 || fs[0].Changes[0].Value != "95" {
		t.Fatalf("moved: %+v, %v", fs, err)
	}
	if fs, _ := db.Forks(ctx, from); len(fs) != 0 {
		t.Fatalf("left behind: %+v", fs)
	}
	// Merge: other already has its own rq; to's daegon joins it.
	own := rq
	own.Changes = []fork.Change{{Kind: fork.KindNumber, Key: "fumble_from", Value: "90"}}
	for _, c := range []struct {
		chat core.ChatRef
		f    fork.Fork
	}{{other, own}, {to, fork.Fork{Key: "daegon", Base: "daegon"}}} {
		if err := db.SaveFork(ctx, c.chat, c.f, 8); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.MoveChat(ctx, to, other, nil); err != nil {
		t.Fatal(err)
	}
	fs, err := db.Forks(ctx, other)
	if err != nil || len(fs) != 2 || fs[0].Key != "daegon" || fs[1].Changes[0].Value != "90" {
		t.Fatalf("merged: %+v, %v", fs, err)
	}
}
