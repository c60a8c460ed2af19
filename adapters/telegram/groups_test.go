package telegram

import (
	"context"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// Tests of Telegram as groups use it: secret-roll notices, durable
// buttons, forum topics, inline rolls posted before they are rolled.

// TestSecretNoticeOncePerDay: a GM who never pressed Start makes the
// group hear "I can't write to …" once per person and chat; the next
// secret rolls still reach everyone else, silently; a day later it is
// said again.
func TestSecretNoticeOncePerDay(t *testing.T) {
	f := newFakeAPI(t)
	const group = -620
	f.SetAdmins(group, ana.ID, nikos.ID)
	f.Block(nikos.ID)
	var clock testClock
	clock.set(time.Now())
	startWithClock(t, testConfig(f), testRouter(t), newMemState(), clock.now)
	g := telegramtest.Group(group)
	notices := func() int {
		n := 0
		for _, m := range f.SentTo(group) {
			if strings.Contains(m.Visible, "No puedo escribir") || strings.Contains(m.Visible, "I can't message") {
				n++
			}
		}
		return n
	}
	for i := 1; i <= 3; i++ {
		f.SayIn(g, bob, "/secreto 1d20")
		f.waitSent(ana.ID, i, 5*time.Second)
		f.waitSent(bob.ID, i, 5*time.Second)
	}
	// The notice follows Nikos' refused message, which is sent in
	// parallel with the others: wait for it, then give a second one its
	// chance to show.
	waitFor(t, "notices", 1, 5*time.Second, func() []int { return make([]int, notices()) })
	time.Sleep(200 * time.Millisecond)
	if n := notices(); n != 1 {
		t.Errorf("%d notices after 3 secret rolls, want 1", n)
	}
	clock.set(clock.now().Add(25 * time.Hour))
	f.SayIn(g, bob, "/secreto 1d20")
	f.waitSent(ana.ID, 4, 5*time.Second)
	waitFor(t, "notices", 2, 5*time.Second, func() []int {
		return make([]int, notices())
	})
}

// TestButtonsSurviveRestart: a roll whose command does not fit in
// Telegram's 64 bytes of callback data keeps its buttons working after a
// restart (they are stored, not kept in memory).
func TestButtonsSurviveRestart(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "zaria.db")
	db := openDB(t, path)
	r := start(t, testConfig(f), testRouterOn(t, db, nil), db)
	g := telegramtest.Group(-630)
	long := "/roll 1d20+5 # ataque sorpresa con la espada larga del abuelo Ramón"
	f.SayIn(g, ana, long)
	first := f.waitSent(g.ID, 1, 5*time.Second)[0]
	kb := keyboardOf(t, first)
	r.stop(t)
	db.Close()

	db = openDB(t, path)
	defer db.Close()
	start(t, testConfig(f), testRouterOn(t, db, nil), db)
	f.Press(first, bob, *kb[0][0].CallbackData)
	again := f.waitSent(g.ID, 2, 5*time.Second)[1]
	if !strings.Contains(again.Visible, "Bob tira otra vez") || !strings.Contains(again.Visible, "ataque sorpresa con la espada larga del abuelo Ramón") {
		t.Errorf("again after a restart: %q", again.Visible)
	}
	f.Press(first, bob, *kb[0][1].CallbackData)
	edits := waitFor(t, "edits", 1, 5*time.Second, f.Edits)
	if !strings.Contains(edits[0].Visible, "📊") {
		t.Errorf("odds after a restart: %+v", edits[0])
	}
	for _, c := range f.CallsOf("answerCallbackQuery") {
		if strings.Contains(c.Params["text"], "ya no funciona") {
			t.Errorf("a button died at the restart: %q", c.Params["text"])
		}
	}
}

// TestForumTopicReplies: in a forum supergroup every reply lands in the
// topic it answers: plain replies, the secret-roll notice in the group
// and the roll of a button pressed in the topic. Private copies carry no
// thread.
func TestForumTopicReplies(t *testing.T) {
	f := newFakeAPI(t)
	const group = -640
	f.SetForum(group)
	f.SetAdmins(group, nikos.ID)
	f.Block(nikos.ID)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayInTopic(group, 77, ana, "/roll 1d6")
	first := f.waitSent(group, 1, 5*time.Second)[0]
	if first.Thread != 77 {
		t.Errorf("reply in thread %d, want 77", first.Thread)
	}
	kb := keyboardOf(t, first)
	f.PressInTopic(first, bob, *kb[0][0].CallbackData)
	f.SayInTopic(group, 78, bob, "/secreto 1d20")
	got := f.waitSent(group, 4, 5*time.Second)
	want := map[string]int{"tira otra vez": 77, "en secreto": 78, "No puedo escribir": 78}
	for _, m := range got[1:] {
		for text, thread := range want {
			if strings.Contains(m.Visible, text) && m.Thread != thread {
				t.Errorf("%q in thread %d, want %d", m.Visible, m.Thread, thread)
			}
		}
	}
	if m := f.waitSent(bob.ID, 1, 5*time.Second)[0]; m.Thread != 0 {
		t.Errorf("private copy sent with thread %d", m.Thread)
	}
	if bad := f.BadRequests(); len(bad) != 0 {
		t.Errorf("bad requests: %v", bad)
	}
}

