package ask_test

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/ask"
)

type lister []ask.Request

func (l lister) OpenAsks(context.Context, core.ChatRef) ([]ask.Request, error) { return l, nil }

// TestOpenIsWhatAUserMayPress: the page's view of the open requests
// gives a player the button of their own character not rolled yet, a GM
// every character not rolled and ⏹; a blind request hides its check
// from players, as the chat's message does.
func TestOpenIsWhatAUserMayPress(t *testing.T) {
	l := lister{
		{ID: 2, Check: "/roll 1d20 vs 10", GMName: "Gema", Entries: []ask.Entry{
			{Key: "lyra", Name: "Lyra", Owner: ana.ID}, {Key: "drake", Name: "Drake", Owner: bob.ID}, {Key: "borin", Name: "Borin", Owner: ana.ID, Rolled: true}}},
		{ID: 1, Check: "/rq 40", Blind: true, Entries: []ask.Entry{{Key: "drake", Name: "Drake", Owner: bob.ID}}},
	}
	names := func(p ask.Pending) string {
		var s []string
		for _, b := range p.Buttons {
			s = append(s, b.Name)
		}
		return strings.Join(s, ",")
	}
	ctx, chat := context.Background(), core.ChatRef{Platform: "telegram", ID: "-1"}
	p, _ := ask.Open(ctx, l, chat, ana.ID, false)
	if len(p) != 1 || p[0].ID != 2 || names(p[0]) != "Lyra" || !p[0].Buttons[0].Mine || p[0].Close ||
		strings.Join(p[0].Waiting, ",") != "Lyra,Drake" {
		t.Errorf("Ana's view: %+v", p)
	}
	p, _ = ask.Open(ctx, l, chat, bob.ID, false)
	if len(p) != 2 || names(p[0]) != "Drake" || names(p[1]) != "Drake" || p[1].Check != "" || p[0].Check == "" {
		t.Errorf("Bob's view: %+v", p)
	}
	p, _ = ask.Open(ctx, l, chat, gmU.ID, true)
	if len(p) != 2 || names(p[0]) != "Lyra,Drake" || p[0].Buttons[0].Mine || !p[0].Close || p[1].Check != "/rq 40" {
		t.Errorf("the GM's view: %+v", p)
	}
	if p, _ = ask.Open(ctx, l, chat, stra.ID, false); len(p) != 0 {
		t.Errorf("a stranger's view: %+v", p)
	}
}
