package matrix

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
)

// killStore stands for the state database of a process that died: once
// dead, no write reaches it.
type killStore struct {
	StateStore
	dead *atomic.Bool
}

func (s killStore) SetState(ctx context.Context, key, value string) error {
	if s.dead.Load() {
		return errors.New("process is dead")
	}
	return s.StateStore.SetState(ctx, key, value)
}

// countingDispatcher calls hook before the n-th dispatch of a command
// (1-based; chat lines are dispatched too, and not counted).
type countingDispatcher struct {
	Dispatcher
	n    atomic.Int32
	hook func(n int)
}

func (c *countingDispatcher) Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool) {
	if c.hook != nil && strings.HasPrefix(msg.Text, "!") {
		c.hook(int(c.n.Add(1)))
	}
	return c.Dispatcher.Dispatch(ctx, msg)
}

// TestCatchUpExact: while the bot is away a room gets 12 commands among 400
// chat lines (five pages of /messages beyond one sync's timeline). The bot
// comes back, dies half-way through the catch-up (right after the 5th
// reply reached the homeserver, before it recorded it), comes back again,
// and later a third time. Every run uses fresh transaction ids, so the
// homeserver's memory of them cannot hide a second answer. Every command
// sent while it was away is answered exactly once, in order; the command
// answered before the absence is never answered again (Dendrite keeps
// paging /messages past the sync token to the room's creation).
func TestCatchUpExact(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := newRouter(t)
	dir := t.TempDir()

	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var armed, dead atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dead.Load() {
			http.Error(w, "the bot is dead", http.StatusBadGateway)
			return
		}
		if armed.Load() && r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") {
			proxy.ServeHTTP(httptest.NewRecorder(), r) // the reply is stored…
			dead.Store(true)                           // …and the process dies
			http.Error(w, "the bot is dead", http.StatusBadGateway)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	b := startBot(t, hs, router, botOpts{dir: dir, salt: "run1"})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c0 := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("reply before the absence", wait, replyTo(botID(), c0))
	time.Sleep(300 * time.Millisecond)
	b.stop()

	var cmds []id.EventID
	for i := 0; i < 12; i++ {
		for j := 0; j < 400/12; j++ {
			alice.say(room, fmt.Sprintf("chatter %d.%d while the bot is away", i, j))
		}
		cmds = append(cmds, alice.say(room, fmt.Sprintf("!zaria %d+0 dc5", i+1)))
	}
	for j := 0; j < 4; j++ {
		alice.say(room, "more chatter")
	}

	// Run 2 dies during the catch-up, right after its 5th reply is stored.
	d2 := &countingDispatcher{Dispatcher: router, hook: func(n int) {
		if n == 5 {
			armed.Store(true)
		}
	}}
	b2 := startBot(t, hs, d2, botOpts{dir: dir, homeURL: srv.URL, salt: "run2", grace: 300 * time.Millisecond,
		wrap: func(st StateStore) StateStore { return killStore{StateStore: st, dead: &dead} }})
	alice.waitFor("the 5th reply, sent as the bot dies", wait, replyTo(botID(), cmds[4]))
	b2.stop()
	if n := d2.n.Load(); n != 5 {
		t.Fatalf("run 2 dispatched %d commands before dying, want 5", n)
	}
	if !strings.Contains(b2.log.String(), "pages=") || b2.log.count("fetched events missed while away") == 0 {
		t.Fatalf("run 2 did not fetch the gap:\n%s", b2.log)
	}

	// Run 3 finishes the catch-up.
	start := time.Now()
	b3 := startBot(t, hs, router, botOpts{dir: dir, salt: "run3"})
	for _, c := range cmds {
		alice.waitFor("reply to a command sent while away", 2*wait, replyTo(botID(), c))
	}
	t.Logf("run 3 finished the catch-up in %v", time.Since(start))
	time.Sleep(500 * time.Millisecond)
	b3.stop()
	if b3.log.count("not answering again") != 1 {
		t.Errorf("run 3 did not find the reply run 2 sent as it died:\n%s", b3.log)
	}

	// Run 4: nothing of the past again.
	b4 := startBot(t, hs, router, botOpts{dir: dir, salt: "run4"})
	last := alice.say(room, "!zaria 9+9 dc9")
	alice.waitFor("reply after the catch-up", wait, replyTo(botID(), last))
	waitLog(t, b4, "msg=answered") // logged after the send returned
	time.Sleep(500 * time.Millisecond)
	if n := b4.log.count("msg=answered"); n != 1 {
		t.Errorf("run 4 answered %d commands, want only the new one", n)
	}

	all := append(append([]id.EventID{c0}, cmds...), last)
	for i, c := range all {
		if n := len(alice.matching(replyTo(botID(), c))); n != 1 {
			t.Errorf("command %d (%s) answered %d times, want once", i, c, n)
		}
	}
	// In order: the room's timeline has the replies in the commands' order.
	order := replyOrder(t, alice, room)
	if fmt.Sprint(order) != fmt.Sprint(all) {
		t.Errorf("replies in the room answer, in order:\n %v\nwant\n %v", order, all)
	}
}

// replyOrder lists, oldest first, the events the bot's notices in room answer.
func replyOrder(t *testing.T, u *user, room id.RoomID) []id.EventID {
	t.Helper()
	var all []*event.Event
	from := ""
	for {
		msgs, err := u.cli.Messages(context.Background(), room, from, "", mautrix.DirectionBackward, nil, 100)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, msgs.Chunk...)
		if msgs.End == "" || len(msgs.Chunk) == 0 || msgs.End == from {
			break
		}
		from = msgs.End
	}
	var order []id.EventID
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		if e.Sender != botID() || e.Type != event.EventMessage {
			continue
		}
		_ = e.Content.ParseRaw(e.Type)
		if c := e.Content.AsMessage(); c.RelatesTo != nil && c.RelatesTo.InReplyTo != nil {
			order = append(order, c.RelatesTo.InReplyTo.EventID)
		}
	}
	return order
}

// TestCatchUpAtTheUsersPace: a player rolls at their own pace (a command
// every 2 s) while the bot is away; when it is back it answers them all
// together, and the router's rate limit (a burst of 5, then one every 2 s,
// as shipped) counts when each was sent, so none is refused as a flood.
func TestCatchUpAtTheUsersPace(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	router := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: memory.New(),
		Limits: command.Limits{Burst: 5, Refill: 2 * time.Second}})
	general.Register(router, general.Options{Version: "test"})
	systems.Register(router)
	dir := t.TempDir()

	b := startBot(t, hs, router, botOpts{dir: dir})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	c0 := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("reply before the absence", wait, replyTo(botID(), c0))
	time.Sleep(2100 * time.Millisecond) // the burst is full again
	b.stop()

	var cmds []id.EventID
	for i := 0; i < 9; i++ {
		cmds = append(cmds, alice.say(room, fmt.Sprintf("!zaria %d+0 dc5", i+1)))
		time.Sleep(2100 * time.Millisecond)
	}
	startBot(t, hs, router, botOpts{dir: dir})
	for i, ev := range cmds {
		alice.waitFor(fmt.Sprintf("reply to command %d", i+1), wait, replyTo(botID(), ev))
	}
	time.Sleep(300 * time.Millisecond)
	for i, ev := range cmds {
		for _, r := range alice.matching(replyTo(botID(), ev)) {
			if body := r.Content.AsMessage().Body; strings.Contains(body, "⚠️") {
				t.Errorf("command %d refused after the absence: %q", i+1, body)
			}
		}
	}
}
