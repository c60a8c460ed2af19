package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
)

// failingState is a memState whose writes fail while fail is set (a
// database locked by another process, a full disk).
type failingState struct {
	*memState
	fail atomic.Bool
}

func (s *failingState) SetState(ctx context.Context, key, value string) error {
	if s.fail.Load() {
		return errors.New("database is locked")
	}
	return s.memState.SetState(ctx, key, value)
}

func (s *failingState) WriteStates(ctx context.Context, set map[string]string, del []string) error {
	if s.fail.Load() {
		return errors.New("database is locked")
	}
	return s.memState.WriteStates(ctx, set, del)
}

type webhookBot struct {
	t   *testing.T
	cfg Config
	r   *running
}

func startWebhook(t *testing.T, f *fakeAPI, st StateStore, tune func(*Config)) *webhookBot {
	t.Helper()
	cfg := testConfig(f)
	addr := freePort(t)
	cfg.WebhookListen = addr
	cfg.WebhookURL = "http://" + addr + "/tg/hook"
	cfg.WebhookSecret = "s3cret-Token_1"
	if tune != nil {
		tune(&cfg)
	}
	r := start(t, cfg, testRouter(t), st)
	f.waitCalls("setWebhook", 1, 5*time.Second)
	return &webhookBot{t: t, cfg: cfg, r: r}
}

func (w *webhookBot) post(id int, chat int64, text string) int {
	w.t.Helper()
	upd, _ := json.Marshal(tgbotapi.Update{UpdateID: id, Message: &tgbotapi.Message{MessageID: id, From: ana.API(), Chat: telegramtest.Group(chat), Text: text}})
	req, _ := http.NewRequest("POST", w.cfg.WebhookURL, strings.NewReader(string(upd)))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", w.cfg.WebhookSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestWebhookNotKeptNotAcknowledged: while the journal cannot be written
// a delivery is answered 503 (Telegram delivers it again) and nothing is
// sent; once the database is back the retry is answered, once.
func TestWebhookNotKeptNotAcknowledged(t *testing.T) {
	f := newFakeAPI(t)
	st := &failingState{memState: newMemState()}
	w := startWebhook(t, f, st, nil)
	st.fail.Store(true)
	if got := w.post(501, -710, "/echo guardado"); got/100 == 2 {
		t.Fatalf("delivery answered %d while the journal cannot be written", got)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(-710)); n != 0 {
		t.Errorf("%d replies sent for a delivery not kept", n)
	}
	st.fail.Store(false)
	if got := w.post(501, -710, "/echo guardado"); got != 200 {
		t.Fatalf("retry answered %d", got)
	}
	if got := w.post(501, -710, "/echo guardado"); got != 200 {
		t.Fatalf("second retry answered %d", got)
	}
	f.waitSent(-710, 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	if got := f.SentTo(-710); len(got) != 1 || got[0].Visible != "guardado" {
		t.Errorf("replies %+v", got)
	}
}

// TestWebhookBackpressure: with sends held (Telegram slow), deliveries are
// accepted until MaxQueued replies wait; the next ones wait WebhookWait
// and are answered 503 (Telegram keeps them and delivers again). The
// queue never grows past the bound; once sends flow the refused updates
// are accepted and everything is answered once.
func TestWebhookBackpressure(t *testing.T) {
	f := newFakeAPI(t)
	held := make([]telegramtest.Fault, 60)
	for i := range held {
		held[i] = telegramtest.Fault{Delay: 1500 * time.Millisecond}
	}
	f.Inject("sendMessage", held...)
	const bound = 20
	w := startWebhook(t, f, newMemState(), func(c *Config) {
		c.MaxQueued = bound
		c.WebhookWait = 200 * time.Millisecond
		c.DrainTimeout = 10 * time.Second
	})
	var mu sync.Mutex
	codes := map[int]int{}
	refused := []int{}
	began := time.Now()
	maxQueued := int64(0)
	for i := 0; i < 60; i++ {
		code := w.post(600+i, -int64(800+i), "/echo r")
		maxQueued = max(maxQueued, w.r.a.QueueDepth())
		mu.Lock()
		codes[code]++
		if code != 200 {
			refused = append(refused, i)
		}
		mu.Unlock()
	}
	took := time.Since(began)
	t.Logf("sends held 1.5 s: %d accepted, %d refused with 503 in %s; queue at most %d", codes[200], codes[503], took.Round(time.Millisecond), maxQueued)
	if codes[200] < bound || codes[503] == 0 || maxQueued > bound {
		t.Errorf("answers %v, queue up to %d; want %d accepted at once, then 503s, the queue never over %d", codes, maxQueued, bound, bound)
	}
	// Telegram delivers the refused ones again, later.
	for _, i := range refused {
		for try := 0; ; try++ {
			if w.post(600+i, -int64(800+i), "/echo r") == 200 {
				break
			}
			if try > 200 {
				t.Fatalf("update %d never accepted", 600+i)
			}
		}
	}
	waitFor(t, "replies", 60, 20*time.Second, f.Sent)
	time.Sleep(100 * time.Millisecond)
	if n := len(f.Sent()); n != 60 {
		t.Errorf("%d replies for 60 updates", n)
	}
}

// TestWebhookConfig: webhook mode refuses to start without a secret,
// listens on loopback by default, and registers max_connections.
func TestWebhookConfig(t *testing.T) {
	if _, err := New(Config{Token: "x", WebhookURL: "https://bot.example.org/tg"}, testRouter(t), newMemState(), nil); err == nil || !strings.Contains(err.Error(), "webhook_secret") {
		t.Errorf("webhook mode without a secret: %v", err)
	}
	c := Config{Token: "x", WebhookURL: "https://bot.example.org/tg", WebhookSecret: "abc"}.withDefaults()
	if c.WebhookListen != "127.0.0.1:8443" {
		t.Errorf("default listen %q", c.WebhookListen)
	}
	f := newFakeAPI(t)
	startWebhook(t, f, newMemState(), nil)
	if set := f.CallsOf("setWebhook")[0]; set.Params["max_connections"] != "10" {
		t.Errorf("setWebhook %v", set.Params)
	}
}

// TestWebhookAcceptanceRate measures deliveries acknowledged per second
// on a real SQLite journal, with a full send queue's worth of replies
// pending (sends held): the journal stays bounded, so the cost of a POST
// does too.
func TestWebhookAcceptanceRate(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	f := newFakeAPI(t)
	held := make([]telegramtest.Fault, 400)
	for i := range held {
		held[i] = telegramtest.Fault{Delay: 3 * time.Second}
	}
	f.Inject("sendMessage", held...)
	db := openDB(t, t.TempDir()+"/zaria.db")
	defer db.Close()
	w := startWebhook(t, f, db, func(c *Config) { c.WebhookWait = 10 * time.Millisecond; c.DrainTimeout = 10 * time.Second })
	const n = 300
	began := time.Now()
	ok := 0
	for i := 0; i < n; i++ {
		if w.post(900+i, -int64(2000+i), "/echo r") == 200 {
			ok++
		}
	}
	took := time.Since(began)
	t.Logf("%d of %d deliveries acknowledged in %s: %.0f/s (queue bound %d)", ok, n, took.Round(time.Millisecond), float64(ok)/took.Seconds(), w.cfg.withDefaults().MaxQueued)
	if ok < 250 {
		t.Errorf("only %d of %d acknowledged", ok, n)
	}
}
