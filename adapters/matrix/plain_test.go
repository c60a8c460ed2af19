package matrix

import (
	"context"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// wait is how long a test waits for something that must happen (never a
// bound it checks): Dendrite, the bot and the clients under -race on a
// loaded 2-core CI machine are many times slower than on a desk.
const wait = 60 * time.Second

// TestPlainRoom: invite → join → !zaria 4+2 dc15 → an m.notice with HTML as
// a reply; history before the join is not answered; notices, plain chat
// and the bot's own messages are ignored; a mention followed by a command
// works; a command in a thread is answered in the thread; 🎲 re-rolls.
func TestPlainRoom(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	room := alice.createRoom(false)
	old := alice.say(room, "!zaria 1+1 dc5") // before the bot is there: history
	b := startBot(t, hs, newRouter(t), botOpts{})
	ctx := context.Background()
	if _, err := alice.cli.InviteUser(ctx, room, &inviteReq{UserID: botID()}); err != nil {
		t.Fatal(err)
	}
	alice.waitJoined(room, botID())

	start := time.Now()
	cmd := alice.say(room, "!zaria 4+2 dc15")
	got := alice.waitFor("reply to !zaria", wait, replyTo(botID(), cmd))
	t.Logf("!zaria → notice in %v", time.Since(start))
	c := got.Content.AsMessage()
	if c.Format != event.FormatHTML || !strings.Contains(c.FormattedBody, "<b>") {
		t.Errorf("formatted_body = %q (format %q), want HTML with <b>", c.FormattedBody, c.Format)
	}
	if strings.Contains(c.Body, "<b>") || !strings.Contains(c.Body, "15") {
		t.Errorf("body = %q, want plain text naming the DC 15", c.Body)
	}
	if c.Mentions == nil || len(c.Mentions.UserIDs) != 1 || c.Mentions.UserIDs[0] != alice.cli.UserID {
		t.Errorf("mentions = %+v, want alice", c.Mentions)
	}

	// Things the bot must not answer.
	notice := alice.send(room, &event.MessageEventContent{MsgType: event.MsgNotice, Body: "!zaria 2+2 dc10"})
	chat := alice.say(room, "hello there, zaria fans")

	// A mention of the bot followed by a command.
	mention := alice.say(room, "zaria: !zaria 3+3 dc12")
	alice.waitFor("reply to the mention", wait, replyTo(botID(), mention))

	// A mention without a prefix, /zaria as plain text, a room's own prefix.
	bare := alice.say(room, "Zaria, zaria 2+2 dc10")
	alice.waitFor("reply to the bare mention", wait, replyTo(botID(), bare))
	slash := alice.say(room, "/zaria 2+2 dc10")
	alice.waitFor("reply to /zaria", wait, replyTo(botID(), slash))
	setPrefix := alice.say(room, "!ajustes prefix .")
	alice.waitFor("prefix set", wait, replyTo(botID(), setPrefix))
	dot := alice.say(room, "zaria: .zaria 1+1 dc5")
	alice.waitFor("reply with the room's prefix", wait, replyTo(botID(), dot))

	// A command in a thread is answered in the thread.
	inThread := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 2+1 dc10",
		RelatesTo: &event.RelatesTo{Type: event.RelThread, EventID: cmd, InReplyTo: &event.InReplyTo{EventID: cmd}, IsFallingBack: true}})
	tr := alice.waitFor("reply in thread", wait, replyTo(botID(), inThread)).Content.AsMessage()
	if tr.RelatesTo.Type != event.RelThread || tr.RelatesTo.EventID != cmd {
		t.Errorf("thread reply relates_to = %+v, want thread %s", tr.RelatesTo, cmd)
	}

	// 🎲: the bot offers it under its roll; alice's 🎲 runs the roll again.
	alice.waitFor("🎲 offered", wait, func(e *event.Event) bool {
		r := e.Content.AsReaction().RelatesTo
		return e.Sender == botID() && e.Type == event.EventReaction && r.EventID == got.ID && r.Key == againKey
	})
	if _, err := alice.cli.SendReaction(ctx, room, got.ID, "🎲"); err != nil {
		t.Fatal(err)
	}
	again := alice.waitFor("re-roll", wait, replyTo(botID(), got.ID)).Content.AsMessage()
	if !strings.Contains(again.Body, "15") {
		t.Errorf("re-roll body = %q, want the same check (DC 15)", again.Body)
	}
	// 📊: a system check always states its odds; a generic roll with a
	// target offers 📊, which runs it again with its odds.
	gcmd := alice.say(room, "!roll 3d6 vs 12")
	groll := alice.waitFor("generic roll", wait, replyTo(botID(), gcmd))
	alice.waitFor("📊 offered", wait, func(e *event.Event) bool {
		r := e.Content.AsReaction().RelatesTo
		return e.Sender == botID() && e.Type == event.EventReaction && r.EventID == groll.ID && r.Key == oddsKey
	})
	if _, err := alice.cli.SendReaction(ctx, room, groll.ID, "📊"); err != nil {
		t.Fatal(err)
	}
	withOdds := alice.waitFor("odds", wait, func(e *event.Event) bool {
		return replyTo(botID(), groll.ID)(e) && strings.Contains(e.Content.AsMessage().Body, "37.5%")
	})
	t.Logf("📊 → %q", withOdds.Content.AsMessage().Body)

	// Give the bot time to (wrongly) answer what it must not.
	marker := alice.say(room, "!zaria 1+0 dc3")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	for _, ev := range []id.EventID{old, notice, chat} {
		if n := len(alice.matching(replyTo(botID(), ev))); n != 0 {
			t.Errorf("bot answered %s %d times, want never", ev, n)
		}
	}
	for _, ev := range []id.EventID{cmd, mention, inThread, marker} {
		if n := len(alice.matching(replyTo(botID(), ev))); n != 1 {
			t.Errorf("bot answered %s %d times, want once", ev, n)
		}
	}
	_ = b
}
