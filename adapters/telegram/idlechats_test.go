package telegram

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// queuesKept is how many chats the sender keeps a queue (and its flood
// windows) for.
func (r *running) queuesKept() int {
	s := r.a.send
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chats)
}

// TestIdleChatsForgotten: once a chat's last reply is older than its flood
// window, the sender no longer keeps its queue (it kept every chat until
// there were 10,000: issue 29, ~460 B each), and a chat forgotten so gets
// its next reply as before, in order.
func TestIdleChatsForgotten(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.ChatInterval = 10 * time.Millisecond
	cfg.GroupLimit, cfg.GroupWindow = 20, 100*time.Millisecond
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	r := start(t, cfg, testRouter(t), db)
	const chats = 300
	u := telegramtest.User{ID: 1000, Name: "Ana"}
	for c := range chats {
		f.SayIn(telegramtest.Group(int64(-1000-c)), u, fmt.Sprintf("/echo first %d", c))
	}
	for c := range chats {
		f.waitSent(int64(-1000-c), 1, 30*time.Second)
	}
	// A queue's last send counts from when the journal recorded it sent,
	// after the fake got it (up to a save interval later, more on a
	// loaded machine): a second of margin.
	time.Sleep(cfg.GroupWindow + time.Second)
	// A reply in a new chat makes a queue, and the sender looks for idle
	// ones then.
	f.SayIn(telegramtest.Group(-5000), u, "/echo new")
	f.waitSent(-5000, 1, 30*time.Second)
	if n := r.queuesKept(); n > 1 {
		t.Errorf("%d chat queues kept after %v idle, want only the new chat's", n, cfg.GroupWindow)
	}
	// A forgotten chat is answered again, after its first reply.
	f.SayIn(telegramtest.Group(-1000), u, "/echo second")
	got := f.waitSent(-1000, 2, 30*time.Second)
	if got[0].Visible != "first 0" || got[1].Visible != "second" {
		t.Errorf("chat -1000 got %q, %q; want \"first 0\", \"second\"", got[0].Visible, got[1].Visible)
	}
	if n := len(f.Sent()); n != chats+2 {
		t.Errorf("%d replies in all, want %d (one per command)", n, chats+2)
	}
}

// TestIdleWindowMemory: the memory a chat's queue keeps between its sends
// (one send through its chat and group windows, as deliver does), for
// 10,000 group chats. Each window made a wake channel at creation and
// again at every release; only a send that has to wait makes one now.
func TestIdleWindowMemory(t *testing.T) {
	const n = 10_000
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	ctx := t.Context()
	before := heap()
	qs := make(map[int64]*chatQueue, n)
	for c := range n {
		q := &chatQueue{chat: newWindow(1, time.Second), group: newWindow(20, time.Minute)}
		for _, w := range []*window{q.chat, q.group} {
			if err := w.acquire(ctx); err != nil {
				t.Fatal(err)
			}
			w.release()
		}
		q.last = time.Now()
		qs[int64(-c)] = q
	}
	per := float64(heap()-before) / n
	runtime.KeepAlive(qs)
	t.Logf("an idle group chat's queue keeps %.0f bytes (%.2f MB at %d chats)", per, per*n/1e6, n)
	if per > 400 {
		t.Errorf("%.0f bytes per idle chat queue, want < 400", per)
	}
}

// TestAdminListMemory: what the GM check keeps per group chat for
// admin_ttl, a list of one administrator, for 10,000 chats (issue 29: the
// lists were 1.5 MB in the memory phase's heap profile).
func TestAdminListMemory(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	c := newClient(cfg.APIURL, cfg.Token, nil)
	const n = 10_000
	for i := range n {
		f.SetAdmins(int64(-1000-i), 99_000_001)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	a := newAdmins(c, slog.New(slog.DiscardHandler), time.Hour, 5*time.Second)
	for i := range n {
		if !a.isAdmin(t.Context(), int64(-1000-i), 99_000_001) {
			t.Fatalf("chat %d: its administrator is no GM", -1000-i)
		}
	}
	// What the lists keep is what goes when they go (the fake's own
	// record of the calls stays).
	kept := heap()
	runtime.KeepAlive(a)
	a = nil
	per := float64(kept-heap()) / n
	t.Logf("an admin list of one keeps %.0f bytes per chat (%.2f MB at %d chats)", per, per*n/1e6, n)
	if per > 160 {
		t.Errorf("%.0f bytes per chat's admin list, want < 160 (a whole tgbotapi.User kept: ~200)", per)
	}
}
