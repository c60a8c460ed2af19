package command_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"zaria/core"
)

// TestRecent: Router.Recent asks the registered reader for the user's
// rolls in that chat and gives them once each, newest first, at most n,
// skipping what is not a command; without a reader, or when it fails,
// there are none.
func TestRecent(t *testing.T) {
	r, _, _ := newRouter(t)
	ctx := context.Background()
	msg := core.Message{Chat: core.ChatRef{Platform: "test", ID: "7"}, From: core.User{ID: "u1", Name: "Ana"}}
	if got := r.Recent(ctx, msg, 5); got != nil {
		t.Errorf("no reader: %q", got)
	}
	var asked []string
	r.HandleRecent(func(_ context.Context, chat core.ChatRef, user string, n int) ([]string, error) {
		asked = append(asked, chat.String()+"|"+user)
		return []string{"/roll d20", " /roll 2d6 ", "/roll d20", "", "hola", "!tiro 3", "/roll d8", "/roll d10"}, nil
	})
	if got := r.Recent(ctx, msg, 4); !slices.Equal(got, []string{"/roll d20", "/roll 2d6", "!tiro 3", "/roll d8"}) {
		t.Errorf("recent %q", got)
	}
	if !slices.Equal(asked, []string{msg.Chat.String() + "|u1"}) {
		t.Errorf("the reader was asked %q", asked)
	}
	if got := r.Recent(ctx, msg, 0); got != nil {
		t.Errorf("n=0: %q", got)
	}
	r.HandleRecent(func(context.Context, core.ChatRef, string, int) ([]string, error) { return nil, errors.New("disk") })
	if got := r.Recent(ctx, msg, 5); got != nil {
		t.Errorf("a failing reader: %q", got)
	}
}
