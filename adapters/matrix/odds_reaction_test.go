package matrix

import (
	"context"
	"strings"
	"testing"

	"maunium.net/go/mautrix/event"
)

// TestOddsReactionPicture: alice's 📊 under "!roll 3d6 vs 12" is resolved
// by the core (an odds press of that roll, its total marked): the answer
// states the odds (37.5%) and is followed by the picture of the
// distribution, both in reply to the roll. Nothing is rolled: the answer
// is no roll (it carries no re-roll record and gets no 🎲), and the room
// holds one roll only.
func TestOddsReactionPicture(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) { chartConfig(c); c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!roll 3d6 vs 12")
	rolled := alice.waitFor("roll", wait, replyTo(botID(), cmd))
	alice.waitFor("📊 offered", wait, botReaction(rolled.ID, oddsKey))
	if _, err := alice.cli.SendReaction(context.Background(), room, rolled.ID, "📊"); err != nil {
		t.Fatal(err)
	}
	odds := alice.waitFor("odds", wait, replyTo(botID(), rolled.ID))
	if body := odds.Content.AsMessage().Body; !strings.Contains(body, "37.5%") {
		t.Errorf("📊 answered %q, want the odds 37.5%%", body)
	}
	if _, ok := odds.Content.Raw[buttonsField]; ok {
		t.Errorf("the odds answer carries a re-roll record: it was rolled")
	}
	img := alice.waitFor("picture", wait, func(e *event.Event) bool {
		c := e.Content.AsMessage()
		return e.Sender == botID() && c.MsgType == event.MsgImage && c.RelatesTo != nil && c.RelatesTo.InReplyTo != nil && c.RelatesTo.InReplyTo.EventID == rolled.ID
	}).Content.AsMessage()
	if img.Info == nil || img.Info.MimeType != "image/png" || img.Body == "" {
		t.Errorf("picture = %+v, want a PNG with the chart as text", img)
	}
	marker := alice.say(room, "!roll 1")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	if n := len(alice.matching(botReaction(odds.ID, againKey))); n != 0 {
		t.Errorf("🎲 offered under the odds answer: it was taken for a roll")
	}
	rolls := alice.matching(func(e *event.Event) bool {
		_, ok := e.Content.Raw[buttonsField]
		return e.Sender == botID() && ok && strings.Contains(e.Content.AsMessage().Body, "3d6")
	})
	if len(rolls) != 1 {
		t.Errorf("%d rolls of 3d6 in the room, want 1 (📊 rolls nothing)", len(rolls))
	}
}
