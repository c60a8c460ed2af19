package web

import (
	"context"
	"testing"

	"zaria/core"
)

// TestNoPlatformNoTrust: a Matrix widget's session made while the bot ran
// with its Matrix adapter is refused once the bot runs without it (no way
// to check the room's membership), and so is a Telegram private chat's
// session without the Telegram adapter; with the adapter, the same
// session is let in.
func TestNoPlatformNoTrust(t *testing.T) {
	in := membersFunc(func(context.Context, core.ChatRef, string) (bool, bool, error) { return true, false, nil })
	ctx := context.Background()
	for _, c := range []struct {
		chat core.ChatRef
		user string
	}{
		{core.ChatRef{Platform: "matrix", ID: "!room:example.org"}, "@alice:example.org"},
		{core.ChatRef{Platform: "telegram", ID: "42"}, "42"},
	} {
		with, srvWith := newTestAdapter(t, Config{}, Deps{Members: map[string]Members{c.chat.Platform: in}})
		without, srvWithout := newTestAdapter(t, Config{}, Deps{State: nil})
		for _, x := range []struct {
			a    *Adapter
			url  string
			want int
		}{{with, srvWith.URL, 200}, {without, srvWithout.URL, 403}} {
			tok, _ := x.a.tok.ChatToken(ctx, c.chat)
			s, err := x.a.startSession(ctx, core.Message{Chat: c.chat, From: core.User{ID: c.user, Name: "A"}}, tok)
			if err != nil {
				t.Fatal(err)
			}
			if code, body := post(t, x.url+"/app/api/hello", "Bearer "+s, ""); code != x.want {
				t.Errorf("%s session, members wired %v: %d %q, want %d", c.chat.Platform, x.want == 200, code, body, x.want)
			}
		}
	}
}
