package matrix

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core"
	"zaria/core/reply"
)

// closedStore is a state database that knows when its owner closed it: a
// call after that is counted (it would fail on the real file).
type closedStore struct {
	StateStore
	closed *atomic.Bool
	late   *atomic.Int32
}

func (s closedStore) State(ctx context.Context, key string) (string, bool, error) {
	if s.closed.Load() {
		s.late.Add(1)
	}
	return s.StateStore.State(ctx, key)
}

func (s closedStore) SetState(ctx context.Context, key, value string) error {
	if s.closed.Load() {
		s.late.Add(1)
	}
	return s.StateStore.SetState(ctx, key, value)
}

// busyDispatcher counts the commands being dispatched and answered, and
// takes slowFor over each (a command that does real work).
type busyDispatcher struct {
	Dispatcher
	running  atomic.Int32
	answered atomic.Int32
	slowFor  time.Duration
}

func (b *busyDispatcher) Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool) {
	b.running.Add(1)
	defer b.running.Add(-1)
	time.Sleep(b.slowFor)
	r, ok := b.Dispatcher.Dispatch(ctx, msg)
	if ok {
		b.answered.Add(1)
	}
	return r, ok
}

// TestCleanStop: 300 commands in 3 rooms wait while the bot is away. It
// comes back, starts on the backlog and is stopped (SIGTERM) after 30
// answers: it takes no more events, lets the handlers it runs finish, and
// returns within 10 s; no handler runs and nothing touches the database
// after Run has returned. The next run, with fresh transaction ids (the
// homeserver's memory cannot hide a second answer), answers the rest:
// every command once, none twice, each room in order.
func TestCleanStop(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := newRouter(t)
	dir := t.TempDir()
	b := startBot(t, hs, router, botOpts{dir: dir})
	rooms := []id.RoomID{alice.createRoom(false, botID()), alice.createRoom(false, botID()), alice.createRoom(false, botID())}
	for _, r := range rooms {
		alice.waitJoined(r, botID())
	}
	warm := alice.say(rooms[0], "!roll 1d4")
	alice.waitFor("reply before", wait, replyTo(botID(), warm))
	time.Sleep(300 * time.Millisecond)
	b.stop()

	perRoom := map[id.RoomID][]id.EventID{}
	var cmds []id.EventID
	for i := 0; i < 100; i++ {
		for _, r := range rooms {
			c := alice.say(r, fmt.Sprintf("!roll 1d20+%d", i))
			perRoom[r] = append(perRoom[r], c)
			cmds = append(cmds, c)
		}
	}

	var closed atomic.Bool
	var late atomic.Int32
	busy := &busyDispatcher{Dispatcher: router, slowFor: 20 * time.Millisecond}
	b2 := startBot(t, hs, busy, botOpts{dir: dir, salt: "run 2", wrap: func(st StateStore) StateStore {
		return closedStore{StateStore: st, closed: &closed, late: &late}
	}})
	deadline := time.Now().Add(wait)
	for busy.answered.Load() < 30 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d commands answered", busy.answered.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	b2.cancel()
	select {
	case err := <-b2.done:
		if err != nil {
			t.Errorf("Run returned %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the adapter did not stop within 10 s")
	}
	took := time.Since(start)
	closed.Store(true)
	running := busy.running.Load()
	answered := busy.answered.Load()
	b2.cancel = nil
	time.Sleep(time.Second)
	t.Logf("stopped %v after SIGTERM with %d of %d commands answered", took.Round(time.Millisecond), answered, len(cmds))
	if running != 0 {
		t.Errorf("%d commands were still being handled when Run returned", running)
	}
	if n := late.Load(); n != 0 {
		t.Errorf("%d database calls after Run returned", n)
	}
	if after := busy.answered.Load(); after != answered {
		t.Errorf("%d commands answered after Run returned", after-answered)
	}
	if answered >= int32(len(cmds)) {
		t.Fatalf("all %d answered before the stop: the test proves nothing", answered)
	}
	b2.st.Close()

	startBot(t, hs, router, botOpts{dir: dir, salt: "run 3"})
	for _, c := range cmds {
		alice.waitFor("reply after the restart", wait, replyTo(botID(), c))
	}
	time.Sleep(time.Second)
	for _, c := range append(cmds, warm) {
		if n := len(alice.matching(replyTo(botID(), c))); n != 1 {
			t.Errorf("%s answered %d times, want once", c, n)
		}
	}
	// Each room in order: replies come as their commands were sent.
	at := alice.arrivals(func(e *event.Event) bool { return e.Sender == botID() })
	for r, list := range perRoom {
		var prev time.Time
		for i, c := range list {
			rep := alice.waitFor("reply", time.Second, replyTo(botID(), c))
			if at[rep.ID].Before(prev) {
				t.Errorf("room %s: reply to command %d came before the one to command %d", r, i, i-1)
				break
			}
			prev = at[rep.ID]
		}
	}
}

// lossyAgainStore loses every write of a re-roll record: a process that
// died right after its reply reached the homeserver.
type lossyAgainStore struct{ StateStore }

func (s lossyAgainStore) SetState(ctx context.Context, key, value string) error {
	if strings.HasPrefix(key, keyAgain("")) {
		return errors.New("process is dead")
	}
	return s.StateStore.SetState(ctx, key, value)
}

// TestRerollWithoutRecord: the reply is out but its re-roll record never
// reached the database (the bot died in between). Reacting 🎲 to the reply
// still rolls the same again: the reply carries its command.
func TestRerollWithoutRecord(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{wrap: func(st StateStore) StateStore { return lossyAgainStore{st} }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!zaria 4+2 dc15")
	got := alice.waitFor("reply", wait, replyTo(botID(), cmd))
	if _, err := alice.cli.SendReaction(context.Background(), room, got.ID, "🎲"); err != nil {
		t.Fatal(err)
	}
	again := alice.waitFor("re-roll", wait, replyTo(botID(), got.ID)).Content.AsMessage()
	if !strings.Contains(again.Body, "15") {
		t.Errorf("re-roll body = %q, want the same check (DC 15)", again.Body)
	}
}
