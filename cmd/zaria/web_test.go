package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram"
	"zaria/adapters/telegram/telegramtest"
	"zaria/adapters/web"
	"zaria/adapters/web/webtest"
	"zaria/configs"
	"zaria/core"
	"zaria/core/command"
	"zaria/storage/sqlite"
)

// webTable is zaria as it runs with the companion: the real router on a
// SQLite file, the real Telegram adapter against the fake Bot API, and the
// web adapter on its own loopback listener; plus a stand-in for
// telegram-web-app.js that hands the page initData signed with the fake
// bot's token.
type webTable struct {
	t     testing.TB
	tg    *telegramtest.Server
	db    *sqlite.DB
	base  string // the companion's URL, ending in /app/
	token string // the bot token

	mu       sync.Mutex
	skew     time.Duration // how far the companion's clock is ahead
	initData string        // what the stand-in script gives the page
	launches int
	stand    *httptest.Server
	web      *web.Adapter
	router   *command.Router
	logs     *bytes.Buffer
}

const (
	webGroup    = int64(-100123) // the table's group
	webOther    = int64(-100999) // another group
	webAna      = int64(42)      // a player of the table
	webBeto     = int64(43)      // another player of the table
	webStranger = int64(77)      // in the other group only
)

func newWebTable(t testing.TB) *webTable {
	t.Helper()
	return newWebTableAt(t, "")
}

// newWebTableAt is newWebTable with web.url set to public (an HTTPS URL
// as in production, which Telegram's web_app buttons require); the page
// is still served on loopback, at w.base.
func newWebTableAt(t testing.TB, public string) *webTable {
	t.Helper()
	return newWebTableCfg(t, func(c *configs.Config) {
		if public != "" {
			c.Web.URL = public
		}
	})
}

