package telegram

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/reply"
)

func TestPollingSurvives5xx429And409(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("getUpdates",
		telegramtest.Fault{Code: 502, Description: "Bad Gateway"},
		telegramtest.Fault{Code: 429, Description: "Too Many Requests: retry after 1", RetryAfter: 1},
		telegramtest.Fault{Code: 409, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"},
	)
	r := start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-200)
	f.SayIn(g, ana, "/echo hola")
	if got := f.waitSent(g.ID, 1, 10*time.Second); got[0].Visible != "hola" {
		t.Fatalf("got %q", got[0].Visible)
	}
	calls := f.CallsOf("getUpdates")
	if len(calls) < 4 {
		t.Fatalf("%d getUpdates calls", len(calls))
	}
	if gap := calls[2].At.Sub(calls[1].At); gap < time.Second {
		t.Errorf("retry_after 1 s not obeyed: next poll after %v", gap)
	}
	logs := r.logs.String()
	if !strings.Contains(logs, "409 Conflict: another process is polling") {
		t.Errorf("409 not reported clearly:\n%s", logs)
	}
}

func TestSendRetriesUntilDeliveredOnce(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("sendMessage",
		telegramtest.Fault{Code: 429, Description: "Too Many Requests: retry after 1", RetryAfter: 1},
		telegramtest.Fault{Code: 500, Description: "Internal Server Error"},
		telegramtest.Fault{Delay: 6 * time.Second}, // longer than RequestTimeout: a timeout
	)
	cfg := testConfig(f)
	cfg.RequestTimeout = 2 * time.Second
	start(t, cfg, testRouter(t), newMemState())
	g := telegramtest.Group(-201)
	f.SayIn(g, ana, "/echo uno")
	f.SayIn(g, ana, "/echo dos")
	got := f.waitSent(g.ID, 2, 10*time.Second)
	time.Sleep(100 * time.Millisecond)
	got = f.SentTo(g.ID)
	if len(got) != 2 || got[0].Visible != "uno" || got[1].Visible != "dos" {
		t.Fatalf("got %+v", got)
	}
	calls := f.CallsOf("sendMessage")
	if gap := calls[1].At.Sub(calls[0].At); gap < time.Second {
		t.Errorf("retry_after not obeyed: retried after %v", gap)
	}
	if len(calls) != 5 {
		t.Errorf("%d sendMessage calls, want 5 (429, 500, timeout, ok, ok)", len(calls))
	}
}

func TestSlowAndHungPollsDoNotStopTheBot(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("getUpdates", telegramtest.Fault{Delay: 10 * time.Second}) // hangs past the client deadline
	cfg := testConfig(f)
	cfg.PollTimeout = time.Second
	cfg.RequestTimeout = 500 * time.Millisecond
	start(t, cfg, testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-202), ana, "/echo despierto")
	if got := f.waitSent(-202, 1, 10*time.Second); got[0].Visible != "despierto" {
		t.Fatalf("got %q", got[0].Visible)
	}
}

func TestHTMLRefusedFallsBackToPlainText(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("sendMessage", telegramtest.Fault{Code: 400, Description: "Bad Request: can't parse entities: unsupported start tag \"x\" at byte offset 0"})
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-203), ana, "/roll 1d6 <x>")
	got := f.waitSent(-203, 1, 5*time.Second)[0]
	if got.Params["parse_mode"] != "" || got.Visible != "🎲 Ana: 1d6 <x> = 1" {
		t.Errorf("fallback sent %q with parse_mode %q", got.Visible, got.Params["parse_mode"])
	}
}

func TestTokenNeverInLogsOrErrors(t *testing.T) {
	// A server that accepts the connection and closes it: every call fails
	// with a transport error whose url.Error would print the token.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	defer ln.Close()
	cfg := Config{Token: fakeToken, APIURL: "http://" + ln.Addr().String(), RequestTimeout: 200 * time.Millisecond,
		BackoffMin: 5 * time.Millisecond, BackoffMax: 20 * time.Millisecond}
	r := start(t, cfg, testRouter(t), newMemState())
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(r.logs.String(), "getMe") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a few retries more
	r.stop(t)
	logs := r.logs.String()
	if !strings.Contains(logs, "getMe") {
		t.Fatalf("expected getMe failures in the log:\n%s", logs)
	}
	if strings.Contains(logs, fakeToken) || strings.Contains(logs, "SECRET") {
		t.Fatalf("token in logs:\n%s", logs)
	}
	c := newClient(cfg.APIURL, cfg.Token, nil)
	_, err = c.call(context.Background(), "sendMessage", map[string]string{"text": "x"}, nil)
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("error %v", err)
	}
	// A refused token ends Run with a clear error, without the token.
	f := newFakeAPIWithToken(t, "other:token")
	a, _ := New(Config{Token: fakeToken, APIURL: f.URL()}, testRouter(t), newMemState(), nil)
	err = a.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("Run with a bad token: %v", err)
	}
}