// TestInlineRollOnChosen: the posted inline message is rolled when
// Telegram reports it chosen, by editing it into who rolled, when, and
// the result; the same message is never rolled twice (a second report,
// the button pressed after); the button of someone else's roll does
// nothing.
func TestInlineRollOnChosen(t *testing.T) {
	f := newFakeAPI(t)
	clock := time.Date(2026, 12, 1, 10, 52, 0, 0, time.UTC)
	startWithClock(t, testConfig(f), testRouter(t), newMemState(), func() time.Time { return clock })
	f.InlineQuery(ana, "2d6")
	// The fake counts the call before it stores the results: wait for them.
	res := waitFor(t, "inline results", 1, 5*time.Second, f.InlineResults)
	if len(res) != 1 || !res[0].HasKeyboard || strings.Contains(res[0].Text, "=") {
		t.Fatalf("inline results %+v", res)
	}
	id, err := f.Choose(ana, res[0].ID, "2d6")
	if err != nil || id == "" {
		t.Fatalf("Choose: %q %v", id, err)
	}
	// What is posted before the roll (the bot may already have edited the
	// posted message by now: read the result's own text).
	if !strings.Contains(res[0].Text, "Ana va a tirar") {
		t.Errorf("placeholder %q", res[0].Text)
	}
	edits := waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if want := "Ana tiró el 2026-12-01 10:52 UTC\n🎲 Ana: 2d6 = 1"; f.InlineText(id) != want || edits[0].InlineID != id {
		t.Errorf("inline message %q, want %q", f.InlineText(id), want)
	}
	if c := f.CallsOf("editMessageText")[0]; c.Params["chat_id"] != "" {
		t.Errorf("inline edit sent with chat_id %q", c.Params["chat_id"])
	}
	// The button: by someone else, then by the author after the roll.
	f.PressInline(id, bob, "i:"+strconv.FormatInt(ana.ID, 10)+":/roll 2d6")
	f.PressInline(id, ana, "i:"+strconv.FormatInt(ana.ID, 10)+":/roll 2d6")
	calls := f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	// In Bob's language (his client's, English), by the router's rule.
	if !strings.Contains(calls[0].Params["text"], "someone else") {
		t.Errorf("someone else's press answered %q", calls[0].Params["text"])
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.Edits()); n != 1 {
		t.Errorf("%d edits, want 1: an inline message is rolled once", n)
	}
	if n := len(f.Sent()); n != 0 {
		t.Errorf("%d messages sent in inline mode", n)
	}
}

// TestInlineButtonRollsWithoutFeedback: with inline feedback off in
// BotFather no chosen_inline_result comes; the author's press of the
// placeholder's button rolls it.
func TestInlineButtonRollsWithoutFeedback(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.InlineQuery(nikos, "1d20")
	f.waitCalls("answerInlineQuery", 1, 5*time.Second)
	call := f.CallsOf("answerInlineQuery")[0]
	i := strings.Index(call.Params["results"], `"callback_data":"`)
	if i < 0 {
		t.Fatalf("no button in %s", call.Params["results"])
	}
	data, _, _ := strings.Cut(call.Params["results"][i+len(`"callback_data":"`):], `"`)
	res := waitFor(t, "inline results", 1, 5*time.Second, f.InlineResults)
	// Posted, but the feedback is off: drop the chosen update.
	id, _ := f.Choose(nikos, res[0].ID, "1d20")
	f.PressInline(id, nikos, data)
	waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if got := f.InlineText(id); !strings.Contains(got, "Νίκος: 1d20 = ") {
		t.Errorf("inline message %q", got)
	}
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *testClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// startWithClock is start with the adapter's clock set.
func startWithClock(t testing.TB, cfg Config, d Dispatcher, st StateStore, now func() time.Time) *running {
	t.Helper()
	logs := &logBuffer{}
	a, err := New(cfg, d, st, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	a.now = now
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{a: a, cancel: cancel, done: make(chan error, 1), logs: logs}
	go func() { r.done <- a.Run(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}
