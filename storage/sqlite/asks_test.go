package sqlite

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/ask"
	"zaria/storage/storagetest"
)

// TestAsksContract runs the requests' contract on a real file.
func TestAsksContract(t *testing.T) {
	storagetest.RunAsks(t, func(t *testing.T) ask.Store { return openTemp(t) })
}

// TestMoveChatTakesRequests: a group that becomes a supergroup takes its
// requests for a roll along, so their buttons work in the new chat.
func TestMoveChatTakesRequests(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	old := core.ChatRef{Platform: "telegram", ID: "-100"}
	to := core.ChatRef{Platform: "telegram", ID: "-1001000"}
	r, err := db.CreateAsk(ctx, old, ask.Request{Check: "/roll 1d20", GM: "gm", Entries: []ask.Entry{{Key: "lyra", Name: "Lyra", Owner: "u1"}}}, 20)
	if err != nil {
		t.Fatal(err)
	}
	// The new chat was used before the move: the merge, not the rename.
	if err := db.SetOption(ctx, to, "x", "y"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MoveChat(ctx, old, to, nil); err != nil {
		t.Fatal(err)
	}
	got, err := db.Ask(ctx, to, r.ID)
	if err != nil || got.Check != "/roll 1d20" || len(got.Entries) != 1 {
		t.Fatalf("request in the new chat: %+v, %v", got, err)
	}
	if _, err := db.Ask(ctx, old, r.ID); err == nil {
		t.Error("the request is still in the old chat")
	}
}