// newWebTableCfg is newWebTable with the configuration changed by set.
func newWebTableCfg(t testing.TB, set func(*configs.Config)) *webTable {
	t.Helper()
	tgs, err := telegramtest.New(telegramtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tgs.Close)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := sqlite.Open(ctx, filepath.Join(dir, "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := &webTable{t: t, tg: tgs, db: db, token: tgs.Token(), logs: &bytes.Buffer{}}
	logger := slog.New(slog.NewTextHandler(lockedWriter{w: w.logs, mu: &w.mu}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	router, err := newRouter("es", nil, "", db, logger)
	if err != nil {
		t.Fatal(err)
	}
	w.router = router
	w.stand = httptest.NewServer(http.HandlerFunc(w.standIn))
	t.Cleanup(w.stand.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.base = "http://" + ln.Addr().String() + "/app/"

	cfg := configs.Default()
	cfg.Telegram.Token = tgs.Token()
	cfg.Telegram.APIURL = tgs.URL()
	cfg.Telegram.PollTimeout = time.Second
	cfg.Web.URL = w.base
	cfg.Web.TelegramJS = w.stand.URL + "/telegram-web-app.js"
	cfg.Web.TelegramApp = "mesa"
	set(&cfg)
	tga, err := telegram.New(telegramConfig(cfg.Telegram), router, db, logger)
	if err != nil {
		t.Fatal(err)
	}
	wa, err := newWeb(cfg, router, db, tga, nil, logger, w.now)
	if err != nil {
		t.Fatal(err)
	}
	w.web = wa
	done := make(chan error, 2)
	go func() { done <- tga.Run(ctx) }()
	go func() { done <- wa.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
		db.Close()
		if t.Failed() {
			w.mu.Lock()
			t.Logf("zaria's log:\n%s", w.logs.String())
			w.mu.Unlock()
		}
	})
	for _, u := range []int64{webAna, webBeto} {
		tgs.SetMember(webGroup, u)
	}
	tgs.SetMember(webOther, webStranger)
	return w
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// telegramJS is Telegram's own telegram-web-app.js as the npm package
// @twa-dev/sdk 8.0.2 ships it (src/telegram-web-apps.js, unmodified),
// installed by make test-setup (adapters/web/testdata/clients/setup.sh);
// nil when it is not installed.
func telegramJS(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "adapters", "web", "testdata", "clients", "node_modules", "@twa-dev", "sdk", "src", "telegram-web-apps.js"))
	if err != nil {
		if os.Getenv("ZARIA_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("Telegram's script is not installed (make test-setup): %v", err)
		}
		return nil
	}
	return b
}

// standIn serves Telegram's real telegram-web-app.js when it is installed
// (the page then reads initData from the launch URL's fragment, as in
// Telegram), else a stand-in that gives the page the current initData.
func (w *webTable) standIn(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/telegram-web-app.js" {
		http.NotFound(rw, r)
		return
	}
	rw.Header().Set("Content-Type", "text/javascript")
	if js := telegramJS(w.t); js != nil {
		_, _ = rw.Write(js)
		return
	}
	w.mu.Lock()
	data := w.initData
	w.mu.Unlock()
	q, _ := json.Marshal(data)
	fmt.Fprintf(rw, `window.Telegram = { WebApp: {
  initData: %s, ready: function () {}, expand: function () {}, close: function () { window.zariaClosed = true; },
  HapticFeedback: { selectionChanged: function () {}, impactOccurred: function () {}, notificationOccurred: function () {} }
} };
`, q)
}

// launch is the page's URL as a Telegram client opens it: the launch
// parameters in the fragment (the current initData, Bot API 8.0, the
// client's platform); a query that changes each time makes every launch
// a new page, not a fragment change of the last one.
func (w *webTable) launch(platform string) string {
	w.mu.Lock()
	data := w.initData
	w.launches++
	n := w.launches
	w.mu.Unlock()
	return w.base + "?launch=" + strconv.Itoa(n) + "#tgWebAppData=" + url.QueryEscape(data) +
		"&tgWebAppVersion=8.0&tgWebAppPlatform=" + platform
}

// waitSent waits for a message in chat whose visible text matches re.
func (w *webTable) waitSent(chat int64, re string) telegramtest.Sent {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range w.tg.SentTo(chat) {
			if rx.MatchString(m.Visible) {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	var seen []string
	for _, m := range w.tg.SentTo(chat) {
		seen = append(seen, m.Visible)
	}
	w.t.Fatalf("no message in %d matches %q; sent: %q", chat, re, seen)
	return telegramtest.Sent{}
}

// chatToken asks /app in chat as user and returns the startapp token of
// the Mini App's direct link under the bot's answer (a url button).
func (w *webTable) chatToken(chat, user int64, name string) string {
	w.t.Helper()
	w.tg.Say(chat, user, name, "es", "/ficha")
	m := w.waitSent(chat, `Tu ficha y tus dados en el móvil`)
	b := appButtonOf(w.t, m)
	re := regexp.MustCompile(`^https://t\.me/ZariaTestBot/mesa\?startapp=([A-Za-z0-9_-]{22})$`)
	sub := re.FindStringSubmatch(b.URL)
	if sub == nil || b.WebApp != nil {
		w.t.Fatalf("/ficha answered %q with the button %+v, not a url button to the Mini App's direct link", m.Visible, b)
	}
	return sub[1]
}

// appButton is the one inline button under /app's answer.
type appButton struct {
	Text   string `json:"text"`
	URL    string `json:"url"`
	WebApp *struct {
		URL string `json:"url"`
	} `json:"web_app"`
}

func appButtonOf(t testing.TB, m telegramtest.Sent) appButton {
	t.Helper()
	var kb struct {
		Rows [][]appButton `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(m.Params["reply_markup"]), &kb); err != nil || len(kb.Rows) != 1 || len(kb.Rows[0]) != 1 {
		t.Fatalf("%q has the keyboard %q, want one button (%v)", m.Visible, m.Params["reply_markup"], err)
	}
	return kb.Rows[0][0]
}

// initDataFor is initData as Telegram signs it for user opening the Mini
// App from a link with startParam, signedAt.
func (w *webTable) initDataFor(user int64, name, startParam string, signedAt time.Time) string {
	w.t.Helper()
	u, _ := json.Marshal(map[string]any{"id": user, "first_name": name, "language_code": "es"})
	v := url.Values{"user": {string(u)}, "auth_date": {strconv.FormatInt(signedAt.Unix(), 10)},
		"chat_type": {"supergroup"}, "chat_instance": {"-55"}, "signature": {"c2ln"}}
	if startParam != "" {
		v.Set("start_param", startParam)
	}
	s, err := webtest.Sign(v.Encode(), w.token)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// now is the companion's clock: the real one, moved on by later.
func (w *webTable) now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return time.Now().Add(w.skew)
}

// afterPage is how long a test waits after a page action before the
// same user types in the chat, once the burst of 5 is spent: the allowance
// gives one command each 2 s, and Telegram dates a message in whole
// seconds (the limit counts when it was sent), so a message typed 2.1 s
// after the page's command can read as 1.1 s.
const afterPage = 3100 * time.Millisecond

// later moves the companion's clock on by d.
func (w *webTable) later(d time.Duration) {
	w.mu.Lock()
	w.skew += d
	w.mu.Unlock()
}

func (w *webTable) setInitData(s string) {
	w.mu.Lock()
	w.initData = s
	w.mu.Unlock()
}

// call makes one request to the companion with the given Authorization.
func (w *webTable) call(method, path, auth, body string) (int, string, http.Header) {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, w.base+path, rd)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// do runs one page action and decodes the answer.
func (w *webTable) do(auth, tok string, action map[string]any) (int, webAnswer) {
	w.t.Helper()
	b, _ := json.Marshal(action)
	code, body, _ := w.call("POST", "c/"+tok+"/do", auth, string(b))
	var a webAnswer
	if code == 200 {
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			w.t.Fatalf("answer %q: %v", body, err)
		}
	}
	return code, a
}

type webAnswer struct {
	Lines [][]struct {
		T string `json:"t"`
		S string `json:"s"`
	} `json:"lines"`
	Error  bool   `json:"error"`
	Posted bool   `json:"posted"`
	Note   string `json:"note"`
}

func (a webAnswer) text() string {
	var b strings.Builder
	for i, l := range a.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, s := range l {
			b.WriteString(s.T)
		}
	}
	return b.String()
}

// sheetValue reads a value of a character from the database.
func (w *webTable) sheetValue(chat int64, char, name string) (string, bool) {
	w.t.Helper()
	list, err := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(chat, 10)})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, c := range list {
		if c.Name == char {
			for _, v := range c.Values {
				if strings.EqualFold(v.Name, name) {
					return v.Text, true
				}
			}
			return "", false
		}
	}
	return "", false
}

func TestWebSheetsAndRollThroughTheChat(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())

	code, body, _ := w.call("POST", "api/hello", ana, "")
	if code != 200 || !strings.Contains(body, tok) {
		t.Fatalf("hello: %d %s", code, body)
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "create", "name": "Drake"}); code != 200 || a.Error || !strings.Contains(a.text(), "Drake") {
		t.Fatalf("create: %d %+v", code, a)
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "set", "char": "Drake", "name": "fuerza", "value": "4"}); code != 200 || a.Error {
		t.Fatalf("set: %d %+v", code, a)
	}
	if v, _ := w.sheetValue(webGroup, "Drake", "fuerza"); v != "4" {
		t.Fatalf("fuerza stored as %q, want 4", v)
	}
	// The sheet screen shows it, with steppers for its owner.
	code, page, _ := w.call("GET", "c/"+tok+"/s/sheets", ana, "")
	if code != 200 || !strings.Contains(page, "Drake") || !strings.Contains(page, `value="4"`) || !strings.Contains(page, `data-delta="1"`) {
		t.Fatalf("sheets screen: %d\n%s", code, page)
	}

	// Beto, a player of the same table who is not a GM, may read Drake
	// but not change it: the core's rule, the chat's message.
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, time.Now())
	code, a := w.do(beto, tok, map[string]any{"op": "set", "char": "Drake", "name": "fuerza", "value": "9"})
	if code != 200 || !a.Error {
		t.Fatalf("Beto edited Ana's character: %d %+v", code, a)
	}
	if v, _ := w.sheetValue(webGroup, "Drake", "fuerza"); v != "4" {
		t.Fatalf("fuerza is %q after Beto's refused edit, want 4", v)
	}

	// Rename and delete: Beto may not, Ana may, and the page says what
	// the chat would.
	if code, a := w.do(beto, tok, map[string]any{"op": "delete", "char": "Drake"}); code != 200 || !a.Error {
		t.Fatalf("Beto deleted Ana's character: %d %+v", code, a)
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "create", "name": "Tmp"}); code != 200 || a.Error {
		t.Fatalf("create Tmp: %d %+v", code, a)
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "rename", "char": "Tmp", "name": "Otro"}); code != 200 || a.Error || !strings.Contains(a.text(), "Otro") {
		t.Fatalf("rename: %d %+v", code, a)
	}
	time.Sleep(2100 * time.Millisecond) // Ana's allowance: 5 at once, then one each 2 s
	if code, a := w.do(ana, tok, map[string]any{"op": "delete", "char": "Otro"}); code != 200 || a.Error {
		t.Fatalf("delete: %d %+v", code, a)
	}
	if list, _ := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}); len(list) != 1 || list[0].Name != "Drake" {
		t.Fatalf("characters after rename and delete: %+v", list)
	}
	// Tmp was her active character (a new one is): Drake again.
	time.Sleep(2100 * time.Millisecond)
	if code, a := w.do(ana, tok, map[string]any{"op": "use", "char": "Drake"}); code != 200 || a.Error {
		t.Fatalf("use: %d %+v", code, a)
	}
	time.Sleep(2100 * time.Millisecond)

	// A roll: posted in the group by the Telegram adapter, and the page
	// gets that same result.
	code, a = w.do(ana, tok, map[string]any{"op": "roll", "n": 1, "sides": 20, "mod": 3})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("roll: %d %+v", code, a)
	}
	m := w.waitSent(webGroup, `📱 Ana: /tirar 1d20\+3`)
	pageResult := a.text()
	for _, line := range strings.Split(pageResult, "\n") {
		if !strings.Contains(m.Visible, line) {
			t.Errorf("the page shows %q, the chat got %q", pageResult, m.Visible)
		}
	}
	// Commands from the page count against Ana's allowance as typed ones
	// do (a burst of 5, then one every 2 s): asked at once, the odds are
	// soon refused with the chat's message.
	limited := false
	for range 8 {
		_, odds := w.do(ana, tok, map[string]any{"op": "odds", "n": 2, "sides": 6})
		if odds.Error && strings.Contains(odds.text(), "2 s") {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("8 odds at once were all answered: the rate limit does not apply to the page")
	}
	time.Sleep(2100 * time.Millisecond)
	// The odds of a system check with a named difficulty.
	code, odds := w.do(ana, tok, map[string]any{"op": "odds", "form": "zaria.check", "fields": map[string]string{"mod": "fuerza", "dc": "15"}})
	if code != 200 || odds.Error || !strings.Contains(odds.text(), "%") {
		t.Fatalf("odds: %d %+v", code, odds)
	}
	time.Sleep(2100 * time.Millisecond)
	code, a = w.do(ana, tok, map[string]any{"op": "roll", "form": "zaria.check", "fields": map[string]string{"mod": "fuerza", "dc": "15"}})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("check: %d %+v", code, a)
	}
	w.waitSent(webGroup, `📱 Ana: /zaria fuerza dc15`)
}

func TestWebRefusals(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	otherTok := w.chatToken(webOther, webStranger, "Zoe")
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	if code, _ := w.do(ana, tok, map[string]any{"op": "create", "name": "Drake"}); code != 200 {
		t.Fatal("create refused")
	}
	sheets := "c/" + tok + "/s/sheets"

	forged, _ := url.ParseQuery(strings.TrimPrefix(ana, "tma "))
	forged.Set("user", `{"id":43,"first_name":"Ana","language_code":"es"}`)
	reordered, _ := url.ParseQuery(strings.TrimPrefix(ana, "tma "))
	reordered.Set("user", `{"id":42,"first_name":"Ana","language_code":"es"}`) // signed as first_name, id, language_code
	cases := []struct {
		name, method, path, auth string
		want                     int
	}{
		{"no credentials", "GET", sheets, "", 401},
		{"another scheme", "GET", sheets, "Basic YTpi", 401},
		{"replayed after its age", "GET", sheets, "tma " + w.initDataFor(webAna, "Ana", tok, now.Add(-61*time.Minute)), 401},
		{"forged user", "GET", sheets, "tma " + forged.Encode(), 401},
		{"user's fields reordered", "GET", sheets, "tma " + reordered.Encode(), 401},
		{"signed by another bot", "GET", sheets, "tma " + mustSign(t, strings.TrimPrefix(ana, "tma "), "999:OTHER"), 401},
		{"start_param of a chat zaria never issued", "GET", "c/AAAAAAAAAAAAAAAAAAAAAA/s/sheets", "tma " + w.initDataFor(webAna, "Ana", "AAAAAAAAAAAAAAAAAAAAAA", now), 403},
		{"start_param of another chat she is not in", "GET", "c/" + otherTok + "/s/sheets", "tma " + w.initDataFor(webAna, "Ana", otherTok, now), 403},
		{"another chat's token in the path", "GET", "c/" + otherTok + "/s/sheets", ana, 403},
		{"another chat's token in the path of a write", "POST", "c/" + otherTok + "/do", ana, 403},
		{"a stranger with this chat's link", "GET", sheets, "tma " + w.initDataFor(webStranger, "Zoe", tok, now), 403},
		{"a bogus session", "GET", sheets, "Bearer abc.def", 401},
	}
	for _, c := range cases {
		body := ""
		if c.method == "POST" {
			body = `{"op":"delete","char":"Drake"}`
		}
		if code, got, _ := w.call(c.method, c.path, c.auth, body); code != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, code, got, c.want)
		}
	}
	if _, ok := w.sheetValue(webGroup, "Drake", "x"); !ok {
		list, _ := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)})
		if len(list) != 1 {
			t.Errorf("Drake is gone after the refused requests: %+v", list)
		}
	}

	// Bad input: refused with 400 or 413, nothing changes, nothing crashes.
	for _, body := range []string{
		``, `{`, `[]`, `{"op":"create"}`, `{"op":"create","name":"two words"}`,
		`{"op":"create","name":"x\ny"}`, `{"op":"create","name":"/roll"}`, `{"op":"launch"}`,
		`{"op":"set","char":"Drake","name":"fuerza","value":"4\n/pj delete Drake"}`,
		`{"op":"roll","n":1000,"sides":20}`, `{"op":"roll","n":1,"sides":7}`, `{"op":"roll","form":"dnd.check","fields":{"x":"3"}}`, `{"op":"roll","form":"zaria.check","fields":{"mod":"fuerza dc5"}}`,
		`{"op":"create","name":"Eva","extra":1}`, `{"op":"create","name":"Eva"}{"op":"create","name":"Fin"}`,
		`{"op":"create","name":"` + strings.Repeat("a", 70) + `"}`, `{"op":"create","name":"a\u202eb"}`,
	} {
		if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("body %.60q: %d %q, want 400", body, code, got)
		}
	}
	if code, _, _ := w.call("POST", "c/"+tok+"/do", ana, `{"op":"create","name":"`+strings.Repeat("a", 8000)+`"}`); code != 413 {
		t.Errorf("an 8 KB body: %d, want 413", code)
	}
	list, _ := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)})
	if len(list) != 1 || list[0].Name != "Drake" || len(list[0].Values) != 0 {
		t.Errorf("bad input changed the chat: %+v", list)
	}
}

func mustSign(t *testing.T, signed, token string) string {
	v, _ := url.ParseQuery(signed)
	v.Del("hash")
	s, err := webtest.Sign(v.Encode(), token)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWebHeadersAndEscaping(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	// A player whose Telegram name is markup, quotes and a right-to-left
	// override, and a value text that is a script.
	evil := "<script>alert(1)</script>\"'\u202e"
	w.tg.SetMember(webGroup, 50)
	auth := "tma " + w.initDataFor(50, evil, tok, time.Now())
	if code, a := w.do(auth, tok, map[string]any{"op": "create", "name": "Mira"}); code != 200 || a.Error {
		t.Fatalf("create: %d %+v", code, a)
	}
	if code, a := w.do(auth, tok, map[string]any{"op": "set", "char": "Mira", "name": "lema", "value": `"><script>alert(2)</script>`}); code != 200 || a.Error {
		t.Fatalf("set: %d %+v", code, a)
	}
	for _, path := range []string{"", "c/" + tok + "/s/sheets", "c/" + tok + "/s/dice", "static/app.js"} {
		a := auth
		if path == "" {
			a = ""
		}
		code, body, h := w.call("GET", path, a, "")
		if code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self' " + w.stand.URL, "frame-ancestors https://web.telegram.org", "default-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP allows %q", path, csp)
		}
		if h.Get("Referrer-Policy") != "no-referrer" || h.Get("Set-Cookie") != "" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", path, h)
		}
		if strings.Contains(body, "<script>alert") {
			t.Errorf("%s: unescaped script in the page", path)
		}
		if strings.HasSuffix(path, "sheets") {
			if !strings.Contains(body, "&lt;script&gt;alert(1)") || !strings.Contains(body, "&lt;script&gt;alert(2)") {
				t.Errorf("sheets: the name and the value are not shown escaped:\n%s", body)
			}
		}
		if strings.Contains(body, "<script>") && path != "" {
			t.Errorf("%s: an inline script", path)
		}
	}
	// The shell has no inline script either: only <script src>.
	_, shell, _ := w.call("GET", "", "", "")
	if regexp.MustCompile(`<script>[^<]`).MatchString(shell) || strings.Contains(shell, " on") && regexp.MustCompile(` on[a-z]+=`).MatchString(shell) {
		t.Errorf("the shell has inline script:\n%s", shell)
	}
}

// TestWebPadAndSavedRolls: the player's pad and saved rolls, made in the
// chat, are big buttons on the dice screen; a press rolls in the chat as
// the chat's own pad does, and a button that lacks a value offers its
// choices first.
func TestWebPadAndSavedRolls(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webBeto, "Beto") // Beto's allowance, not Ana's
	for _, cmd := range []string{`/pad add "Dado" 1d20+5`, `/pad add /daegon 7 {difficulty}`, `/alias golpe /roll 2d6+1`} {
		time.Sleep(2100 * time.Millisecond) // Ana's allowance
		w.tg.Say(webGroup, webAna, "Ana", "en", cmd)
	}
	w.waitSent(webGroup, `💾 /golpe`)
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	code, page, _ := w.call("GET", "c/"+tok+"/s/dice", ana, "")
	if code != 200 || !strings.Contains(page, "Dado") || !strings.Contains(page, `data-alias="golpe"`) {
		t.Fatalf("dice screen: %d\n%s", code, page)
	}
	ids := regexp.MustCompile(`data-button="(\d+)"`).FindAllStringSubmatch(page, -1)
	if len(ids) != 2 {
		t.Fatalf("pad buttons on the page: %v", ids)
	}
	time.Sleep(2100 * time.Millisecond)
	b1, _ := strconv.ParseInt(ids[0][1], 10, 64)
	code, a := w.do(ana, tok, map[string]any{"op": "pad", "button": b1})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("pad press: %d %+v", code, a)
	}
	w.waitSent(webGroup, `📱 Ana: /roll 1d20\+5`)
	// The button that asks for the difficulty: its choices, then a roll.
	time.Sleep(2100 * time.Millisecond)
	b2, _ := strconv.ParseInt(ids[1][1], 10, 64)
	code, body, _ := w.call("POST", "c/"+tok+"/do", ana, fmt.Sprintf(`{"op":"pad","button":%d}`, b2))
	var asked struct {
		Choices []struct {
			Label  string   `json:"label"`
			Button int64    `json:"button"`
			Values []string `json:"values"`
		} `json:"choices"`
		Posted bool `json:"posted"`
	}
	if code != 200 || json.Unmarshal([]byte(body), &asked) != nil || len(asked.Choices) < 3 || asked.Posted {
		t.Fatalf("a button lacking its difficulty: %d %s", code, body)
	}
	time.Sleep(2100 * time.Millisecond)
	c := asked.Choices[2]
	code, a = w.do(ana, tok, map[string]any{"op": "pad", "button": c.Button, "values": c.Values})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("the choice %q: %d %+v", c.Label, code, a)
	}
	w.waitSent(webGroup, `📱 Ana: /daegon 7 `+regexp.QuoteMeta(c.Values[0]))
	time.Sleep(2100 * time.Millisecond)
	code, a = w.do(ana, tok, map[string]any{"op": "alias", "name": "golpe"})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("saved roll: %d %+v", code, a)
	}
	w.waitSent(webGroup, `📱 Ana: /roll 2d6\+1`)
	// Beto may not press Ana's personal button.
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, time.Now())
	time.Sleep(2100 * time.Millisecond)
	if code, a := w.do(beto, tok, map[string]any{"op": "pad", "button": b1}); code != 200 || a.Posted {
		t.Errorf("Beto pressed Ana's button: %d %+v", code, a)
	}
}
