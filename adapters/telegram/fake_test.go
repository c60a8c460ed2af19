package telegram

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// fakeAPI is an in-process Bot API server with real long polling and
// offset semantics. It records every call and can inject errors and delays.
type fakeAPI struct {
	t     testing.TB
	srv   *httptest.Server
	token string
	bot   tgbotapi.User

	mu       sync.Mutex
	cond     *sync.Cond // signalled on new updates, sends and close
	closed   bool
	nextUpd  int
	updates  []json.RawMessage // not yet confirmed
	nextMsg  int
	sent     []sentMsg
	calls    []call
	faults   map[string][]fault
	admins   map[int64][]int64
	blocked  map[int64]bool // users who never started the bot
	files    map[string][]byte
	pollGen  int // the newest getUpdates; older ones get 409
	webhook  string
	whSecret string
	commands map[string]string // language_code → commands JSON
	maxLen   int
}

type call struct {
	Method string
	Params map[string]string
	At     time.Time
}

type sentMsg struct {
	ID      int
	Chat    int64
	Method  string
	Text    string // as sent (HTML)
	Params  map[string]string
	Doc     []byte
	At      time.Time
	Visible string // text after entity parsing
}

// fault is an injected answer: an error status, or a delay before the
// normal answer.
type fault struct {
	code       int
	desc       string
	retryAfter int
	migrateTo  int64
	delay      time.Duration
}

const fakeToken = "123456:SECRET-token_ABCdef"

func newFakeAPI(t testing.TB) *fakeAPI {
	f := &fakeAPI{
		t: t, token: fakeToken,
		bot:      tgbotapi.User{ID: 4242, IsBot: true, FirstName: "Zaria", UserName: "ZariaTestBot"},
		nextUpd:  1000,
		nextMsg:  1,
		faults:   map[string][]fault{},
		admins:   map[int64][]int64{},
		blocked:  map[int64]bool{},
		files:    map[string][]byte{},
		commands: map[string]string{},
		maxLen:   4096,
	}
	f.cond = sync.NewCond(&f.mu)
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.close)
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL }

func (f *fakeAPI) close() {
	f.mu.Lock()
	f.closed = true
	f.cond.Broadcast()
	f.mu.Unlock()
	f.srv.CloseClientConnections()
	f.srv.Close()
}

// inject queues faults for the next calls of method.
func (f *fakeAPI) inject(method string, fs ...fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[method] = append(f.faults[method], fs...)
}

