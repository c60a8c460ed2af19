package telegram

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

// memState is a StateStore in memory (the journal is what is tested; the
// restart tests use storage/sqlite).
type memState struct {
	mu sync.Mutex
	m  map[string]string
	n  int // writes
}

func newMemState() *memState { return &memState{m: map[string]string{}} }

func (s *memState) State(_ context.Context, key string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

func (s *memState) SetState(_ context.Context, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
	s.n++
	return nil
}

func (s *memState) WriteStates(_ context.Context, set map[string]string, del []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range set {
		s.m[k] = v
	}
	for _, k := range del {
		delete(s.m, k)
	}
	s.n++
	return nil
}

func (s *memState) StatesWithPrefix(_ context.Context, prefix string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for k, v := range s.m {
		if strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out, nil
}

// testRouter is the real command router with the general commands and a
// few test commands whose replies say what they received.
func testRouter(t testing.TB) *command.Router { return testRouterWith(t, nil) }

// testRouterWith is testRouter with the chats' named GMs (/gm add) given by namedGMs.
func testRouterWith(t testing.TB, namedGMs func(context.Context, core.ChatRef) ([]string, error)) *command.Router {
	t.Helper()
	return testRouterOn(t, memory.New(), namedGMs)
}

// testRouterOn is testRouterWith keeping the chats' settings in settings
// (a database, for tests across a restart).
func testRouterOn(t testing.TB, settings command.SettingsStore, namedGMs func(context.Context, core.ChatRef) ([]string, error)) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{
		Translator: cat, Settings: settings, NamedGMs: namedGMs, DefaultLang: "es",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond},
	})
	general.Register(r, general.Options{Version: "test"})
	var seq struct {
		sync.Mutex
		n int
	}
	// roll: "🎲 <name>: <args> = <n>" with again and odds buttons; n is a
	// counter, so every run gives a new number.
	r.Register(command.Command{Name: "roll", Aliases: []string{"r"}, Roll: true, Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			seq.Lock()
			seq.n++
			n := seq.n
			seq.Unlock()
			half, mean := 0.5, 7.0
			rep := &reply.Reply{Buttons: []reply.Button{{Kind: reply.ButtonAgain, Label: "🎲 again"}, {Kind: reply.ButtonOdds, Label: "odds"}},
				Check: &reply.Check{Chance: &half, ChanceExact: "1/2", Mean: &mean}}
			rep.Add(reply.T("🎲 "+req.Msg.From.Name+": "), reply.C(req.Args), reply.T(" = "), reply.B(strconv.Itoa(n)))
			return rep, nil
		})})
	r.Register(command.Command{Name: "echo", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			return reply.Text(req.Args), nil
		})})
	r.Register(command.Command{Name: "whoami", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			return reply.Text(fmt.Sprintf("user=%s gm=%v private=%v lang=%s", req.Msg.From.ID, req.IsGM, req.Msg.Private, req.Lang)), nil
		})})
	// long N: N lines of text with characters HTML must escape.
	r.Register(command.Command{Name: "long", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			n, _ := strconv.Atoi(req.Args)
			rep := &reply.Reply{}
			for i := range n {
				rep.Add(reply.B(fmt.Sprintf("%03d", i)), reply.T(" <a&b> \"ζαριά\" "), reply.C(strings.Repeat("x", 40)))
			}
			return rep, nil
		})})
	// importar takes a file (and a whole document as input).
	r.Register(command.Command{Name: "importar", Aliases: []string{"import"}, MaxInput: 300_000, TakesFile: true, Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			lines := strings.Split(req.Args, "\n")
			return reply.Text(fmt.Sprintf("lines=%d first=%s", len(lines), lines[0])), nil
		})})
	r.Register(command.Command{Name: "export", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			rep := reply.Text("your sheet")
			rep.File = &reply.File{Name: "drake.json", MIME: "application/json", Data: []byte(`{"name":"Drake"}`)}
			return rep, nil
		})})
	return r
}

