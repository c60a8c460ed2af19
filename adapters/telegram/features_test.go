package telegram

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
)

func TestSecretRollGoesToRollerAndGMs(t *testing.T) {
	f := newFakeAPI(t)
	const group = -600
	f.SetAdmins(group, ana.ID, nikos.ID)
	f.Block(nikos.ID) // never pressed Start
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(group)
	id := f.SayIn(g, bob, "/secreto 1d20")

	toBob := f.waitSent(bob.ID, 1, 5*time.Second)[0]
	toAna := f.waitSent(ana.ID, 1, 5*time.Second)[0]
	inGroup := f.waitSent(group, 2, 5*time.Second)
	// Bob's client is English, so the new chat speaks English (issue 12).
	wantPrivate := "🔒 In “Mesa 600”\nSecret roll by Bob:\n🎲 Bob: 1d20 = 1"
	for _, m := range []telegramtest.Sent{toBob, toAna} {
		if m.Visible != wantPrivate {
			t.Errorf("private message to %d:\n%q\nwant\n%q", m.Chat, m.Visible, wantPrivate)
		}
		if m.Params["reply_markup"] != "" {
			t.Errorf("private secret result has buttons")
		}
	}
	if inGroup[0].Visible != "🤫 Bob rolled in secret." || inGroup[0].ReplyTo == 0 {
		t.Errorf("group notice %q", inGroup[0].Visible)
	}
	if want := "⚠️ I can't message Admin502 privately: open a private chat with @ZariaTestBot and press Start."; inGroup[1].Visible != want {
		t.Errorf("group hint %q\nwant %q", inGroup[1].Visible, want)
	}
	for _, m := range inGroup {
		if strings.Contains(m.Visible, "= 1") {
			t.Errorf("the result leaked into the group: %q", m.Visible)
		}
	}
	_ = id
	// In a private chat the result is simply the reply.
	f.SayIn(telegramtest.Private(ana), ana, "/gmroll 1d4")
	got := f.waitSent(ana.ID, 2, 5*time.Second)[1]
	if !strings.HasSuffix(got.Visible, "🎲 Ana: 1d4 = 2") {
		t.Errorf("private gmroll: %q", got.Visible)
	}
}

// A GM named with /gm add (not a Telegram admin) gets the secret too.
func TestSecretRollReachesNamedGMs(t *testing.T) {
	f := newFakeAPI(t)
	const group = -601
	f.SetAdmins(group, ana.ID)
	named := func(_ context.Context, chat core.ChatRef) ([]string, error) {
		if chat.ID != strconv.Itoa(group) {
			return nil, nil
		}
		return []string{strconv.FormatInt(nikos.ID, 10), "not-a-telegram-id"}, nil
	}
	start(t, testConfig(f), testRouterWith(t, named), newMemState())
	f.SayIn(telegramtest.Group(group), bob, "/secreto 1d20")
	for _, to := range []int64{bob.ID, ana.ID, nikos.ID} {
		if m := f.waitSent(to, 1, 5*time.Second)[0]; !strings.Contains(m.Visible, "Secret roll by Bob") {
			t.Errorf("private message to %d: %q", to, m.Visible)
		}
	}
}

// TestInlineQueryOffersPlaceholder: an inline query is answered with a
// placeholder that shows who is about to roll what, never a result (a
// player could retype until the number pleased them); nothing is rolled.
func TestInlineQueryOffersPlaceholder(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: "q1", From: nikos.API(), Query: "4d6kh3"}})
	f.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: "q2", From: ana.API(), Query: "echo <hola>"}})
	f.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: "q3", From: ana.API(), Query: "  "}})
	calls := f.waitCalls("answerInlineQuery", 3, 5*time.Second)
	byID := map[string]telegramtest.Call{}
	for _, c := range calls {
		byID[c.Params["inline_query_id"]] = c
		if c.Params["cache_time"] != "0" || c.Params["is_personal"] != "true" {
			t.Errorf("%s: cache_time %q is_personal %q", c.Params["inline_query_id"], c.Params["cache_time"], c.Params["is_personal"])
		}
	}
	type result struct {
		Title, Description string
		Content            tgbotapi.InputTextMessageContent `json:"input_message_content"`
		Markup             *tgbotapi.InlineKeyboardMarkup   `json:"reply_markup"`
	}
	article := func(id string) []result {
		var rs []result
		if err := json.Unmarshal([]byte(byID[id].Params["results"]), &rs); err != nil {
			t.Fatal(err)
		}
		return rs
	}
	r1 := article("q1")
	if len(r1) != 1 || r1[0].Title != "🎲 Ρίξε 4d6kh3" || strings.Contains(r1[0].Description, "=") {
		t.Fatalf("q1 results %+v", r1)
	}
	if c := r1[0].Content; c.ParseMode != "HTML" || c.Text != "🎲 Ρίψη σε λίγο (Νίκος): <code>4d6kh3</code>" {
		t.Errorf("q1 content %+v", c)
	}
	if m := r1[0].Markup; m == nil || len(m.InlineKeyboard) != 1 {
		t.Errorf("q1 has no button (Telegram then gives no inline_message_id): %+v", m)
	}
	r2 := article("q2")
	if len(r2) != 1 || !strings.Contains(r2[0].Content.Text, "<code>echo &lt;hola&gt;</code>") {
		t.Errorf("q2 results %+v", r2)
	}
	if r3 := article("q3"); len(r3) != 0 {
		t.Errorf("empty query answered with %+v", r3)
	}
	if n := len(f.Sent()); n != 0 {
		t.Errorf("inline queries sent %d messages", n)
	}
}