var methodRE = regexp.MustCompile(`^/bot([^/]+)/([A-Za-z]+)$`)
var fileRE = regexp.MustCompile(`^/file/bot([^/]+)/(.+)$`)

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	if m := fileRE.FindStringSubmatch(r.URL.Path); m != nil {
		f.mu.Lock()
		data, ok := f.files[m[2]]
		f.mu.Unlock()
		if m[1] != f.token || !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data)
		return
	}
	m := methodRE.FindStringSubmatch(r.URL.Path)
	if m == nil {
		f.reply(w, 404, "Not Found", nil)
		return
	}
	if m[1] != f.token {
		f.reply(w, 401, "Unauthorized", nil)
		return
	}
	method := m[2]
	params, doc := f.params(r)
	f.mu.Lock()
	f.calls = append(f.calls, call{Method: method, Params: params, At: time.Now()})
	var ft *fault
	if q := f.faults[method]; len(q) > 0 {
		ft = &q[0]
		f.faults[method] = q[1:]
	}
	f.mu.Unlock()
	if ft != nil {
		if ft.delay > 0 {
			select {
			case <-time.After(ft.delay):
			case <-r.Context().Done():
				return
			}
		}
		if ft.code != 0 {
			var p *tgbotapi.ResponseParameters
			if ft.retryAfter > 0 || ft.migrateTo != 0 {
				p = &tgbotapi.ResponseParameters{RetryAfter: ft.retryAfter, MigrateToChatID: ft.migrateTo}
			}
			f.reply(w, ft.code, ft.desc, p)
			return
		}
	}
	switch method {
	case "getMe":
		f.ok(w, f.bot)
	case "getUpdates":
		f.getUpdates(w, r, params)
	case "sendMessage", "sendDocument":
		f.send(w, method, params, doc)
	case "answerCallbackQuery", "answerInlineQuery", "deleteWebhook":
		f.ok(w, true)
	case "setMyCommands":
		f.mu.Lock()
		f.commands[params["language_code"]] = params["commands"]
		f.mu.Unlock()
		f.ok(w, true)
	case "setWebhook":
		f.mu.Lock()
		f.webhook, f.whSecret = params["url"], params["secret_token"]
		f.mu.Unlock()
		f.ok(w, true)
	case "getChatAdministrators":
		id, _ := strconv.ParseInt(params["chat_id"], 10, 64)
		f.mu.Lock()
		var out []tgbotapi.ChatMember
		for _, u := range f.admins[id] {
			out = append(out, tgbotapi.ChatMember{User: &tgbotapi.User{ID: u, FirstName: fmt.Sprintf("Admin%d", u)}, Status: "administrator"})
		}
		out = append(out, tgbotapi.ChatMember{User: &f.bot, Status: "administrator"})
		f.mu.Unlock()
		f.ok(w, out)
	case "getFile":
		f.mu.Lock()
		_, ok := f.files[params["file_id"]]
		f.mu.Unlock()
		if !ok {
			f.reply(w, 400, "Bad Request: invalid file_id", nil)
			return
		}
		f.ok(w, tgbotapi.File{FileID: params["file_id"], FilePath: params["file_id"]})
	default:
		f.reply(w, 404, "Not Found: method "+method, nil)
	}
}

func (f *fakeAPI) params(r *http.Request) (map[string]string, []byte) {
	p := map[string]string{}
	var doc []byte
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			f.t.Errorf("fake: bad multipart: %v", err)
			return p, nil
		}
		if fh, ok := r.MultipartForm.File["document"]; ok && len(fh) > 0 {
			rd, _ := fh[0].Open()
			doc, _ = io.ReadAll(rd)
			rd.Close()
		}
	} else if err := r.ParseForm(); err != nil {
		f.t.Errorf("fake: bad form: %v", err)
	}
	for k, v := range r.Form {
		if len(v) > 0 {
			p[k] = v[0]
		}
	}
	return p, doc
}

func (f *fakeAPI) ok(w http.ResponseWriter, result any) {
	b, _ := json.Marshal(result)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: true, Result: b})
}

func (f *fakeAPI) reply(w http.ResponseWriter, code int, desc string, p *tgbotapi.ResponseParameters) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: false, ErrorCode: code, Description: desc, Parameters: p})
}

