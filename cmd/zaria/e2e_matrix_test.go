package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
	"zaria/bench/e2e/botproc"
)

const (
	mxBotPassword = "E2E-matrix-PASSWORD-31337"
	mxPickleKey   = "E2E-PICKLE-KEY-zzzz-0123456789"
)

// TestE2EMatrixOutage: the real binary serves a real Dendrite; the
// homeserver is killed for 30 s and started again on the same port with
// the same data. Commands sent before the outage and right after the
// server returns — while the bot is still backing off — are all answered,
// once each, and the log carries no secret.
func TestE2EMatrixOutage(t *testing.T) {
	t.Parallel()
	bin := zariaBinary(t)
	hs := dendritetest.Start(t, dendritetest.Options{})
	ctx := context.Background()
	if _, err := hs.Register(ctx, "zaria", mxBotPassword, false); err != nil {
		t.Fatal(err)
	}
	if _, err := hs.Register(ctx, "alice", "alice-password", false); err != nil {
		t.Fatal(err)
	}
	alice, err := hs.Login(ctx, "alice", "alice-password")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, err := botproc.Start(ctx, bin, dir, []string{
		"ZARIA_MATRIX_HOMESERVER=" + hs.URL,
		"ZARIA_MATRIX_USER=zaria",
		"ZARIA_MATRIX_PASSWORD=" + mxBotPassword,
		"ZARIA_MATRIX_PICKLE_KEY=" + mxPickleKey,
		"ZARIA_DB=" + filepath.Join(dir, "zaria.db"),
		"ZARIA_LANG=en",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("zaria log (tail):\n%s", tail(p.Logs(), 40))
		}
	})
	bot := id.NewUserID("zaria", dendritetest.ServerName)
	resp, err := alice.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{bot}})
	if err != nil {
		t.Fatal(err)
	}
	room := resp.RoomID
	waitUntil(t, 30*time.Second, "the bot joins", func() bool {
		m, err := alice.JoinedMembers(ctx, room)
		if err != nil {
			return false
		}
		_, ok := m.Joined[bot]
		return ok
	})
	say := func(text string) id.EventID {
		t.Helper()
		r, err := alice.SendText(ctx, room, text)
		if err != nil {
			t.Fatal(err)
		}
		return r.EventID
	}
	var cmds []id.EventID
	cmds = append(cmds, say("!roll 2d6+1"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)

	hs.Stop()
	down := time.Now()
	time.Sleep(30 * time.Second)
	hs.Restart() // Stop is a no-op now: this starts it on the same port
	t.Logf("homeserver back after %.1f s", time.Since(down).Seconds())
	// The bot's sync is still backing off: these arrive while it is away.
	for i := 0; i < 3; i++ {
		cmds = append(cmds, say(fmt.Sprintf("!roll 1d20+%d", i)))
	}
	back := time.Now()
	waitReplies(t, alice, room, bot, cmds, 75*time.Second)
	t.Logf("answered %.1f s after the homeserver came back", time.Since(back).Seconds())
	time.Sleep(2 * time.Second)
	waitReplies(t, alice, room, bot, cmds, time.Second) // checks exactly once again

	if _, err := p.Stop(10 * time.Second); err != nil {
		t.Error(err)
	}
	logs := p.Logs()
	for name, secret := range map[string]string{"password": mxBotPassword, "pickle key": mxPickleKey} {
		if strings.Contains(logs, secret) {
			t.Errorf("the Matrix %s appears in the log", name)
		}
	}
}

