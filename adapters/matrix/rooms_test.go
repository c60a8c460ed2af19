package matrix

import (
	"context"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
)

// TestInvitePolicy: with AllowedUsers set, an invite from someone else is
// declined and one from an allowed user accepted; kicked, the bot stops
// answering in that room.
func TestInvitePolicy(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	mallory := newUser(t, hs, "mallory", false)
	b := startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) { c.AllowedUsers = []string{"@alice:localhost"} }})
	bad := mallory.createRoom(false, botID())
	good := alice.createRoom(false, botID())
	alice.waitJoined(good, botID())
	deadline := time.Now().Add(wait)
	for {
		m, err := mallory.cli.Members(context.Background(), bad)
		if err != nil {
			t.Fatal(err)
		}
		declined := false
		for _, e := range m.Chunk {
			if e.GetStateKey() == botID().String() && e.Content.AsMember().Membership == event.MembershipLeave {
				declined = true
			}
		}
		if declined {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot neither declined nor ignored mallory's invite in time")
		}
		time.Sleep(50 * time.Millisecond)
	}

	c := alice.say(good, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), c))
	if _, err := alice.cli.KickUser(context.Background(), good, &mautrix.ReqKickUser{UserID: botID(), Reason: "bye"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; b.log.count("removed from room") == 0; i++ {
		if i > 400 {
			t.Fatal("the bot did not notice the kick")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(b.log.String(), "invite declined") {
		t.Errorf("the declined invite was not logged")
	}
}

// TestEdits: an edited command is ignored by default and re-run when
// configured.
func TestEdits(t *testing.T) {
	for _, rerun := range []bool{false, true} {
		hs := startServer(t, optsNone)
		alice := newUser(t, hs, "alice", false)
		startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) { c.RerunEdits = rerun }})
		room := alice.createRoom(false, botID())
		alice.waitJoined(room, botID())
		orig := alice.say(room, "!zaria 4+2 dc15")
		alice.waitFor("reply", wait, replyTo(botID(), orig))
		edit := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "* !zaria 4+2 dc18",
			NewContent: &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 4+2 dc18"},
			RelatesTo:  &event.RelatesTo{Type: event.RelReplace, EventID: orig}})
		marker := alice.say(room, "!zaria 1+1 dc5")
		alice.waitFor("marker", wait, replyTo(botID(), marker))
		got := alice.matching(replyTo(botID(), edit))
		switch {
		case !rerun && len(got) != 0:
			t.Errorf("edit answered with RerunEdits off")
		case rerun && (len(got) != 1 || !strings.Contains(got[0].Content.AsMessage().Body, "18")):
			t.Errorf("edit with RerunEdits on: %d replies, want one against DC 18", len(got))
		}
	}
}

// TestBadCredentials: a wrong password or pickle key stops Run with an
// error that names neither.
func TestBadCredentials(t *testing.T) {
	hs := startServer(t, optsNone)
	st := &memState{m: map[string]string{}}
	a, err := New(Config{Homeserver: hs.URL, User: botName, Password: "wrong-password-xyz", CryptoDB: t.TempDir() + "/m.db"}, newRouter(t), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	err = a.Run(ctx)
	if err == nil || strings.Contains(err.Error(), "wrong-password-xyz") {
		t.Fatalf("Run with a wrong password = %v, want an error without the password", err)
	}

	dir := t.TempDir()
	alice := newUser(t, hs, "alice", false)
	b := startBot(t, hs, newRouter(t), botOpts{dir: dir, crypto: true})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	b.stop()
	st2, err := openState(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	a2, err := New(Config{Homeserver: hs.URL, User: botName, Password: botPassword, CryptoDB: dir + "/matrix.db", PickleKey: "another pickle key"}, newRouter(t), st2, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a2.Run(ctx)
	if err == nil || strings.Contains(err.Error(), "another pickle key") {
		t.Fatalf("Run with another pickle key = %v, want an error without the key", err)
	}
	t.Logf("wrong pickle key: %v", err)
}

// TestRoles: power level ≥ 50 makes a GM (a moderator, not only the room's
// creator); a player is not one.
func TestRoles(t *testing.T) {
	hs := startServer(t, optsNone)
	bob := newUser(t, hs, "bob", false)
	carol := newUser(t, hs, "carol", false)
	dave := newUser(t, hs, "dave", false)
	carol.autoJoin.Store(true)
	dave.autoJoin.Store(true)
	startBot(t, hs, gameRouter(t), botOpts{})
	room := bob.createRoom(false, botID(), carol.cli.UserID, dave.cli.UserID)
	for _, u := range []*user{carol, dave} {
		bob.waitJoined(room, u.cli.UserID)
		u.waitJoined(room, botID())
	}
	bob.waitJoined(room, botID())
	ctx := context.Background()
	var pl event.PowerLevelsEventContent
	if err := bob.cli.StateEvent(ctx, room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	pl.SetUserLevel(carol.cli.UserID, 50)
	if _, err := bob.cli.SendStateEvent(ctx, room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the bot's sync sees the new levels

	const notGM = "Only a GM"
	asGM := carol.say(room, "!importar not a document")
	asPlayer := dave.say(room, "!importar not a document")
	if r := carol.waitFor("moderator", wait, replyTo(botID(), asGM)).Content.AsMessage().Body; strings.Contains(r, notGM) {
		t.Errorf("a moderator (power level 50) was not taken for a GM: %q", r)
	}
	if r := dave.waitFor("player", wait, replyTo(botID(), asPlayer)).Content.AsMessage().Body; !strings.Contains(r, notGM) {
		t.Errorf("a player was taken for a GM: %q", r)
	}
}