// getUpdates: confirms updates below offset, then returns at most limit
// updates at or above it, waiting up to timeout seconds for one. A newer
// getUpdates ends an older one with 409, like Telegram.
func (f *fakeAPI) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	offset, _ := strconv.Atoi(p["offset"])
	limit, _ := strconv.Atoi(p["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(p["timeout"])
	deadline := time.Now().Add(time.Duration(timeout) * time.Second)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.webhook != "" {
		f.mu.Unlock()
		f.reply(w, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", nil)
		f.mu.Lock()
		return
	}
	f.pollGen++
	gen := f.pollGen
	if offset > 0 {
		kept := f.updates[:0]
		for _, u := range f.updates {
			var id struct {
				UpdateID int `json:"update_id"`
			}
			_ = json.Unmarshal(u, &id)
			if id.UpdateID >= offset {
				kept = append(kept, u)
			}
		}
		f.updates = kept
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // wake the wait at the deadline or when the client leaves
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
		case <-stop:
			return
		}
		f.mu.Lock()
		f.cond.Broadcast()
		f.mu.Unlock()
	}()
	for {
		if f.closed || r.Context().Err() != nil {
			return
		}
		if gen != f.pollGen {
			f.mu.Unlock()
			f.reply(w, 409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running", nil)
			f.mu.Lock()
			return
		}
		if len(f.updates) > 0 || !time.Now().Before(deadline) {
			break
		}
		f.cond.Wait()
	}
	out := f.updates
	if len(out) > limit {
		out = out[:limit]
	}
	out = append([]json.RawMessage(nil), out...)
	f.mu.Unlock()
	f.ok(w, out)
	f.mu.Lock()
}

var tagOK = regexp.MustCompile(`^</?(b|i|code)>$`)

// visible parses Telegram HTML the strict way: only b, i, code, balanced;
// only the four entities. It returns the text after entity parsing.
func visible(s string) (string, error) {
	var out strings.Builder
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return "", fmt.Errorf("can't parse entities: unclosed start tag at byte offset %d", i)
			}
			tag := s[i : i+j+1]
			if !tagOK.MatchString(tag) {
				return "", fmt.Errorf("can't parse entities: unsupported start tag %q at byte offset %d", tag, i)
			}
			name := strings.Trim(tag, "</>")
			if strings.HasPrefix(tag, "</") {
				if len(stack) == 0 || stack[len(stack)-1] != name {
					return "", fmt.Errorf("can't parse entities: can't find end tag corresponding to %q", tag)
				}
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, name)
			}
			i += j + 1
		case '&':
			j := strings.IndexByte(s[i:], ';')
			if j < 0 {
				return "", fmt.Errorf("can't parse entities: unsupported entity at byte offset %d", i)
			}
			switch s[i : i+j+1] {
			case "&amp;":
				out.WriteByte('&')
			case "&lt;":
				out.WriteByte('<')
			case "&gt;":
				out.WriteByte('>')
			case "&quot;":
				out.WriteByte('"')
			default:
				return "", fmt.Errorf("can't parse entities: unsupported entity at byte offset %d", i)
			}
			i += j + 1
		case '>':
			return "", fmt.Errorf("can't parse entities: unexpected > at byte offset %d", i)
		default:
			out.WriteByte(s[i])
			i++
		}
	}
	if len(stack) > 0 {
		return "", fmt.Errorf("can't parse entities: can't find end tag corresponding to <%s>", stack[len(stack)-1])
	}
	return out.String(), nil
}

func (f *fakeAPI) send(w http.ResponseWriter, method string, p map[string]string, doc []byte) {
	chat, err := strconv.ParseInt(p["chat_id"], 10, 64)
	if err != nil {
		f.reply(w, 400, "Bad Request: chat not found", nil)
		return
	}
	f.mu.Lock()
	blocked := f.blocked[chat]
	f.mu.Unlock()
	if blocked {
		f.reply(w, 403, "Forbidden: bot can't initiate conversation with a user", nil)
		return
	}
	text := p["text"]
	if method == "sendDocument" {
		text = p["caption"]
		if doc == nil {
			f.reply(w, 400, "Bad Request: there is no document in the request", nil)
			return
		}
	} else if strings.TrimSpace(text) == "" {
		f.reply(w, 400, "Bad Request: message text is empty", nil)
		return
	}
	vis := text
	if p["parse_mode"] == "HTML" {
		v, err := visible(text)
		if err != nil {
			f.reply(w, 400, "Bad Request: "+err.Error(), nil)
			return
		}
		vis = v
	}
	if n := len(utf16.Encode([]rune(vis))); n > f.maxLen {
		f.reply(w, 400, "Bad Request: message is too long", nil)
		return
	}
	if rm := p["reply_markup"]; rm != "" {
		var kb tgbotapi.InlineKeyboardMarkup
		if err := json.Unmarshal([]byte(rm), &kb); err != nil {
			f.reply(w, 400, "Bad Request: can't parse reply keyboard markup JSON object", nil)
			return
		}
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				if b.CallbackData == nil || len(*b.CallbackData) > 64 || len(*b.CallbackData) == 0 {
					f.reply(w, 400, "Bad Request: BUTTON_DATA_INVALID", nil)
					return
				}
			}
		}
	}
	f.mu.Lock()
	id := f.nextMsg
	f.nextMsg++
	f.sent = append(f.sent, sentMsg{ID: id, Chat: chat, Method: method, Text: text, Params: p, Doc: doc, At: time.Now(), Visible: vis})
	f.cond.Broadcast()
	f.mu.Unlock()
	f.ok(w, tgbotapi.Message{MessageID: id, Chat: &tgbotapi.Chat{ID: chat}, From: &f.bot, Text: text, Date: int(time.Now().Unix())})
}

