package matrix

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/synapsetest"
	"zaria/storage/sqlite"
)

// Environment of the bot process TestKilledUnderLoad starts (this test
// binary again, running TestBotProcess).
const (
	envProcHome = "ZARIA_MX_PROC_HOMESERVER"
	envProcDir  = "ZARIA_MX_PROC_DIR"
)

// TestBotProcess is not a test: it is the bot as a process of its own, run
// by TestKilledUnderLoad (which kills it with SIGKILL). It does nothing
// unless that test started it.
func TestBotProcess(t *testing.T) {
	home, dir := os.Getenv(envProcHome), os.Getenv(envProcDir)
	if home == "" || dir == "" {
		t.Skip("run by TestKilledUnderLoad only")
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Homeserver: home, User: botName, Password: botPassword, CryptoDB: filepath.Join(dir, "matrix.db"),
		SyncTimeout: 5 * time.Second, BackoffMin: 50 * time.Millisecond, BackoffMax: 500 * time.Millisecond, Announce: io.Discard}
	a, err := New(cfg, newRouter(t), st, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := a.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestKilledUnderLoad: the bot, a process of its own, answers a load of
// commands from several rooms and is killed with SIGKILL at several points
// (right after a given number of replies reached the people), then
// started again each time on the same state (same device, same session).
// Every command is answered exactly once: none lost, none twice. Its
// sends' transaction ids derive from the command, so a reply the killed
// process sent without recording it is not shown again by the homeserver.
// On Dendrite and on Synapse (the bot exempted from its rate limit: the
// load is the point here). ZARIA_MX_KILL_LOAD=500x50 runs 500 commands
// from 50 rooms (by hand; CI runs 120 from 12).
func TestKilledUnderLoad(t *testing.T) {
	onHomeservers(t, func(t *testing.T, hs homeserver) { testKilledUnderLoad(t, hs, 120, 12, 0, 0) })
}

// TestKilledUnderLag is TestKilledUnderLoad with the homeserver lagging
// as a loaded one does (lagProxy between the bot and the homeserver): its
// answers to /sync, /messages and /context come 1 s late and the newest
// 5 s of a room's history are not there yet, so a reply the killed
// process sent is invisible to the next run for seconds. 80 commands from
// 8 rooms (each restart waits out the lag). Every command is answered
// once (no two replies, so no two results), none lost.
func TestKilledUnderLag(t *testing.T) {
	onHomeservers(t, func(t *testing.T, hs homeserver) { testKilledUnderLoad(t, hs, 80, 8, 5*time.Second, time.Second) })
}

func testKilledUnderLoad(t *testing.T, hs homeserver, total, nrooms int, lag, delay time.Duration) {
	if v := os.Getenv("ZARIA_MX_KILL_LOAD"); v != "" {
		if _, err := fmt.Sscanf(v, "%dx%d", &total, &nrooms); err != nil || total < 1 || nrooms < 1 {
			t.Fatalf("ZARIA_MX_KILL_LOAD=%q: want COMMANDSxROOMS, e.g. 500x50", v)
		}
	}
	if s, ok := hs.(*synapsetest.Server); ok {
		if err := s.Exempt(context.Background(), botID()); err != nil {
			t.Fatal(err)
		}
	}
	alice := newUser(t, hs, "alice", false)
	dir := t.TempDir()
	var (
		mu   sync.Mutex
		proc *exec.Cmd
		runs int
	)
	logf, err := os.Create(filepath.Join(dir, "bot.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	home := hs.HomeserverURL()
	var lp *lagProxy
	if lag > 0 || delay > 0 {
		lp = newLagProxy(t, home, lag, delay)
		home = lp.URL
	}
	start := func() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBotProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), envProcHome+"="+home, envProcDir+"="+dir)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		proc, runs = cmd, runs+1
		mu.Unlock()
	}
	kill := func() {
		mu.Lock()
		defer mu.Unlock()
		_ = proc.Process.Signal(syscall.SIGKILL)
		_ = proc.Wait()
	}
	start()
	t.Cleanup(kill)
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "bot.log"))
			lines := strings.Split(string(b), "\n")
			t.Logf("bot log (tail):\n%s", strings.Join(lines[max(0, len(lines)-80):], "\n"))
		}
	})

	rooms := make([]id.RoomID, nrooms)
	for i := range rooms {
		rooms[i] = alice.createRoom(false, botID())
	}
	for _, r := range rooms {
		alice.waitJoined(r, botID())
	}
	time.Sleep(300 * time.Millisecond)

	answers := func() int {
		return len(alice.matching(func(e *event.Event) bool {
			if e.Sender != botID() || e.Type != event.EventMessage {
				return false
			}
			c := e.Content.AsMessage()
			return c.MsgType == event.MsgNotice && c.RelatesTo.GetReplyTo() != ""
		}))
	}
	// Killed once each time the replies pass one of these.
	var killAt []int
	for _, f := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
		killAt = append(killAt, int(f*float64(total)))
	}
	sent := make(chan struct{})
	cmds := make([]id.EventID, total)
	began := time.Now()
	go func() {
		defer close(sent)
		for i := range cmds {
			cmds[i] = alice.say(rooms[i%nrooms], "!zaria "+strconv.Itoa(i%7+1)+"+2 dc"+strconv.Itoa(10+i%9))
		}
	}()
	deadline := time.Now().Add(time.Duration(total)*time.Second + 2*wait + time.Duration(len(killAt))*(2*lag+delay)) // each restart waits out the lag
	for _, at := range killAt {
		for answers() < at {
			if time.Now().After(deadline) {
				t.Fatalf("only %d of %d commands answered", answers(), total)
			}
			time.Sleep(5 * time.Millisecond)
		}
		kill()
		start()
	}
	<-sent
	for _, c := range cmds {
		if d := time.Until(deadline); d > 0 {
			alice.waitFor("reply to a command of the load", d, replyTo(botID(), c))
		}
	}
	took := time.Since(began)
	time.Sleep(time.Second) // a second answer would come now
	lost, twice, differ := 0, 0, 0
	for i, c := range cmds {
		rs := alice.matching(replyTo(botID(), c))
		switch n := len(rs); {
		case n == 0:
			lost++
		case n > 1:
			twice++
			t.Errorf("command %d (%s) answered %d times", i, c, n)
			for _, r := range rs[1:] {
				if r.Content.AsMessage().Body != rs[0].Content.AsMessage().Body {
					differ++
					t.Errorf("command %d (%s) has two results: %q and %q", i, c, rs[0].Content.AsMessage().Body, r.Content.AsMessage().Body)
				}
			}
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "bot.log"))
	t.Logf("%d commands from %d rooms, %d runs (killed %d times), history %v behind: all answered in %v; %d lost, %d answered twice (%d with two results); %d replies found already sent after a crash, %d recorded replies sent by a later run",
		total, nrooms, runs, runs-1, lag, took.Round(time.Millisecond), lost, twice, differ, strings.Count(string(b), "a reply sent before a crash was found"),
		strings.Count(string(b), "sending the recorded reply"))
	if lp != nil {
		t.Logf("events hidden by the lag: %d", lp.hidden.Load())
	}
	if lost > 0 {
		t.Errorf("%d commands never answered", lost)
	}
}
