package telegram

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/systems"
)

// Smoke tests against telegram-test-api, a third-party Bot API emulator
// from npm (testdata/emulator: version pinned, lockfile committed, installed
// by setup.sh). It has no long polling, offsets, errors or limits — the fake
// covers those — but it is an independent server our requests must get
// through. It answers getUpdates at once (no long polling): the adapter's
// guard against such servers keeps the loop from spinning.

type emulator struct {
	t    *testing.T
	base string
}

func startEmulator(t *testing.T) *emulator {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "emulator"))
	_, errMods := os.Stat(filepath.Join(dir, "node_modules", "telegram-test-api"))
	node, errNode := exec.LookPath("node")
	if errMods != nil || errNode != nil {
		if os.Getenv("ZARIA_REQUIRE_EMULATOR") != "" {
			t.Fatalf("telegram-test-api is required (ZARIA_REQUIRE_EMULATOR) but not installed: run %s/setup.sh (node: %v)", dir, errNode)
		}
		t.Skipf("telegram-test-api not installed: run adapters/telegram/testdata/emulator/setup.sh (or set ZARIA_REQUIRE_EMULATOR to fail instead)")
	}
	cmd := exec.Command(node, "start.js", "0")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case l := <-lines:
		var p struct{ Port int }
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.Port == 0 {
			t.Fatalf("emulator said %q", l)
		}
		return &emulator{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", p.Port)}
	case <-time.After(60 * time.Second): // node starting on a loaded machine
		t.Fatal("emulator did not start")
	}
	return nil
}

func (e *emulator) post(path string, body any, out any) {
	e.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(e.base+path, "application/json", bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		e.t.Fatalf("%s: %d %s", path, resp.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s: %v in %s", path, err, raw)
		}
	}
}

// botMessage is a message the bot sent, as the emulator stores it.
type botMessage struct {
	MessageID int `json:"messageId"`
	Message   struct {
		ChatID           any    `json:"chat_id"`
		Text             string `json:"text"`
		ParseMode        string `json:"parse_mode"`
		ReplyParams      any    `json:"reply_parameters"`
		ReplyMarkupField any    `json:"reply_markup"`
		Thread           any    `json:"message_thread_id"`
	} `json:"message"`
}

// replyTo is the message the bot's message replies to
// (reply_parameters.message_id), 0 if none.
func (m botMessage) replyTo(t *testing.T) int {
	var b []byte
	switch v := m.Message.ReplyParams.(type) {
	case nil:
		return 0
	case string: // form-encoded requests keep it a string
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	var rp struct {
		MessageID int `json:"message_id"`
	}
	if err := json.Unmarshal(b, &rp); err != nil {
		t.Fatalf("reply_parameters %s: %v", b, err)
	}
	return rp.MessageID
}

func (m botMessage) keyboard(t *testing.T) [][]struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
} {
	var kb struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	raw := m.Message.ReplyMarkupField
	var b []byte
	if s, ok := raw.(string); ok { // form-encoded requests keep it a string
		b = []byte(s)
	} else {
		b, _ = json.Marshal(raw)
	}
	if err := json.Unmarshal(b, &kb); err != nil {
		t.Fatalf("reply_markup %s: %v", b, err)
	}
	return kb.InlineKeyboard
}

// waitBot waits for the bot's next message in a chat.
func (e *emulator) waitBot(token string, chat int64) botMessage {
	e.t.Helper()
	deadline := time.Now().Add(minWait) // another process, under -race
	for time.Now().Before(deadline) {
		var r struct{ Result []botMessage }
		e.post("/getUpdates", map[string]any{"token": token, "chatId": chat}, &r)
		if len(r.Result) > 0 {
			return r.Result[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("no bot message in chat %d", chat)
	return botMessage{}
}

// countPolls counts getUpdates requests.
type countPolls struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (c *countPolls) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/getUpdates") {
		c.n.Add(1)
	}
	return c.next.RoundTrip(r)
}

// answered counts the answers of 200 to a method the bot called (the
// server has then done what the call asked).
type answered struct {
	next   http.RoundTripper
	method string
	n      atomic.Int64
}

func (c *answered) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err == nil && resp.StatusCode == 200 && strings.HasSuffix(r.URL.Path, "/"+c.method) {
		c.n.Add(1)
	}
	return resp, err
}