const fakeToken = "123456:SECRET-token_ABCdef"

// fakeAPI is the fake Bot API the tests talk to (telegramtest, no flood
// limits) with waits that fail the test.
type fakeAPI struct {
	*telegramtest.Server
	t testing.TB
}

func newFakeAPI(t testing.TB) *fakeAPI { return newFakeAPIWithToken(t, fakeToken) }

// newFakeAPIWithToken starts a fake that accepts only token; it is
// closed when the test ends.
func newFakeAPIWithToken(t testing.TB, token string) *fakeAPI {
	t.Helper()
	s, err := telegramtest.New(telegramtest.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &fakeAPI{Server: s, t: t}
}

// waitSent waits until chat has at least n messages.
func (f *fakeAPI) waitSent(chat int64, n int, timeout time.Duration) []telegramtest.Sent {
	f.t.Helper()
	return waitFor(f.t, fmt.Sprintf("chat %d messages", chat), n, timeout, func() []telegramtest.Sent { return f.SentTo(chat) })
}

// waitCalls waits until method was called at least n times.
func (f *fakeAPI) waitCalls(method string, n int, timeout time.Duration) []telegramtest.Call {
	f.t.Helper()
	return waitFor(f.t, method+" calls", n, timeout, func() []telegramtest.Call { return f.CallsOf(method) })
}

// minWait is the least a wait gives what it waits for. A wait's timeout
// only says when to give up on something that must happen (no test checks
// a duration with it), and a -race run on a loaded 2-core CI machine is
// many times slower than a desk: 5 s was seen to fall short.
const minWait = 30 * time.Second

// waitFor polls get until it returns at least n items; the test fails
// when timeout (at least minWait) passes first.
func waitFor[T any](t testing.TB, what string, n int, timeout time.Duration, get func() []T) []T {
	t.Helper()
	timeout = max(timeout, minWait)
	for deadline := time.Now().Add(timeout); ; time.Sleep(2 * time.Millisecond) {
		got := get()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: got %d, want %d: %+v", what, len(got), n, got)
		}
	}
}

// waitLog waits until a line of r's log holds every one of subs (a log
// line is written after the reply or call it tells of, so it may come
// later than what the test saw arrive).
func (r *running) waitLog(t testing.TB, subs ...string) {
	t.Helper()
	for deadline := time.Now().Add(minWait); countLog(r.logs.String(), subs...) == 0; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no log line with %q:\n%s", subs, r.logs)
		}
	}
}

// testConfig is a configuration with small timeouts for the fake.
func testConfig(f *fakeAPI) Config {
	return Config{
		Token: f.Token(), APIURL: f.URL(),
		PollTimeout: time.Second, RequestTimeout: 2 * time.Second,
		Limits: Limits{ChatInterval: time.Millisecond, GroupLimit: 1000, GroupWindow: time.Millisecond,
			GlobalLimit: 1000, GlobalWindow: time.Millisecond},
		BackoffMin: 10 * time.Millisecond, BackoffMax: 100 * time.Millisecond,
		DrainTimeout: 5 * time.Second,
	}
}

// logBuffer collects log output for assertions.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type running struct {
	a      *Adapter
	cancel context.CancelFunc
	done   chan error
	logs   *logBuffer
}

// start runs an adapter until the test ends (or stop is called).
func start(t testing.TB, cfg Config, d Dispatcher, st StateStore) *running {
	t.Helper()
	logs := &logBuffer{}
	a, err := New(cfg, d, st, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{a: a, cancel: cancel, done: make(chan error, 1), logs: logs}
	go func() { r.done <- a.Run(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop cancels Run and waits for it.
func (r *running) stop(t testing.TB) error {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		r.done <- err // for a second stop
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancel")
		return nil
	}
}

var rng = rand.New(rand.NewPCG(1, 2))