// waitReplies waits until each command event has exactly one reply from
// bot (an m.notice whose in_reply_to is the command); more than one fails.
func waitReplies(t *testing.T, cli *mautrix.Client, room id.RoomID, bot id.UserID, cmds []id.EventID, timeout time.Duration) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(timeout)
	for {
		count := map[id.EventID]int{}
		msgs, err := cli.Messages(ctx, room, "", "", mautrix.DirectionBackward, nil, 500)
		if err == nil {
			for _, ev := range msgs.Chunk {
				if ev.Sender != bot || ev.Type != event.EventMessage {
					continue
				}
				_ = ev.Content.ParseRaw(ev.Type)
				if m := ev.Content.AsMessage(); m != nil && m.RelatesTo != nil && m.RelatesTo.InReplyTo != nil {
					count[m.RelatesTo.InReplyTo.EventID]++
				}
			}
			all := true
			for _, c := range cmds {
				if count[c] > 1 {
					t.Fatalf("command %s answered %d times", c, count[c])
				}
				all = all && count[c] == 1
			}
			if all {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not every command answered within %s: %v (err %v)", timeout, count, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func waitUntil(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timeout: %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestE2EMatrixPoison: a message that kills the process (the test-only
// crash hook, SIGKILL, as the OOM killer would) is delivered; the test
// restarts the bot as systemd's Restart=always would. The second run meets
// the same message in its catch-up and dies again; the third skips it,
// logs that once with the room and event id, and apologizes in the room;
// the command sent between the crashes and the next one are answered, and
// a fourth run (after a clean SIGTERM, exit 0) neither skips nor
// apologizes again.
func TestE2EMatrixPoison(t *testing.T) {
	t.Parallel()
	bin := zariaBinary(t)
	hs := dendritetest.Start(t, dendritetest.Options{})
	ctx := context.Background()
	if _, err := hs.Register(ctx, "zaria", mxBotPassword, false); err != nil {
		t.Fatal(err)
	}
	if _, err := hs.Register(ctx, "alice", "alice-password", false); err != nil {
		t.Fatal(err)
	}
	alice, err := hs.Login(ctx, "alice", "alice-password")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := []string{
		"ZARIA_MATRIX_HOMESERVER=" + hs.URL,
		"ZARIA_MATRIX_USER=zaria",
		"ZARIA_MATRIX_PASSWORD=" + mxBotPassword,
		"ZARIA_DB=" + filepath.Join(dir, "zaria.db"),
		"ZARIA_LANG=en",
		"ZARIA_TEST_CRASH_COMMAND=boom",
	}
	var runs []*botproc.Proc
	start := func() *botproc.Proc {
		t.Helper()
		p, err := botproc.Start(ctx, bin, dir, env)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, p)
		return p
	}
	t.Cleanup(func() {
		for i, p := range runs {
			p.Kill()
			if t.Failed() {
				t.Logf("run %d log (tail):\n%s", i+1, tail(p.Logs(), 30))
			}
		}
	})
	died := func(p *botproc.Proc, what string) {
		t.Helper()
		select {
		case <-p.Done():
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the bot did not die", what)
		}
	}
	p1 := start()
	bot := id.NewUserID("zaria", dendritetest.ServerName)
	resp, err := alice.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{bot}})
	if err != nil {
		t.Fatal(err)
	}
	room := resp.RoomID
	waitUntil(t, 30*time.Second, "the bot joins", func() bool {
		m, err := alice.JoinedMembers(ctx, room)
		if err != nil {
			return false
		}
		_, ok := m.Joined[bot]
		return ok
	})
	say := func(text string) id.EventID {
		t.Helper()
		r, err := alice.SendText(ctx, room, text)
		if err != nil {
			t.Fatal(err)
		}
		return r.EventID
	}
	cmds := []id.EventID{say("!roll 2d6+1")}
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)

	boom := say("!boom")
	died(p1, "the poison message")
	between := say("!roll 1d8") // sent while the bot is down
	p2 := start()
	died(p2, "the poison message again, in the catch-up")
	p3 := start()
	cmds = append(cmds, between, boom) // boom: answered by the apology
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	cmds = append(cmds, say("!roll 1d10"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	apology := replyBody(t, alice, room, bot, boom)
	if !strings.Contains(apology, "Sorry") || !strings.Contains(apology, "skipped") {
		t.Errorf("answer to the poison message = %q, want the English apology", apology)
	}
	logs := p3.Logs()
	if n := strings.Count(logs, "skipping an event"); n != 1 || !strings.Contains(logs, string(boom)) || !strings.Contains(logs, string(room)) {
		t.Errorf("run 3 logged the skip %d times (want once, with room and event id):\n%s", n, tail(logs, 30))
	}
	if strings.Contains(logs, "!boom") {
		t.Errorf("the poison message's text is in the log")
	}
	if _, err := p3.Stop(10 * time.Second); err != nil || p3.Err() != nil {
		t.Errorf("SIGTERM: %v, exit %v", err, p3.Err())
	}

	p4 := start()
	cmds = append(cmds, say("!roll 1d12"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	if strings.Contains(p4.Logs(), "skipping an event") {
		t.Errorf("run 4 skipped again:\n%s", tail(p4.Logs(), 30))
	}
	for i, p := range runs {
		for name, secret := range map[string]string{"password": mxBotPassword} {
			if strings.Contains(p.Logs(), secret) {
				t.Errorf("run %d: the Matrix %s appears in the log", i+1, name)
			}
		}
	}
}

// replyBody is the body of bot's notice answering evt.
func replyBody(t *testing.T, cli *mautrix.Client, room id.RoomID, bot id.UserID, evt id.EventID) string {
	t.Helper()
	msgs, err := cli.Messages(context.Background(), room, "", "", mautrix.DirectionBackward, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range msgs.Chunk {
		if ev.Sender != bot || ev.Type != event.EventMessage {
			continue
		}
		_ = ev.Content.ParseRaw(ev.Type)
		if m := ev.Content.AsMessage(); m != nil && m.RelatesTo != nil && m.RelatesTo.InReplyTo != nil && m.RelatesTo.InReplyTo.EventID == evt {
			return m.Body
		}
	}
	return ""
}