func TestEmulatorZariaRollWithButtonsInGroup(t *testing.T) {
	emu := startEmulator(t)
	token := "7001:emu-" + strings.ReplaceAll(t.Name(), "/", "-")
	router := testRouter(t)
	systems.Register(router)
	cfg := Config{Token: token, APIURL: emu.base, PollTimeout: time.Second, RequestTimeout: 5 * time.Second,
		Limits: Limits{ChatInterval: time.Millisecond, GroupLimit: 100, GroupWindow: time.Millisecond}}
	polls := &countPolls{next: http.DefaultTransport}
	cfg.HTTPClient = &http.Client{Transport: polls}
	began := time.Now()
	r := start(t, cfg, router, newMemState())

	const chat = -4001234567
	user := map[string]any{"id": 9001, "first_name": "Lena", "language_code": "en", "is_bot": false}
	group := map[string]any{"id": chat, "type": "group", "title": "Mesa"}
	text := "/zaria 4+2 dc15"
	emu.post("/sendCommand", map[string]any{"botToken": token, "from": user, "chat": group, "date": time.Now().Unix(),
		"text": text, "entities": []map[string]any{{"type": "bot_command", "offset": 0, "length": len("/zaria")}}}, nil)

	first := emu.waitBot(token, chat)
	if first.Message.ParseMode != "HTML" {
		t.Errorf("parse_mode %q", first.Message.ParseMode)
	}
	if first.replyTo(t) == 0 {
		t.Error("the reply does not reply to the command")
	}
	if _, err := telegramtest.Visible(first.Message.Text); err != nil || !strings.Contains(first.Message.Text, "15") {
		t.Errorf("text %q: %v", first.Message.Text, err)
	}
	kb := first.keyboard(t)
	if len(kb) != 1 || len(kb[0]) < 1 || !strings.HasPrefix(kb[0][0].CallbackData, "b:") {
		t.Fatalf("keyboard %+v", kb)
	}
	t.Logf("bot said: %s", first.Message.Text)

	// Someone else presses "again": a new roll, as a new reply.
	other := map[string]any{"id": 9002, "first_name": "Kostas", "language_code": "el", "is_bot": false}
	emu.post("/sendCallback", map[string]any{"botToken": token, "from": other, "data": kb[0][0].CallbackData,
		"message": map[string]any{"message_id": first.MessageID, "chat": group, "date": time.Now().Unix()}}, nil)
	again := emu.waitBot(token, chat)
	if again.MessageID == first.MessageID || again.Message.ParseMode != "HTML" || !strings.Contains(again.Message.Text, "15") {
		t.Errorf("again: %+v", again)
	}
	if again.replyTo(t) != first.MessageID {
		t.Errorf("again replies to %v, want %d", again.replyTo(t), first.MessageID)
	}
	if len(again.keyboard(t)) != 1 {
		t.Error("the new roll has no buttons")
	}
	t.Logf("again: %s", again.Message.Text)
	if err := r.stop(t); err != nil {
		t.Fatal(err)
	}
	// No spinning against a server that answers at once: about one poll
	// per 50 ms.
	if n, d := polls.n.Load(), time.Since(began); n > int64(d/(50*time.Millisecond))+5 {
		t.Errorf("%d getUpdates in %v: the loop spins", n, d)
	}
	if strings.Contains(r.logs.String(), "level=ERROR") {
		t.Errorf("errors logged:\n%s", r.logs.String())
	}
}

