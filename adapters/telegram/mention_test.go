package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/reply"
)

// TestMentionIsTheRoundsBell: issue 36. A new round's turn («🔔 Γύρος
// 1», then whose turn) mentions the player with a 🔔 linked to them; the
// round's own bell is that link, not a second bell beside it («🔔 🔔
// Γύρος 1»). A turn without a bell of its own gets the linked bell first.
func TestMentionIsTheRoundsBell(t *testing.T) {
	f := newFakeAPI(t)
	rt := testRouter(t)
	rt.Register(command.Command{Name: "turn", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			rep := &reply.Reply{Mention: []string{"503"}}
			if req.Args == "round" {
				rep.Add(reply.B("🔔 Γύρος 1"))
			}
			rep.Add(reply.T("▶ "), reply.B("Δράκος"), reply.T(" — σειρά σου, Κώστα"))
			return rep, nil
		})})
	start(t, testConfig(f), rt, newMemState())
	g := telegramtest.Group(-911)
	f.SayIn(g, ana, "/turn round")
	m := f.waitSent(g.ID, 1, 5*time.Second)[0]
	if strings.Count(m.Visible, "🔔") != 1 || !strings.HasPrefix(m.Visible, "🔔 Γύρος 1") || !strings.Contains(m.Params["text"], `<a href="tg://user?id=503">🔔</a>`) {
		t.Errorf("a new round: %q (%q), want one bell, the mention", m.Visible, m.Params["text"])
	}
	f.SayIn(g, ana, "/turn")
	m = f.waitSent(g.ID, 2, 5*time.Second)[1]
	if strings.Count(m.Visible, "🔔") != 1 || !strings.HasPrefix(m.Params["text"], `<a href="tg://user?id=503">🔔</a> `) {
		t.Errorf("a turn: %q (%q), want the mention first", m.Visible, m.Params["text"])
	}
}
