package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
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

// mxWorld is a real Dendrite with the bot's account and alice's, alice
// logged in, and a folder for the bot's files.
type mxWorld struct {
	hs    *dendritetest.Server
	alice *mautrix.Client
	bot   id.UserID
	dir   string
	env   []string // the bot's environment (no pickle key: add it)
	runs  []*botproc.Proc
}

// newMxWorld starts Dendrite and registers the bot and alice.
func newMxWorld(t *testing.T, extraEnv ...string) *mxWorld {
	t.Helper()
	return newMxWorldWith(t, dendritetest.Options{}, extraEnv...)
}

// newMxWorldWith is newMxWorld with Dendrite's options.
func newMxWorldWith(t *testing.T, opts dendritetest.Options, extraEnv ...string) *mxWorld {
	t.Helper()
	hs := dendritetest.Start(t, opts)
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
	w := &mxWorld{hs: hs, alice: alice, bot: id.NewUserID("zaria", dendritetest.ServerName), dir: dir,
		env: append([]string{
			"ZARIA_MATRIX_HOMESERVER=" + hs.URL,
			"ZARIA_MATRIX_USER=zaria",
			"ZARIA_MATRIX_PASSWORD=" + mxBotPassword,
			"ZARIA_DB=" + filepath.Join(dir, "zaria.db"),
			"ZARIA_LANG=en",
		}, extraEnv...)}
	t.Cleanup(func() {
		for i, p := range w.runs {
			p.Kill()
			if t.Failed() {
				t.Logf("run %d log (tail):\n%s", i+1, tail(p.Logs(), 40))
			}
		}
	})
	return w
}

// newMxWebWorld is newMxWorldWith with the web companion listening on a
// free loopback port; base is the page's address there.
func newMxWebWorld(t *testing.T, opts dendritetest.Options, extraEnv ...string) (w *mxWorld, base string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	base = "http://" + addr + "/app/"
	return newMxWorldWith(t, opts, append([]string{"ZARIA_WEB_URL=" + base, "ZARIA_WEB_LISTEN=" + addr}, extraEnv...)...), base
}

// webPost posts body, JSON, to the page at base+path with the
// Authorization header auth (none when ""), and returns the answer's status
// and body.
func webPost(t *testing.T, base, path, auth, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// start runs the binary once more with the world's environment.
func (w *mxWorld) start(t *testing.T, bin string) *botproc.Proc {
	t.Helper()
	p, err := botproc.Start(context.Background(), bin, w.dir, w.env)
	if err != nil {
		t.Fatal(err)
	}
	w.runs = append(w.runs, p)
	return p
}

// room has alice create a room inviting the bot and waits for its join.
func (w *mxWorld) room(t *testing.T) id.RoomID {
	t.Helper()
	ctx := context.Background()
	resp, err := w.alice.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{w.bot}})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 30*time.Second, "the bot joins", func() bool {
		m, err := w.alice.JoinedMembers(ctx, resp.RoomID)
		if err != nil {
			return false
		}
		_, ok := m.Joined[w.bot]
		return ok
	})
	return resp.RoomID
}

// say sends text as alice and returns its event id.
func (w *mxWorld) say(t *testing.T, room id.RoomID, text string) id.EventID {
	t.Helper()
	r, err := w.alice.SendText(context.Background(), room, text)
	if err != nil {
		t.Fatal(err)
	}
	return r.EventID
}

