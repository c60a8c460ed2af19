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