func TestCommandMenuPublishedPerLanguage(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	// The fake records a call before it stores the menu: wait for the menus.
	var published map[string]string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		published = f.Commands()
		if len(published) == 4 || time.Now().After(deadline) {
			break
		}
	}
	menus := map[string]map[string]string{}
	for lang, raw := range published {
		var cmds []tgbotapi.BotCommand
		if err := json.Unmarshal([]byte(raw), &cmds); err != nil {
			t.Fatal(err)
		}
		menus[lang] = map[string]string{}
		for _, c := range cmds {
			menus[lang][c.Command] = c.Description
		}
	}
	want := map[string]string{
		// Each menu names the language's own aliases and no "!" alias,
		// which never reaches a bot in privacy mode (issue 12).
		"es": "cualquier tirada (también /tirar y /r)",
		"el": "οποιαδήποτε ζάρια (και /r)",
		"en": "any dice (also /r)",
		"":   "cualquier tirada (también /tirar y /r)", // the test config's default language is es
	}
	for lang, d := range want {
		if menus[lang]["roll"] != d {
			t.Errorf("menu %q: roll = %q, want %q", lang, menus[lang]["roll"], d)
		}
		if _, ok := menus[lang]["start"]; ok {
			t.Errorf("menu %q lists the hidden /start", lang)
		}
	}
	// Each menu names a command as the language's /help does (Spanish
	// /ayuda, /secreto), so a tap sends the name the group reads.
	for lang, names := range map[string][]string{
		"es": {"ayuda", "idioma", "secreto"}, "": {"ayuda", "idioma", "secreto"},
		"en": {"help", "lang", "gmroll", "settings"}, "el": {"help", "lang", "gmroll", "settings"},
	} {
		for _, n := range names {
			if _, ok := menus[lang][n]; !ok {
				t.Errorf("menu %q lacks /%s: %v", lang, n, menus[lang])
			}
		}
	}
	if _, ok := menus["es"]["gmroll"]; ok {
		t.Errorf("the Spanish menu lists /gmroll beside /secreto")
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestWebhookChecksSecretAndNeverAnswersTwice(t *testing.T) {
	f := newFakeAPI(t)
	cfg := testConfig(f)
	addr := freePort(t)
	cfg.WebhookListen = addr
	cfg.WebhookURL = "http://" + addr + "/tg/hook"
	cfg.WebhookSecret = "s3cret-Token_1"
	start(t, cfg, testRouter(t), newMemState())
	set := f.waitCalls("setWebhook", 1, 5*time.Second)[0]
	if set.Params["url"] != cfg.WebhookURL || set.Params["secret_token"] != cfg.WebhookSecret {
		t.Fatalf("setWebhook %v", set.Params)
	}
	upd, _ := json.Marshal(tgbotapi.Update{UpdateID: 77, Message: &tgbotapi.Message{MessageID: 5, From: ana.API(), Chat: telegramtest.Group(-700), Text: "/echo por webhook"}})
	post := func(method, secret, body string) int {
		req, _ := http.NewRequest(method, cfg.WebhookURL, strings.NewReader(body))
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		method, secret, body string
		want                 int
	}{
		{"POST", "", string(upd), 401},
		{"POST", "wrong", string(upd), 401},
		{"GET", cfg.WebhookSecret, "", 405},
		{"POST", cfg.WebhookSecret, "{not json", 400},
		{"POST", cfg.WebhookSecret, string(upd), 200},
		{"POST", cfg.WebhookSecret, string(upd), 200}, // Telegram's retry
	} {
		if got := post(c.method, c.secret, c.body); got != c.want {
			t.Errorf("%s secret=%q: %d, want %d", c.method, c.secret, got, c.want)
		}
	}
	got := f.waitSent(-700, 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	if got = f.SentTo(-700); len(got) != 1 || got[0].Visible != "por webhook" {
		t.Fatalf("webhook replies %+v", got)
	}
	if n := len(f.CallsOf("getUpdates")); n != 0 {
		t.Errorf("getUpdates called %d times in webhook mode", n)
	}
}

// TestCoreWithoutOptionalCapabilities: the adapter asks the core only for
// its Dispatcher; the command menu, a document's text and the recent
// rolls are optional capabilities, checked at run time. A core without
// them still answers commands, and no menu is published.
func TestCoreWithoutOptionalCapabilities(t *testing.T) {
	f := newFakeAPI(t)
	bare := struct{ Dispatcher }{testRouter(t)}
	if _, ok := any(bare).(menuLister); ok {
		t.Fatal("the bare core lists a menu: the test checks nothing")
	}
	start(t, testConfig(f), bare, newMemState())
	ana := telegramtest.User{ID: 501, Name: "Ana"}
	f.SayIn(telegramtest.Group(-292), ana, "/echo hola")
	if got := f.waitSent(-292, 1, 5*time.Second); got[0].Visible != "hola" {
		t.Errorf("the group got %+v, want hola", got)
	}
	time.Sleep(200 * time.Millisecond)
	if n := f.Calls("setMyCommands"); n != 0 {
		t.Errorf("a core without a menu had %d menus published", n)
	}
}

// TestLinkButtonDrawnByChat: a reply's link button (reply.ActLink, /app's)
// goes through the reply path like any reply, in reply to the command: a
// url button to its URL in a group, a web_app button to its App page in
// a private chat; nothing is kept for it, and the Bot API takes both.
func TestLinkButtonDrawnByChat(t *testing.T) {
	f := newFakeAPI(t)
	r := testRouter(t)
	const direct, page = "https://t.me/ZariaTestBot/mesa?startapp=tok", "https://zaria.example/app/"
	r.Register(command.Command{Name: "abrir", Handler: command.HandlerFunc(
		func(_ context.Context, req *command.Request) (*reply.Reply, error) {
			rep := reply.Text("Tu ficha")
			rep.Buttons = []reply.Button{{Label: "📱 Abrir", Action: &reply.Action{Kind: reply.ActLink, URL: direct, App: page}}}
			return rep, nil
		})})
	st := newMemState()
	start(t, testConfig(f), r, st)
	ana := telegramtest.User{ID: 501, Name: "Ana"}
	for _, c := range []struct {
		chat *tgbotapi.Chat
		want string
	}{
		{telegramtest.Group(-293), `{"inline_keyboard":[[{"text":"📱 Abrir","url":"` + direct + `"}]]}`},
		{telegramtest.Private(ana), `{"inline_keyboard":[[{"text":"📱 Abrir","web_app":{"url":"` + page + `"}}]]}`},
	} {
		id := f.SayIn(c.chat, ana, "/abrir")
		got := f.waitSent(c.chat.ID, 1, 5*time.Second)[0]
		if got.Visible != "Tu ficha" || got.ReplyTo != id || got.Params["reply_markup"] != c.want {
			t.Errorf("chat %d got %q replying to %d with %s, want %s replying to %d", c.chat.ID, got.Visible, got.ReplyTo, got.Params["reply_markup"], c.want, id)
		}
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("the Bot API refused %q", bad)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for k := range st.m {
		if strings.Contains(k, ".b.") {
			t.Errorf("a record %s kept for a link button", k)
		}
	}
}

// silentOdds is a core that has nothing to show for a 📊 press (as when
// the presser's flood was already warned), and counts the presses.
type silentOdds struct {
	Dispatcher
	presses atomic.Int32
}

func (s *silentOdds) Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool) {
	if a.Kind == reply.ActOdds {
		s.presses.Add(1)
		return nil, false
	}
	return s.Dispatcher.Press(ctx, msg, a)
}

// TestOddsPressAnsweredByTheCore: 📊 is answered with what the core's
// Press answers, never by the adapter alone: a core with nothing to show
// gets asked at each press, and the press only stops its spinner — no
// odds line, no edit, no message.
func TestOddsPressAnsweredByTheCore(t *testing.T) {
	f := newFakeAPI(t)
	core := &silentOdds{Dispatcher: testRouter(t)}
	start(t, testConfig(f), core, newMemState())
	g := telegramtest.Group(-294)
	f.SayIn(g, ana, "/roll 3d6 vs 12")
	m := f.waitSent(g.ID, 1, 5*time.Second)[0]
	odds := *keyboardOf(t, m)[0][1].CallbackData
	f.Press(m, ana, odds)
	f.Press(m, ana, odds)
	calls := f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	time.Sleep(200 * time.Millisecond)
	if n := core.presses.Load(); n != 2 {
		t.Errorf("the core was asked %d times for 2 presses of 📊", n)
	}
	for _, c := range calls {
		if c.Params["text"] != "" {
			t.Errorf("a press the core had nothing for toasted %q", c.Params["text"])
		}
	}
	if n := f.Calls("editMessageText"); n != 0 || len(f.SentTo(g.ID)) != 1 {
		t.Errorf("a press the core had nothing for made %d edits and %d messages", n, len(f.SentTo(g.ID))-1)
	}
}
