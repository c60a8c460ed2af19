package matrix

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mau.fi/util/dbutil"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
	"maunium.net/go/mautrix/sqlstatestore"

	"zaria/adapters/matrix/dendritetest"
	"zaria/adapters/matrix/synapsetest"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/memory"
	"zaria/storage/sqlite"
)

const (
	botName     = "zaria"
	botPassword = "zaria-bot-pass"
	userPass    = "user-password-1"
	pickleKey   = "test pickle key, stable"
)

// newRouter is the real router with the general and system commands.
func newRouter(t testing.TB) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{
		DefaultLang: "en",
		Translator:  cat,
		Settings:    memory.New(),
		Limits:      command.Limits{Burst: 1000, Refill: time.Millisecond},
	})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	return r
}

// logBuffer collects the bot's log lines for assertions, and echoes them
// to the test log.
type logBuffer struct {
	t     testing.TB
	mu    sync.Mutex
	b     bytes.Buffer
	quiet atomic.Bool // not echoed to the test log
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.quiet.Load() {
		l.t.Logf("bot: %s", strings.TrimRight(string(p), "\n"))
	}
	return l.b.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// bot is the adapter under test, running in this process.
type bot struct {
	a      *Adapter
	st     *sqlite.DB
	log    *logBuffer
	cancel context.CancelFunc
	done   chan error
}

type botOpts struct {
	dir     string // state folder, reused across restarts
	crypto  bool
	cfg     func(*Config)
	wrap    func(StateStore) StateStore
	homeURL string
	grace   time.Duration // how long a reply in flight may finish on stop
	salt    string        // fresh transaction ids (no help from the homeserver's memory)
}

func startBot(t testing.TB, hs homeserver, d Dispatcher, o botOpts) *bot {
	t.Helper()
	if o.dir == "" {
		o.dir = t.TempDir()
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(o.dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	var store StateStore = st
	if o.wrap != nil {
		store = o.wrap(st)
	}
	url := hs.HomeserverURL()
	if o.homeURL != "" {
		url = o.homeURL
	}
	cfg := Config{
		Homeserver:  url,
		User:        botName,
		Password:    botPassword,
		CryptoDB:    filepath.Join(o.dir, "matrix.db"),
		SyncTimeout: 5 * time.Second,
		BackoffMin:  50 * time.Millisecond,
		BackoffMax:  500 * time.Millisecond,
		Announce:    io.Discard,
	}
	if o.crypto {
		cfg.PickleKey = pickleKey
	}
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	lb := &logBuffer{t: t}
	a, err := New(cfg, d, store, slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	if o.grace > 0 {
		a.grace = o.grace
	}
	a.out.txnSalt = o.salt
	ctx, cancel := context.WithCancel(context.Background())
	b := &bot{a: a, st: st, log: lb, cancel: cancel, done: make(chan error, 1)}
	go func() { b.done <- a.Run(ctx) }()
	t.Cleanup(b.stop)
	return b
}

func (b *bot) stop() {
	if b.cancel == nil {
		return
	}
	b.cancel()
	b.cancel = nil
	defer func() {
		// Secrets never reach the logs.
		logs := b.log.String()
		for name, secret := range map[string]string{"password": botPassword, "pickle key": pickleKey, "access token": b.a.auth.current()} {
			if secret != "" && strings.Contains(logs, secret) {
				b.log.t.Errorf("the %s appears in the bot's log", name)
			}
		}
	}()
	select {
	case err := <-b.done:
		if err != nil {
			b.log.t.Errorf("bot Run returned %v", err)
		}
	case <-time.After(15 * time.Second):
		b.log.t.Errorf("bot did not stop within 15 s")
	}
	b.st.Close()
}

// user is a person with a Matrix client (with its own crypto when asked).
type user struct {
	t   testing.TB
	cli *mautrix.Client

	mu       sync.Mutex
	events   []*event.Event // messages and reactions from others, decrypted
	arrived  []time.Time    // when each of events arrived
	notify   chan struct{}
	cancel   context.CancelFunc
	autoJoin atomic.Bool
}

// quickSyncer retries a failed sync after 100 ms (not mautrix's 10 s), so
// that the people in the tests notice a restarted homeserver quickly.
type quickSyncer struct{ *mautrix.DefaultSyncer }

func (quickSyncer) OnFailedSync(_ *mautrix.RespSync, err error) (time.Duration, error) {
	return 100 * time.Millisecond, nil
}

func newUser(t testing.TB, hs homeserver, name string, withCrypto bool) *user {
	t.Helper()
	ctx := context.Background()
	if _, err := hs.Register(ctx, name, userPass, false); err != nil {
		t.Fatal(err)
	}
	if s, ok := hs.(*synapsetest.Server); ok {
		// A person types far slower than a test: only the bot is limited.
		if err := s.Exempt(ctx, id.NewUserID(name, synapsetest.ServerName)); err != nil {
			t.Fatal(err)
		}
	}
	return newDevice(t, hs, name, withCrypto)
}

// newDevice logs an existing user in on one more device.
func newDevice(t testing.TB, hs homeserver, name string, withCrypto bool) *user {
	t.Helper()
	ctx := context.Background()
	cli, err := hs.Login(ctx, name, userPass)
	if err != nil {
		t.Fatal(err)
	}
	u := &user{t: t, cli: cli, notify: make(chan struct{}, 1)}
	syncer := &quickSyncer{mautrix.NewDefaultSyncer()}
	cli.Syncer = syncer
	cli.Store = mautrix.NewMemorySyncStore()
	if withCrypto {
		helper, err := cryptohelper.NewCryptoHelper(cli, []byte("user pickle "+name), filepath.Join(t.TempDir(), name+"-"+cli.DeviceID.String()+".db"))
		if err != nil {
			t.Fatal(err)
		}
		if err := helper.Init(ctx); err != nil {
			t.Fatal(err)
		}
		cli.Crypto = helper
		t.Cleanup(func() { helper.Close() })
	} else {
		// Not mautrix.NewMemoryStateStore: it hands out the member structs
		// it later changes in place (SetMembership), so the test's own
		// CreateRoom and its sync goroutine race on them.
		db, err := dbutil.NewWithDialect("file:"+filepath.Join(t.TempDir(), name+"-state.db")+"?_txlock=immediate&_journal_mode=WAL&_busy_timeout=5000", "sqlite3")
		if err != nil {
			t.Fatal(err)
		}
		ss := sqlstatestore.NewSQLStateStore(db, dbutil.NoopLogger, false)
		if err := ss.Upgrade(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		cli.StateStore = ss
		syncer.OnEvent(cli.StateStoreSyncHandler)
	}
	keep := func(_ context.Context, evt *event.Event) {
		if evt.Sender == cli.UserID {
			return
		}
		u.mu.Lock()
		u.events = append(u.events, evt)
		u.arrived = append(u.arrived, time.Now())
		u.mu.Unlock()
		select {
		case u.notify <- struct{}{}:
		default:
		}
	}
	syncer.OnEventType(event.EventMessage, keep)
	syncer.OnEventType(event.EventReaction, keep)
	syncer.OnEventType(event.StateMember, func(ctx context.Context, evt *event.Event) {
		if evt.GetStateKey() == string(cli.UserID) && evt.Content.AsMember().Membership == event.MembershipInvite && u.autoJoin.Load() {
			go func() { _, _ = cli.JoinRoomByID(ctx, evt.RoomID) }()
		}
		select {
		case u.notify <- struct{}{}:
		default:
		}
	})
	sctx, cancel := context.WithCancel(ctx)
	u.cancel = cancel
	done := make(chan struct{})
	go func() {
		defer close(done)
		// SyncWithContext gives up when it cannot create its filter (the
		// homeserver is down): start it again, as a real client would.
		for sctx.Err() == nil {
			_ = cli.SyncWithContext(sctx)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return u
}

// waitFor waits until an event matching f has arrived and returns it.
func (u *user) waitFor(what string, timeout time.Duration, f func(*event.Event) bool) *event.Event {
	u.t.Helper()
	deadline := time.After(timeout)
	for {
		u.mu.Lock()
		for _, e := range u.events {
			if f(e) {
				u.mu.Unlock()
				return e
			}
		}
		u.mu.Unlock()
		select {
		case <-u.notify:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			u.t.Fatalf("%s: nothing within %v; got %s", what, timeout, u.dump())
			return nil
		}
	}
}

// matching returns all events so far that match f.
func (u *user) matching(f func(*event.Event) bool) []*event.Event {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []*event.Event
	for _, e := range u.events {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

// arrivals returns, for each event matching f, when it arrived.
func (u *user) arrivals(f func(*event.Event) bool) map[id.EventID]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := map[id.EventID]time.Time{}
	for i, e := range u.events {
		if f(e) {
			out[e.ID] = u.arrived[i]
		}
	}
	return out
}

func (u *user) dump() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var b strings.Builder
	for _, e := range u.events {
		fmt.Fprintf(&b, "\n  %s %s %s %s", e.RoomID, e.Sender, e.Type.Type, e.Content.VeryRaw)
	}
	return b.String()
}

// createRoom creates a room inviting the bot (encrypted when asked).
func (u *user) createRoom(encrypted bool, invite ...id.UserID) id.RoomID {
	u.t.Helper()
	req := &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: invite}
	if encrypted {
		req.InitialState = []*event.Event{{Type: event.StateEncryption, Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
	}
	resp, err := u.cli.CreateRoom(context.Background(), req)
	if err != nil {
		u.t.Fatal(err)
	}
	return resp.RoomID
}

// waitJoined waits until the homeserver says who joined room, and makes
// sure this user's client knows (its crypto shares keys with members only).
func (u *user) waitJoined(room id.RoomID, who id.UserID) {
	u.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(wait)
	for {
		if u.cli.StateStore.IsMembership(ctx, room, who, event.MembershipJoin) {
			return
		}
		if m, err := u.cli.JoinedMembers(ctx, room); err == nil {
			if _, ok := m.Joined[who]; ok {
				if err := u.cli.StateStore.SetMembership(ctx, room, who, event.MembershipJoin); err != nil {
					u.t.Fatal(err)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("%s did not join %s", who, room)
		}
		select {
		case <-u.notify:
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// say sends a text message and returns its event id.
func (u *user) say(room id.RoomID, text string) id.EventID {
	u.t.Helper()
	return u.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: text})
}

func (u *user) send(room id.RoomID, c *event.MessageEventContent) id.EventID {
	u.t.Helper()
	resp, err := u.cli.SendMessageEvent(context.Background(), room, event.EventMessage, c)
	if err != nil {
		u.t.Fatal(err)
	}
	return resp.EventID
}

// replyTo matches the bot's notices answering evt.
func replyTo(bot id.UserID, evt id.EventID) func(*event.Event) bool {
	return func(e *event.Event) bool {
		if e.Sender != bot || e.Type != event.EventMessage {
			return false
		}
		c := e.Content.AsMessage()
		return c.MsgType == event.MsgNotice && c.RelatesTo != nil && c.RelatesTo.InReplyTo != nil && c.RelatesTo.InReplyTo.EventID == evt
	}
}

func botID() id.UserID { return id.NewUserID(botName, dendritetest.ServerName) }

// startServer starts Dendrite and registers the bot account.
func startServer(t testing.TB, opts dendritetest.Options) *dendritetest.Server {
	t.Helper()
	hs := dendritetest.Start(t, opts)
	if _, err := hs.Register(context.Background(), botName, botPassword, false); err != nil {
		t.Fatal(err)
	}
	return hs
}

type inviteReq = mautrix.ReqInviteUser

var optsNone = dendritetest.Options{}

// memState is a StateStore in a map, for tests that need no file.
type memState struct {
	mu sync.Mutex
	m  map[string]string
}

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
	return nil
}

func openState(dir string) (*sqlite.DB, error) {
	return sqlite.Open(context.Background(), filepath.Join(dir, "state.db"))
}