func TestRunTwiceAndStopTwiceDoNotPanic(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-204), ana, "/echo x")
	f.waitSent(-204, 1, 5*time.Second)
	if err := r.a.Run(context.Background()); err == nil {
		t.Error("second Run did not fail")
	}
	r.stop(t)
	r.stop(t)
	r.cancel()
}

func TestWrongConfigRefused(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{Token: "a/b"},
		{Token: "x", APIURL: "ftp://h"},
		{Token: "x", WebhookURL: "https://h/x"},
		{Token: "x", MaxMessage: 4097},
	} {
		if _, err := New(cfg, testRouter(t), newMemState(), nil); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

func TestProductionDefaultsAreTelegramLimits(t *testing.T) {
	c := Config{Token: "x"}.withDefaults()
	if c.APIURL != "https://api.telegram.org" || c.ChatInterval != time.Second || c.GroupLimit != 20 ||
		c.GroupWindow != time.Minute || c.GlobalLimit != 30 || c.GlobalWindow != time.Second ||
		c.MaxMessage != 4096 || c.DrainTimeout != 8*time.Second || c.PollTimeout != 30*time.Second {
		t.Fatalf("defaults: %+v", c)
	}
	if c.PollTimeout >= c.PollTimeout+c.RequestTimeout || c.RequestTimeout <= 0 {
		t.Fatal("poll deadline must exceed the long-poll timeout")
	}
}

var _ = http.StatusOK

// An update the library cannot decode (here a field of the wrong type) is
// skipped, not fetched forever; the updates around it are answered.
func TestUndecodableUpdateIsSkipped(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-210), ana, "/echo antes")
	f.waitSent(-210, 1, 5*time.Second)
	if _, err := f.PushRaw(`{"message":{"message_id":"not a number","chat":{"id":-210,"type":"group"},"text":"/echo roto"}}`); err != nil {
		t.Fatal(err)
	}
	f.SayIn(telegramtest.Group(-210), ana, "/echo después")
	got := f.waitSent(-210, 2, 5*time.Second)
	if got[1].Visible != "después" {
		t.Fatalf("got %q", got[1].Visible)
	}
}

func TestGroupMigratedToSupergroup(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("sendMessage", telegramtest.Fault{Code: 400, Description: "Bad Request: group chat was upgraded to a supergroup chat", MigrateTo: -1001234})
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-220), ana, "/echo sigo aquí")
	if got := f.waitSent(-1001234, 1, 5*time.Second); got[0].Visible != "sigo aquí" {
		t.Fatalf("got %q", got[0].Visible)
	}
}

func TestBlockedChatIsNotRetried(t *testing.T) {
	f := newFakeAPI(t)
	f.Block(ana.ID)
	r := start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Private(ana), ana, "/echo 1")
	f.SayIn(telegramtest.Private(bob), bob, "/echo 2")
	f.waitSent(bob.ID, 1, 5*time.Second)
	// Ana's chat is sent to in parallel with Bob's: wait for its refused
	// call and its log line, then give a retry the chance to show.
	f.waitCalls("sendMessage", 2, 5*time.Second)
	r.waitLog(t, "telegram reply not deliverable")
	time.Sleep(50 * time.Millisecond)
	if n := len(f.CallsOf("sendMessage")); n != 2 {
		t.Errorf("%d sendMessage calls, want 2 (no retry of a 403)", n)
	}
	r.stop(t)
	if !strings.Contains(r.logs.String(), "telegram reply not deliverable") {
		t.Error("the undeliverable reply was not logged")
	}
}

// Cancelling Run interrupts the long poll at once and the drain is bounded.
func TestStopIsPromptAndDrainBounded(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.PollTimeout = 30 * time.Second
	cfg.ChatInterval = time.Hour // the second reply can never leave
	cfg.DrainTimeout = 300 * time.Millisecond
	r := start(t, cfg, testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-230), ana, "/echo 1")
	f.SayIn(telegramtest.Group(-230), ana, "/echo 2")
	f.waitSent(-230, 1, 5*time.Second)
	t0 := time.Now()
	r.stop(t)
	if took := time.Since(t0); took > 2*time.Second {
		t.Errorf("Run took %v to return", took)
	}
	if !strings.Contains(r.logs.String(), "drain time over") {
		t.Error("the drain timeout was not reported")
	}
}