// Webhook mode against the emulator: it registers our URL and POSTs the
// user's command to it (it sends no secret header, so none is set here).
func TestEmulatorWebhook(t *testing.T) {
	emu := startEmulator(t)
	token := "7002:emu-webhook"
	addr := freePort(t)
	cfg := Config{Token: token, APIURL: emu.base, RequestTimeout: 5 * time.Second,
		WebhookListen: addr, WebhookURL: "http://" + addr + "/hook", insecureWebhook: true,
		Limits: Limits{ChatInterval: time.Millisecond, GroupLimit: 100, GroupWindow: time.Millisecond}}
	set := &answered{next: http.DefaultTransport, method: "setWebhook"}
	cfg.HTTPClient = &http.Client{Transport: set}
	start(t, cfg, testRouter(t), newMemState())
	// Wait for setWebhook to be answered: until then the emulator would
	// queue the update (the bot listens before it calls setWebhook).
	for deadline := time.Now().Add(minWait); set.n.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the emulator did not answer setWebhook")
		}
	}
	const chat = -4001239999
	emu.post("/sendCommand", map[string]any{"botToken": token,
		"from": map[string]any{"id": 9003, "first_name": "Eva", "language_code": "es"},
		"chat": map[string]any{"id": chat, "type": "group", "title": "Mesa"}, "date": time.Now().Unix(),
		"text": "/echo <por> webhook", "entities": []map[string]any{{"type": "bot_command", "offset": 0, "length": 5}}}, nil)
	got := emu.waitBot(token, chat)
	if got.Message.Text != "&lt;por&gt; webhook" || got.Message.ParseMode != "HTML" {
		t.Fatalf("got %+v", got.Message)
	}
}

// history returns the bot's messages the emulator keeps (with their
// edits applied), in order.
func (e *emulator) history(token string) []botMessage {
	e.t.Helper()
	var r struct{ Result []json.RawMessage }
	e.post("/getUpdatesHistory", map[string]any{"token": token}, &r)
	var out []botMessage
	for _, raw := range r.Result {
		var m botMessage
		if json.Unmarshal(raw, &m) == nil && m.Message.Text != "" && m.Message.ChatID != nil {
			out = append(out, m)
		}
	}
	return out
}

// emuBot starts the adapter against the emulator with the test router.
func emuBot(t *testing.T, emu *emulator, token string) *running {
	t.Helper()
	cfg := Config{Token: token, APIURL: emu.base, PollTimeout: time.Second, RequestTimeout: 5 * time.Second,
		Limits: Limits{ChatInterval: time.Millisecond, GroupLimit: 100, GroupWindow: time.Millisecond}}
	return start(t, cfg, testRouter(t), newMemState())
}

// Issue 12 against the emulator, for what it supports (messages with any
// fields, callbacks, editMessageText): the 📊 button of a roll edits that
// roll's message with its odds and rolls nothing; a command in a forum
// topic is answered in the topic (message_thread_id).
func TestEmulatorOddsButtonAndTopic(t *testing.T) {
	emu := startEmulator(t)
	token := "7003:emu-odds"
	emuBot(t, emu, token)
	const chat = -4001235555
	group := map[string]any{"id": chat, "type": "supergroup", "title": "Mesa", "is_forum": true}
	user := map[string]any{"id": 9004, "first_name": "Lena", "language_code": "en", "is_bot": false}
	emu.post("/sendCommand", map[string]any{"botToken": token, "from": user, "chat": group, "date": time.Now().Unix(),
		"text": "/roll 2d6", "message_thread_id": 42, "is_topic_message": true,
		"entities": []map[string]any{{"type": "bot_command", "offset": 0, "length": 5}}}, nil)
	first := emu.waitBot(token, chat)
	if fmt.Sprint(first.Message.Thread) != "42" {
		t.Errorf("the reply went to thread %v, want the topic 42", first.Message.Thread)
	}
	kb := first.keyboard(t)
	if len(kb) != 1 || len(kb[0]) != 2 || !strings.HasPrefix(kb[0][1].CallbackData, "b:") { // the odds button: its record keeps the message
		t.Fatalf("keyboard %+v", kb)
	}
	emu.post("/sendCallback", map[string]any{"botToken": token, "from": user, "data": kb[0][1].CallbackData,
		"message": map[string]any{"message_id": first.MessageID, "chat": group, "date": time.Now().Unix(),
			"message_thread_id": 42, "is_topic_message": true}}, nil)
	deadline := time.Now().Add(minWait)
	for {
		h := emu.history(token)
		if len(h) == 1 && strings.Contains(h[0].Message.Text, "Chance: 50%") {
			if !strings.Contains(h[0].Message.Text, "= <b>1</b>") {
				t.Errorf("the roll changed: %q", h[0].Message.Text)
			}
			break
		}
		if len(h) > 1 {
			t.Fatalf("the odds button posted a new message (a re-roll?): %q", h[len(h)-1].Message.Text)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the roll's message was not edited with its odds: %+v", h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