// TestE2EMatrixOutage: the real binary serves a real Dendrite; the
// homeserver is killed for 30 s and started again on the same port with
// the same data. Commands sent before the outage and right after the
// server returns — while the bot is still backing off — are all answered,
// once each, and the log carries no secret.
func TestE2EMatrixOutage(t *testing.T) {
	t.Parallel()
	bin := zariaBinary(t)
	w := newMxWorld(t, "ZARIA_MATRIX_PICKLE_KEY="+mxPickleKey)
	hs, alice, bot := w.hs, w.alice, w.bot
	p := w.start(t, bin)
	room := w.room(t)
	var cmds []id.EventID
	cmds = append(cmds, w.say(t, room, "!roll 2d6+1"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)

	hs.Stop()
	down := time.Now()
	time.Sleep(30 * time.Second)
	hs.Restart() // Stop is a no-op now: this starts it on the same port
	t.Logf("homeserver back after %.1f s", time.Since(down).Seconds())
	// The bot's sync is still backing off: these arrive while it is away.
	for i := 0; i < 3; i++ {
		cmds = append(cmds, w.say(t, room, fmt.Sprintf("!roll 1d20+%d", i)))
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
	deadline := time.Now().Add(timeout)
	for {
		count, err := replyCounts(cli, room, bot)
		if err == nil {
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
			t.Fatalf("not every command answered within %s: %d replies (err %v)", timeout, len(count), err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// replyCounts counts bot's replies to each event of room (the whole room,
// page by page).
func replyCounts(cli *mautrix.Client, room id.RoomID, bot id.UserID) (map[id.EventID]int, error) {
	count := map[id.EventID]int{}
	from := ""
	for page := 0; page < 50; page++ {
		msgs, err := cli.Messages(context.Background(), room, from, "", mautrix.DirectionBackward, nil, 500)
		if err != nil {
			return count, err
		}
		for _, ev := range msgs.Chunk {
			if ev.Sender != bot || ev.Type != event.EventMessage {
				continue
			}
			_ = ev.Content.ParseRaw(ev.Type)
			if m := ev.Content.AsMessage(); m != nil && m.RelatesTo != nil && m.RelatesTo.InReplyTo != nil {
				count[m.RelatesTo.InReplyTo.EventID]++
			}
		}
		if msgs.End == "" || len(msgs.Chunk) == 0 || msgs.End == from {
			break
		}
		from = msgs.End
	}
	return count, nil
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
	w := newMxWorld(t, "ZARIA_TEST_CRASH_COMMAND=boom")
	alice, bot := w.alice, w.bot
	died := func(p *botproc.Proc, what string) {
		t.Helper()
		select {
		case <-p.Done():
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the bot did not die", what)
		}
	}
	p1 := w.start(t, bin)
	room := w.room(t)
	say := func(text string) id.EventID { t.Helper(); return w.say(t, room, text) }
	cmds := []id.EventID{say("!roll 2d6+1")}
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)

	boom := say("!boom")
	died(p1, "the poison message")
	between := say("!roll 1d8") // sent while the bot is down
	p2 := w.start(t, bin)
	died(p2, "the poison message again, in the catch-up")
	p3 := w.start(t, bin)
	cmds = append(cmds, between, boom) // boom: answered by the apology
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	cmds = append(cmds, say("!roll 1d10"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	apology := replyBody(t, alice, room, bot, boom)
	if !strings.Contains(apology, "Sorry") || !strings.Contains(apology, "skipped") {
		t.Errorf("answer to the poison message = %q, want the English apology", apology)
	}
	waitLines(t, p3, 0, "skipping an event") // the log comes through a pipe, apart from the apology
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

	p4 := w.start(t, bin)
	cmds = append(cmds, say("!roll 1d12"))
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	if strings.Contains(p4.Logs(), "skipping an event") {
		t.Errorf("run 4 skipped again:\n%s", tail(p4.Logs(), 30))
	}
	for i, p := range w.runs {
		if strings.Contains(p.Logs(), mxBotPassword) {
			t.Errorf("run %d: the Matrix password appears in the log", i+1)
		}
	}
}

// TestE2EMatrixCleanStop: 300 commands (60 players, 5 each: within their
// command allowance) wait while the bot is down; it comes back, starts on
// them, and gets SIGTERM: it exits 0 within 10 s, with no "database is
// closed" and no stop timeout in its log. The next run answers the rest:
// every command exactly once.
func TestE2EMatrixCleanStop(t *testing.T) {
	t.Parallel()
	bin := zariaBinary(t)
	w := newMxWorld(t)
	ctx := context.Background()
	alice, bot := w.alice, w.bot
	p1 := w.start(t, bin)
	resp, err := alice.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Invite: []id.UserID{bot}})
	if err != nil {
		t.Fatal(err)
	}
	room := resp.RoomID
	waitUntil(t, 30*time.Second, "the bot joins", func() bool {
		m, err := alice.JoinedMembers(ctx, room)
		_, ok := m.Joined[bot]
		return err == nil && ok
	})
	cmds := []id.EventID{w.say(t, room, "!roll 2d6+1")}
	waitReplies(t, alice, room, bot, cmds, 30*time.Second)
	var players []*mautrix.Client
	for i := 0; i < 60; i++ {
		name := fmt.Sprintf("player%d", i)
		if _, err := w.hs.Register(ctx, name, "player-password", false); err != nil {
			t.Fatal(err)
		}
		cli, err := w.hs.Login(ctx, name, "player-password")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cli.JoinRoomByID(ctx, room); err != nil {
			t.Fatal(err)
		}
		players = append(players, cli)
	}
	if _, err := p1.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		for _, cli := range players {
			r, err := cli.SendText(ctx, room, fmt.Sprintf("!roll 1d20+%d", i))
			if err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, r.EventID)
		}
	}
	p2 := w.start(t, bin)
	waitUntil(t, 60*time.Second, "the bot starts on the backlog", func() bool { return answeredCount(alice, room, bot) >= 20 })
	took, err := p2.Stop(10 * time.Second)
	if err != nil || p2.Err() != nil {
		t.Fatalf("SIGTERM: %v, exit %v", err, p2.Err())
	}
	n := answeredCount(alice, room, bot)
	t.Logf("exit 0 %v after SIGTERM, %d of %d commands answered", took.Round(time.Millisecond), n, len(cmds))
	if n >= len(cmds) {
		t.Fatalf("all %d answered before SIGTERM: the test proves nothing", n)
	}
	p2logs := p2.Logs()
	for _, bad := range []string{"database is closed", "did not stop"} {
		if strings.Contains(p2logs, bad) {
			t.Errorf("the log says %q:\n%s", bad, tail(p2.Logs(), 20))
		}
	}
	w.start(t, bin)
	waitReplies(t, alice, room, bot, cmds, 120*time.Second)
	time.Sleep(2 * time.Second)
	waitReplies(t, alice, room, bot, cmds, time.Second)
}

// answeredCount is how many events of room the bot has answered.
func answeredCount(cli *mautrix.Client, room id.RoomID, bot id.UserID) int {
	count, _ := replyCounts(cli, room, bot)
	return len(count)
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