// TestTokenRedactedInServerErrors: a server (or a proxy in front of it)
// that quotes the request URL in its error bodies puts the token in them;
// every log line carries <token> instead, plain or URL-escaped.
func TestTokenRedactedInServerErrors(t *testing.T) {
	f := newFakeAPI(t)
	quote := func(code int) telegramtest.Fault {
		return telegramtest.Fault{Code: code, Description: "Internal Server Error: POST /bot" + fakeToken + "/x failed (bot" + url.QueryEscape(fakeToken) + ")"}
	}
	f.Inject("getMe", quote(500))
	f.Inject("getUpdates", quote(502))
	f.Inject("setMyCommands", quote(400))
	f.Inject("sendMessage", quote(500), quote(403))
	r := start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-205), ana, "/roll 1d6")
	f.waitCalls("sendMessage", 2, 5*time.Second)
	// Each failure is logged once its answer is read (setMyCommands' in
	// parallel with the polling): wait for every one before the stop,
	// which would cut a call still under way.
	for _, what := range []string{"getMe", "getUpdates", "setMyCommands", "sendMessage"} {
		r.waitLog(t, what, "<token>")
	}
	r.stop(t)
	logs := r.logs.String()
	for _, what := range []string{"getMe", "getUpdates", "setMyCommands", "sendMessage"} {
		if countLog(logs, what, "<token>") == 0 {
			t.Errorf("no %s error with <token> in the log:\n%s", what, logs)
		}
	}
	if strings.Contains(logs, "SECRET") {
		t.Fatalf("token in logs:\n%s", logs)
	}
}

func countLog(logs string, subs ...string) int {
	n := 0
	for _, l := range strings.Split(logs, "\n") {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			n++
		}
	}
	return n
}

// TestKeyboardRefusedSentWithoutIt: a reply whose keyboard Telegram
// refuses ("text buttons are unallowed in the inline keyboard", what one
// button without text gets the whole message) is sent again without the
// keyboard rather than lost, and the log says why.
func TestKeyboardRefusedSentWithoutIt(t *testing.T) {
	f := newFakeAPI(t)
	f.Inject("sendMessage", telegramtest.Fault{Code: 400, Description: "Bad Request: text buttons are unallowed in the inline keyboard"})
	r := start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Group(-219), ana, "/roll 1d6")
	got := f.waitSent(-219, 1, 5*time.Second)[0]
	if got.Visible != "🎲 Ana: 1d6 = 1" || got.Params["reply_markup"] != "" {
		t.Errorf("sent %q with reply_markup %q, want the roll without its keyboard", got.Visible, got.Params["reply_markup"])
	}
	r.waitLog(t, "sending without reply_markup", "text buttons are unallowed")
}

// TestButtonWithoutTextNeverSent: a button without text is left off the
// keyboard (Telegram would refuse the whole message for it); the others
// are sent.
func TestButtonWithoutTextNeverSent(t *testing.T) {
	f := newFakeAPI(t)
	rt := testRouter(t)
	rt.Register(command.Command{Name: "blank", Handler: command.HandlerFunc(
		func(context.Context, *command.Request) (*reply.Reply, error) {
			rep := reply.Text("tray")
			rep.Buttons = []reply.Button{
				{Kind: reply.ButtonPress, Label: " ", Action: &reply.Action{Kind: reply.ActAgain, Command: "/roll d4"}},
				{Kind: reply.ButtonPress, Label: "🎲 d6", Action: &reply.Action{Kind: reply.ActAgain, Command: "/roll d6"}},
			}
			return rep, nil
		})})
	start(t, testConfig(f), rt, newMemState())
	f.SayIn(telegramtest.Group(-220), ana, "/blank")
	got := f.waitSent(-220, 1, 5*time.Second)[0]
	if got.Visible != "tray" || !strings.Contains(got.Params["reply_markup"], "🎲 d6") || strings.Contains(got.Params["reply_markup"], `"text":" "`) {
		t.Errorf("sent %q with keyboard %s, want the d6 button alone", got.Visible, got.Params["reply_markup"])
	}
	if n := f.Calls("sendMessage"); n != 1 {
		t.Errorf("%d sendMessage calls, want 1 (nothing refused)", n)
	}
}