// Test-side helpers: users and chats.

type tuser struct {
	ID   int64
	Name string
	Lang string
}

func (u tuser) api() *tgbotapi.User {
	return &tgbotapi.User{ID: u.ID, FirstName: u.Name, LanguageCode: u.Lang}
}

func groupChat(id int64) *tgbotapi.Chat {
	return &tgbotapi.Chat{ID: id, Type: "supergroup", Title: fmt.Sprintf("Mesa %d", -id)}
}

func privateChat(u tuser) *tgbotapi.Chat {
	return &tgbotapi.Chat{ID: u.ID, Type: "private", FirstName: u.Name}
}

// push adds an update and returns its id.
func (f *fakeAPI) push(u tgbotapi.Update) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextUpd++
	u.UpdateID = f.nextUpd
	b, err := json.Marshal(u)
	if err != nil {
		f.t.Fatal(err)
	}
	f.updates = append(f.updates, b)
	f.cond.Broadcast()
	return u.UpdateID
}

// pushRaw adds an update as raw JSON.
func (f *fakeAPI) pushRaw(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.updates = append(f.updates, json.RawMessage(s))
	f.cond.Broadcast()
}

// say makes a user send text in a chat; it returns the message id.
func (f *fakeAPI) say(chat *tgbotapi.Chat, from tuser, text string) int {
	f.mu.Lock()
	id := f.nextMsg
	f.nextMsg++
	f.mu.Unlock()
	m := &tgbotapi.Message{MessageID: id, From: from.api(), Chat: chat, Date: int(time.Now().Unix()), Text: text}
	if strings.HasPrefix(text, "/") {
		word, _, _ := strings.Cut(text, " ")
		m.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len(utf16.Encode([]rune(word)))}}
	}
	f.push(tgbotapi.Update{Message: m})
	return id
}

// press presses a button of a message the bot sent.
func (f *fakeAPI) press(msg sentMsg, from tuser, data string) int {
	chat := &tgbotapi.Chat{ID: msg.Chat, Type: "supergroup", Title: "Mesa"}
	if msg.Chat > 0 {
		chat.Type = "private"
	}
	return f.push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID: fmt.Sprintf("cb%d", time.Now().UnixNano()), From: from.api(), Data: data,
		Message: &tgbotapi.Message{MessageID: msg.ID, Chat: chat, From: &f.bot, Text: msg.Visible},
	}})
}

// sentTo returns the messages sent to a chat, in order.
func (f *fakeAPI) sentTo(chat int64) []sentMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []sentMsg
	for _, s := range f.sent {
		if s.Chat == chat {
			out = append(out, s)
		}
	}
	return out
}

func (f *fakeAPI) allSent() []sentMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sentMsg(nil), f.sent...)
}

// callsOf returns the recorded calls of a method.
func (f *fakeAPI) callsOf(method string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// waitSent waits until chat has at least n messages.
func (f *fakeAPI) waitSent(chat int64, n int, timeout time.Duration) []sentMsg {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := f.sentTo(chat)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("chat %d: got %d messages, want %d: %+v", chat, len(got), n, got)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitCalls waits until method was called at least n times.
func (f *fakeAPI) waitCalls(method string, n int, timeout time.Duration) []call {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := f.callsOf(method)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s: %d calls, want %d", method, len(got), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
