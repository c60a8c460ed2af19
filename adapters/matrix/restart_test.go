package matrix

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestBotRestart: the bot stops; commands sent while it is down are answered
// when it comes back, each once, with the same device (its Olm account and
// Megolm sessions survive), and nothing answered before is answered again.
func TestBotRestart(t *testing.T) { onHomeservers(t, testBotRestart) }

func testBotRestart(t *testing.T, hs homeserver) {
	alice := newUser(t, hs, "alice", true)
	router := newRouter(t)
	dir := t.TempDir()
	b := startBot(t, hs, router, botOpts{dir: dir, crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)

	c1 := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply before restart", wait, replyTo(botID(), c1))
	device := b.a.cli.DeviceID
	b.stop()

	down := []id.EventID{alice.say(room, "!zaria 1+1 dc10"), alice.say(room, "!zaria 2+2 dc11"), alice.say(room, "!zaria 3+3 dc12")}
	start := time.Now()
	b2 := startBot(t, hs, router, botOpts{dir: dir, crypto: true})
	for _, ev := range down {
		alice.waitFor("reply to a command sent while down", wait, replyTo(botID(), ev))
	}
	t.Logf("3 commands sent while down answered %v after the restart", time.Since(start))
	if b2.a.cli.DeviceID != device {
		t.Errorf("device after restart = %s, want %s", b2.a.cli.DeviceID, device)
	}
	after := alice.say(room, "!zaria 5+5 dc20")
	alice.waitFor("reply after restart", wait, replyTo(botID(), after))
	time.Sleep(300 * time.Millisecond)
	for i, ev := range append([]id.EventID{c1, after}, down...) {
		if got := alice.matching(replyTo(botID(), ev)); len(got) != 1 {
			var ids []string
			for _, e := range got {
				ids = append(ids, e.ID.String())
			}
			t.Errorf("command %d (%s) answered %d times, want once: %v", i, ev, len(got), ids)
		}
	}
}

// crashStore stands for a process killed right after it answered a batch
// and before it saved the batch's sync token: once armed, the first token
// save after an answer is lost and the bot is cut off (every later write
// fails too, as in a dead process).
type crashStore struct {
	StateStore
	armed, answered, dead atomic.Bool
	crash                 func()
	once                  sync.Once
}

func (s *crashStore) SetState(ctx context.Context, key, value string) error {
	if s.dead.Load() {
		return errors.New("process is dead")
	}
	if strings.HasPrefix(key, keyDone("")) && s.armed.Load() {
		s.answered.Store(true)
	}
	if key == keyNextBatch && s.answered.Load() {
		s.dead.Store(true)
		s.once.Do(s.crash)
		return errors.New("killed before saving the sync token")
	}
	return s.StateStore.SetState(ctx, key, value)
}

// TestCrashMidBatch: killed after answering but before saving the sync
// token, the bot gets the same batch again on restart and does not answer
// twice.
func TestCrashMidBatch(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := newRouter(t)
	dir := t.TempDir()
	var cs *crashStore
	crashed := make(chan struct{})
	b := startBot(t, hs, router, botOpts{dir: dir, wrap: func(st StateStore) StateStore {
		cs = &crashStore{StateStore: st, crash: func() { close(crashed) }}
		return cs
	}})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c0 := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("first reply", wait, replyTo(botID(), c0))
	time.Sleep(300 * time.Millisecond) // let the bot's own echoes pass

	cs.armed.Store(true)
	c1 := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply before the crash", wait, replyTo(botID(), c1))
	select {
	case <-crashed:
	case <-time.After(wait):
		t.Fatal("the bot never tried to save the token after answering")
	}
	b.stop()

	startBot(t, hs, router, botOpts{dir: dir})
	c2 := alice.say(room, "!zaria 2+2 dc10")
	alice.waitFor("reply after the crash", wait, replyTo(botID(), c2))
	time.Sleep(300 * time.Millisecond)
	for _, ev := range []id.EventID{c0, c1, c2} {
		if n := len(alice.matching(replyTo(botID(), ev))); n != 1 {
			t.Errorf("%s answered %d times, want once", ev, n)
		}
	}
}

// TestHomeserverRestart: Dendrite is killed and started again; the bot
// notices, logs it once, and answers the next command.
func TestHomeserverRestart(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	b := startBot(t, hs, newRouter(t), botOpts{})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c1 := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply before", wait, replyTo(botID(), c1))
	// The bot is idle, in its long poll, once it has logged the command as
	// answered (after its last send for it); on a loaded machine the
	// decoration can still be on its way when the reply has arrived.
	for deadline := time.Now().Add(wait); b.log.count("event="+string(c1)+" dispatch=") == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%s never logged as answered:\n%s", c1, b.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)

	hs.Stop()
	waitLog(t, b, "sync failing")       // the bot noticed, whatever the load
	time.Sleep(1500 * time.Millisecond) // several failed syncs
	hs.Restart()
	start := time.Now()
	var c2 id.EventID
	for deadline := time.Now().Add(wait); ; { // the first sends may hit a server still warming up
		resp, err := alice.cli.SendMessageEvent(context.Background(), room, event.EventMessage, &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 2+2 dc10"})
		if err == nil {
			c2 = resp.EventID
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	alice.waitFor("reply after the homeserver restart", wait, replyTo(botID(), c2))
	t.Logf("answered %v after the homeserver came back", time.Since(start))
	if n := b.log.count("sync failing"); n != 1 {
		t.Errorf("logged the outage %d times, want once:\n%s", n, b.log)
	}
	if n := b.log.count("sync recovered"); n != 1 {
		t.Errorf("logged the recovery %d times, want once", n)
	}
}

// TestTwoRoomsTwoLanguages: a Greek room and an English room, commands sent
// at the same time, each answered in its room's language.
func TestTwoRoomsTwoLanguages(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{})
	en := alice.createRoom(false, botID())
	el := alice.createRoom(false, botID())
	alice.waitJoined(en, botID())
	alice.waitJoined(el, botID())
	lang := alice.say(el, "!γλώσσα el")
	alice.waitFor("language set", wait, replyTo(botID(), lang))

	ce := alice.say(en, "!zaria 4+2 dc15")
	cg := alice.say(el, "!ζαριά 4+2 dc15")
	re := alice.waitFor("English reply", wait, replyTo(botID(), ce)).Content.AsMessage().Body
	rg := alice.waitFor("Greek reply", wait, replyTo(botID(), cg)).Content.AsMessage().Body
	if hasGreek(re) || !hasGreekWord(rg) {
		t.Errorf("English room got %q, Greek room got %q", re, rg)
	}
}

func hasGreek(s string) bool {
	for _, r := range s {
		if r >= 0x370 && r <= 0x3FF && !strings.ContainsRune("Ζαριά", r) {
			return true
		}
	}
	return false
}

// hasGreekWord: Greek beyond the system's name Ζαριά.
func hasGreekWord(s string) bool { return hasGreek(strings.ReplaceAll(s, "Ζαριά", "")) }

// TestLongAbsence: while the bot is away more events arrive than one sync
// returns (its timeline limit is 100); the commands among the oldest are
// still answered, once.
func TestLongAbsence(t *testing.T) { onHomeservers(t, testLongAbsence) }

func testLongAbsence(t *testing.T, hs homeserver) {
	alice := newUser(t, hs, "alice", false)
	router := newRouter(t)
	dir := t.TempDir()
	b := startBot(t, hs, router, botOpts{dir: dir})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c0 := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("reply before", wait, replyTo(botID(), c0))
	time.Sleep(200 * time.Millisecond)
	b.stop()

	var cmds []id.EventID
	for i := 0; i < 3; i++ {
		cmds = append(cmds, alice.say(room, "!zaria 2+2 dc10"))
	}
	for i := 0; i < 110; i++ {
		alice.say(room, "chatter while the bot is away")
	}
	cmds = append(cmds, alice.say(room, "!zaria 3+3 dc12"))
	b2 := startBot(t, hs, router, botOpts{dir: dir})
	for _, c := range cmds {
		alice.waitFor("reply to a command from the long absence", wait, replyTo(botID(), c))
	}
	time.Sleep(300 * time.Millisecond)
	for _, c := range append(cmds, c0) {
		if n := len(alice.matching(replyTo(botID(), c))); n != 1 {
			t.Errorf("%s answered %d times, want once", c, n)
		}
	}
	if b2.log.count("fetched events missed while away") == 0 {
		t.Errorf("no gap was filled: the test did not exceed one sync")
	}
}

// TestHomeserverDownAtStart: the bot starts while its homeserver is down,
// waits quietly (one warning), and serves once it is up.
func TestHomeserverDownAtStart(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	hs.Stop()
	b := startBot(t, hs, newRouter(t), botOpts{})
	waitLog(t, b, "login failing") // it tried while the server was down
	time.Sleep(1500 * time.Millisecond)
	hs.Restart()
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), c))
	if n := b.log.count("login failing"); n != 1 {
		t.Errorf("the outage was logged %d times, want once:\n%s", n, b.log)
	}
}

// TestSessionRevoked: the bot's session is logged out behind its back; it
// logs in again with its password and keeps answering.
func TestSessionRevoked(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	b := startBot(t, hs, newRouter(t), botOpts{})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), c))

	other, err := hs.Login(context.Background(), botName, botPassword)
	if err != nil {
		t.Fatal(err)
	}
	other.AccessToken = b.a.auth.current()
	if _, err := other.Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	c2 := alice.say(room, "!zaria 2+2 dc10")
	alice.waitFor("reply after the session was revoked", wait, replyTo(botID(), c2))
	if b.log.count("logging in again") != 1 {
		t.Errorf("want one re-login:\n%s", b.log)
	}
}
