package main

// End-to-end fault and security tests: the real zaria binary, built once,
// run as a child process against the fake Bot API (telegramtest) or a real
// Dendrite over loopback. Independent tests run in parallel; the 30 s
// outages dominate the wall time.

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/bench/e2e/botproc"
)

var e2eBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if e2eBin.dir != "" {
		os.RemoveAll(e2eBin.dir)
	}
	os.Exit(code)
}

// zariaBinary builds bin/zaria once per test run (only when an e2e test
// needs it, so fuzzing this package does not pay for it).
func zariaBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the zaria binary")
	}
	e2eBin.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root, err := botproc.ModuleRoot(filepath.Dir(file))
		if err != nil {
			e2eBin.err = err
			return
		}
		e2eBin.dir, e2eBin.err = os.MkdirTemp("", "zaria-e2e-bin-")
		if e2eBin.err != nil {
			return
		}
		e2eBin.path, e2eBin.err = botproc.Build(root, e2eBin.dir)
	})
	if e2eBin.err != nil {
		t.Fatal(e2eBin.err)
	}
	return e2eBin.path
}

// tgBot starts the binary against fake with the database db, an ops
// listener and the given extra environment. It is killed when the test ends.
func tgBot(t *testing.T, fake *telegramtest.Server, db string, extra ...string) *botproc.Proc {
	t.Helper()
	p, err := startTGBot(t, fake, db, extra...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-p.Done():
		default:
			p.Kill()
		}
		if t.Failed() {
			t.Logf("zaria log (tail):\n%s", tail(p.Logs(), 40))
		}
	})
	return p
}

// startTGBot starts the binary against fake with the database db, an ops
// listener on a free port and the given extra environment, and waits for
// /healthz; the error is botproc.Start's.
func startTGBot(t *testing.T, fake *telegramtest.Server, db string, extra ...string) (*botproc.Proc, error) {
	t.Helper()
	bin := zariaBinary(t)
	addr, err := botproc.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	env := append([]string{
		"ZARIA_TELEGRAM_TOKEN=" + fake.Token(),
		"ZARIA_TELEGRAM_API=" + fake.URL(),
		"ZARIA_DB=" + db,
		"ZARIA_HTTP_LISTEN=" + addr,
		"ZARIA_LANG=es",
	}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return botproc.Start(ctx, bin, filepath.Dir(db), env)
}

// newFake starts a fake Bot API closed at the end of the test.
func newFake(t *testing.T, lim telegramtest.Limits) *telegramtest.Server {
	t.Helper()
	f, err := telegramtest.New(telegramtest.Options{Token: "987654:E2E-token_x", Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// waitSent waits until the fake received n messages in total.
func waitSent(t *testing.T, f *telegramtest.Server, n int, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := f.WaitSent(ctx, n); err != nil {
		t.Fatal(err)
	}
}

// waitAnswered waits until every update pushed has at least one reply.
func waitAnswered(t *testing.T, f *telegramtest.Server, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		missing, _ := f.Unanswered()
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d updates still unanswered after %s, e.g. %q in chat %d", len(missing), timeout, missing[0].Text, missing[0].Chat)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exactlyOnce fails the test unless every update pushed got exactly one reply.
func exactlyOnce(t *testing.T, f *telegramtest.Server) {
	t.Helper()
	missing, repeated := f.Unanswered()
	for _, u := range missing {
		t.Errorf("no reply to %q in chat %d (update %d)", u.Text, u.Chat, u.ID)
	}
	for _, u := range repeated {
		t.Errorf("more than one reply to %q in chat %d (update %d)", u.Text, u.Chat, u.ID)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// waitLines waits until the bot's log, from byte from on, has a line
// containing every one of subs. The log comes through a pipe, read apart
// from the bot's requests: a line the bot wrote before it sent a reply may
// reach the test after the reply does.
func waitLines(t *testing.T, p *botproc.Proc, from int, subs ...string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); countLines(p.Logs()[from:], subs...) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no log line with %q within 30 s:\n%s", subs, tail(p.Logs()[from:], 20))
		}
	}
}

// countLines counts log lines containing every one of subs.
func countLines(logs string, subs ...string) int {
	n := 0
	for _, line := range strings.Split(logs, "\n") {
		ok := line != ""
		for _, s := range subs {
			ok = ok && strings.Contains(line, s)
		}
		if ok {
			n++
		}
	}
	return n
}
