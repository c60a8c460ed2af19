// Package telegramtest is a fake Telegram Bot API server for tests and
// benchmarks that drive the real zaria binary over HTTP: real long polling
// with offset semantics, strict HTML checks, Telegram's flood limits
// enforced and counted (per chat, per group, global), injected faults, and
// an outage switch that closes the listener and reopens it on the same port.
//
// It records when each update was handed to the bot and when each reply
// arrived, so a caller can check that every command got exactly one reply.
package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Limits are the flood limits the server enforces on sendMessage and
// sendDocument. A request over a limit gets 429 with retry_after and is
// counted in Violations. Zero fields are not enforced.
type Limits struct {
	ChatInterval time.Duration // at most one send per chat per interval (Telegram: 1 s)
	GroupLimit   int           // at most GroupLimit sends per group chat (id < 0) …
	GroupWindow  time.Duration // … in any GroupWindow (Telegram: 20 per minute)
	GlobalLimit  int           // at most GlobalLimit sends overall …
	GlobalWindow time.Duration // … in any GlobalWindow (Telegram: 30 per second)
}

// Production is Telegram's documented limits (Bots FAQ).
var Production = Limits{ChatInterval: time.Second, GroupLimit: 20, GroupWindow: time.Minute, GlobalLimit: 30, GlobalWindow: time.Second}

// Options configure a Server.
type Options struct {
	Token  string // the bot token the server accepts
	Addr   string // listen address; default 127.0.0.1:0
	Limits Limits // flood limits; zero = none
}

// Update is one update the server holds or handed out.
type Update struct {
	ID        int
	Chat      int64
	MessageID int
	Text      string
	Pushed    time.Time
	Delivered time.Time // first getUpdates answer that carried it; zero if never
}

// Sent is one message the bot sent.
type Sent struct {
	ID      int
	Chat    int64
	Method  string
	Text    string // as sent (HTML when parse_mode is HTML)
	Visible string // the text after entity parsing
	ReplyTo int    // reply_to_message_id, 0 if none
	Params  map[string]string
	At      time.Time
}

// Violation is a send refused because it broke a flood limit.
type Violation struct {
	Chat  int64
	Limit string // "chat", "group" or "global"
	At    time.Time
}

// Fault is an injected answer to the next call of a method: an error status
// (Code, Description, RetryAfter) and/or a delay before the answer.
type Fault struct {
	Code        int
	Description string
	RetryAfter  int
	Delay       time.Duration
}

// Server is the fake Bot API.
type Server struct {
	token string
	addr  string
	lim   Limits
	bot   tgbotapi.User
	srv   *http.Server

	mu        sync.Mutex
	cond      *sync.Cond
	up        bool
	closed    bool
	ln        net.Listener
	conns     map[net.Conn]struct{}
	serveDone chan struct{}
	nextUpd   int
	nextMsg   int
	pending   []json.RawMessage // not yet confirmed by an offset
	updates   map[int]*Update
	sent      []Sent
	calls     map[string]int
	faults    map[string][]Fault
	chatSends map[int64][]time.Time
	allSends  []time.Time
	viol      []Violation
	badReq    []string
	pollGen   int
}

// New starts a server on a loopback port.
func New(o Options) (*Server, error) {
	if o.Token == "" {
		o.Token = "123456:TEST-token"
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	s := &Server{
		token: o.Token, lim: o.Limits,
		bot:     tgbotapi.User{ID: 4242, IsBot: true, FirstName: "Zaria", UserName: "ZariaTestBot"},
		nextUpd: 1000, nextMsg: 1,
		conns:     map[net.Conn]struct{}{},
		updates:   map[int]*Update{},
		calls:     map[string]int{},
		faults:    map[string][]Fault{},
		chatSends: map[int64][]time.Time{},
	}
	s.cond = sync.NewCond(&s.mu)
	s.addr = o.Addr
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// URL is the base URL to give the bot (ZARIA_TELEGRAM_API).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "http://" + s.addr
}

// Token is the token the server accepts.
func (s *Server) Token() string { return s.token }

// Bot is the bot's user.
func (s *Server) Bot() tgbotapi.User { return s.bot }

// Start listens again on the same address after Stop (the first call is
// made by New). It retries for a few seconds while the port is still busy.
func (s *Server) Start() error {
	s.mu.Lock()
	if s.up || s.closed {
		s.mu.Unlock()
		return nil
	}
	addr := s.addr
	s.mu.Unlock()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("telegramtest: listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(s.serve), ConnState: s.connState}
	done := make(chan struct{})
	s.mu.Lock()
	s.addr = ln.Addr().String()
	s.ln, s.srv, s.up, s.serveDone = ln, srv, true, done
	s.mu.Unlock()
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return nil
}

func (s *Server) connState(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		s.conns[c] = struct{}{}
	case http.StateClosed, http.StateHijacked:
		delete(s.conns, c)
	}
}

// Stop closes the listener and every open connection, as if the server
// went away: the bot's calls fail with connection refused until Start.
func (s *Server) Stop() {
	s.mu.Lock()
	if !s.up {
		s.mu.Unlock()
		return
	}
	s.up = false
	srv, done := s.srv, s.serveDone
	s.cond.Broadcast()
	s.mu.Unlock()
	_ = srv.Close() // closes the listener and every connection
	<-done
}

// Close stops the server for good.
func (s *Server) Close() {
	s.Stop()
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
}

// Inject queues faults for the next calls of method.
func (s *Server) Inject(method string, fs ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = append(s.faults[method], fs...)
}

var methodRE = regexp.MustCompile(`^/bot([^/]+)/([A-Za-z]+)$`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	m := methodRE.FindStringSubmatch(r.URL.Path)
	if m == nil {
		reply(w, 404, "Not Found", 0)
		return
	}
	if m[1] != s.token {
		reply(w, 401, "Unauthorized", 0)
		return
	}
	method := m[2]
	params, err := formParams(r)
	if err != nil {
		s.mu.Lock()
		s.badReq = append(s.badReq, method+": "+err.Error())
		s.mu.Unlock()
		reply(w, 400, "Bad Request: "+err.Error(), 0)
		return
	}
	s.mu.Lock()
	s.calls[method]++
	var ft *Fault
	if q := s.faults[method]; len(q) > 0 {
		ft = &q[0]
		s.faults[method] = q[1:]
	}
	s.mu.Unlock()
	if ft != nil {
		if ft.Delay > 0 {
			select {
			case <-time.After(ft.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if ft.Code != 0 {
			reply(w, ft.Code, ft.Description, ft.RetryAfter)
			return
		}
	}
	switch method {
	case "getMe":
		ok(w, s.bot)
	case "getUpdates":
		s.getUpdates(w, r, params)
	case "sendMessage", "sendDocument":
		s.send(w, method, params)
	case "answerCallbackQuery", "answerInlineQuery", "deleteWebhook", "setMyCommands", "setWebhook":
		ok(w, true)
	case "getChatAdministrators":
		ok(w, []tgbotapi.ChatMember{{User: &s.bot, Status: "administrator"}})
	default:
		reply(w, 404, "Not Found: method "+method, 0)
	}
}

func formParams(r *http.Request) (map[string]string, error) {
	p := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return nil, err
		}
	} else if err := r.ParseForm(); err != nil {
		return nil, err
	}
	for k, v := range r.Form {
		if len(v) > 0 {
			p[k] = v[0]
		}
	}
	return p, nil
}

func ok(w http.ResponseWriter, result any) {
	b, _ := json.Marshal(result)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: true, Result: b})
}

func reply(w http.ResponseWriter, code int, desc string, retryAfter int) {
	var p *tgbotapi.ResponseParameters
	if retryAfter > 0 {
		p = &tgbotapi.ResponseParameters{RetryAfter: retryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: false, ErrorCode: code, Description: desc, Parameters: p})
}

// getUpdates confirms updates below offset, then returns at most limit
// updates at or above it, waiting up to timeout seconds for one. A newer
// getUpdates ends an older one with 409, like Telegram.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	offset, _ := strconv.Atoi(p["offset"])
	limit, _ := strconv.Atoi(p["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(p["timeout"])
	deadline := time.Now().Add(time.Duration(timeout) * time.Second)
	s.mu.Lock()
	s.pollGen++
	gen := s.pollGen
	if offset > 0 {
		kept := s.pending[:0]
		for _, u := range s.pending {
			if updateID(u) >= offset {
				kept = append(kept, u)
			}
		}
		s.pending = kept
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
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	}()
	for {
		if s.closed || !s.up || r.Context().Err() != nil {
			s.mu.Unlock()
			return
		}
		if gen != s.pollGen {
			s.mu.Unlock()
			reply(w, 409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running", 0)
			return
		}
		if len(s.pending) > 0 || !time.Now().Before(deadline) {
			break
		}
		s.cond.Wait()
	}
	out := s.pending
	if len(out) > limit {
		out = out[:limit]
	}
	out = append([]json.RawMessage(nil), out...)
	now := time.Now()
	for _, u := range out {
		if rec := s.updates[updateID(u)]; rec != nil && rec.Delivered.IsZero() {
			rec.Delivered = now
		}
	}
	s.mu.Unlock()
	ok(w, out)
}

func updateID(raw json.RawMessage) int {
	var id struct {
		UpdateID int `json:"update_id"`
	}
	_ = json.Unmarshal(raw, &id)
	return id.UpdateID
}

// flood checks the limits for a send to chat at now and records it when
// allowed. Called with s.mu held.
func (s *Server) flood(chat int64, now time.Time) (string, time.Duration) {
	l := s.lim
	cs := s.chatSends[chat]
	if l.ChatInterval > 0 && len(cs) > 0 && now.Sub(cs[len(cs)-1]) < l.ChatInterval {
		return "chat", l.ChatInterval - now.Sub(cs[len(cs)-1])
	}
	if chat < 0 && l.GroupLimit > 0 && len(cs) >= l.GroupLimit {
		if d := now.Sub(cs[len(cs)-l.GroupLimit]); d < l.GroupWindow {
			return "group", l.GroupWindow - d
		}
	}
	if l.GlobalLimit > 0 && len(s.allSends) >= l.GlobalLimit {
		if d := now.Sub(s.allSends[len(s.allSends)-l.GlobalLimit]); d < l.GlobalWindow {
			return "global", l.GlobalWindow - d
		}
	}
	keep := max(l.GroupLimit, 1)
	if len(cs) >= keep {
		cs = cs[len(cs)-keep+1:]
	}
	s.chatSends[chat] = append(cs, now)
	s.allSends = append(s.allSends, now)
	if n := max(l.GlobalLimit, 1); len(s.allSends) > 4*n+1024 {
		s.allSends = append([]time.Time(nil), s.allSends[len(s.allSends)-n:]...)
	}
	return "", 0
}

func (s *Server) send(w http.ResponseWriter, method string, p map[string]string) {
	chat, err := strconv.ParseInt(p["chat_id"], 10, 64)
	if err != nil {
		reply(w, 400, "Bad Request: chat not found", 0)
		return
	}
	text := p["text"]
	if method == "sendDocument" {
		text = p["caption"]
	} else if strings.TrimSpace(text) == "" {
		reply(w, 400, "Bad Request: message text is empty", 0)
		return
	}
	vis := text
	if p["parse_mode"] == "HTML" {
		v, err := Visible(text)
		if err != nil {
			s.mu.Lock()
			s.badReq = append(s.badReq, err.Error())
			s.mu.Unlock()
			reply(w, 400, "Bad Request: "+err.Error(), 0)
			return
		}
		vis = v
	}
	if n := len(utf16.Encode([]rune(vis))); n > 4096 {
		reply(w, 400, "Bad Request: message is too long", 0)
		return
	}
	now := time.Now()
	s.mu.Lock()
	if which, wait := s.flood(chat, now); which != "" {
		s.viol = append(s.viol, Violation{Chat: chat, Limit: which, At: now})
		s.mu.Unlock()
		reply(w, 429, "Too Many Requests: retry after "+strconv.Itoa(int(wait/time.Second)+1), int(wait/time.Second)+1)
		return
	}
	id := s.nextMsg
	s.nextMsg++
	rt, _ := strconv.Atoi(p["reply_to_message_id"])
	s.sent = append(s.sent, Sent{ID: id, Chat: chat, Method: method, Text: text, Visible: vis, ReplyTo: rt, Params: p, At: now})
	s.cond.Broadcast()
	s.mu.Unlock()
	ok(w, tgbotapi.Message{MessageID: id, Chat: &tgbotapi.Chat{ID: chat}, From: &s.bot, Text: text, Date: int(now.Unix())})
}

var tagOK = regexp.MustCompile(`^</?(b|i|code)>$`)

// Visible parses Telegram HTML the strict way (only b, i, code, balanced;
// only the four entities) and returns the text a user sees.
func Visible(s string) (string, error) {
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

// Say makes user (id, name) send text in chat (a group when chat < 0, a
// private chat when chat == user) and returns the message id.
func (s *Server) Say(chat, user int64, name, lang, text string) int {
	c := &tgbotapi.Chat{ID: chat, Type: "private", FirstName: name}
	if chat < 0 {
		c = &tgbotapi.Chat{ID: chat, Type: "supergroup", Title: fmt.Sprintf("Mesa %d", -chat)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextMsg
	s.nextMsg++
	m := &tgbotapi.Message{MessageID: id, From: &tgbotapi.User{ID: user, FirstName: name, LanguageCode: lang}, Chat: c, Date: int(time.Now().Unix()), Text: text}
	if strings.HasPrefix(text, "/") {
		word, _, _ := strings.Cut(text, " ")
		m.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len(utf16.Encode([]rune(word)))}}
	}
	s.nextUpd++
	u := tgbotapi.Update{UpdateID: s.nextUpd, Message: m}
	b, _ := json.Marshal(u)
	s.pending = append(s.pending, b)
	s.updates[u.UpdateID] = &Update{ID: u.UpdateID, Chat: chat, MessageID: id, Text: text, Pushed: time.Now()}
	s.cond.Broadcast()
	return id
}

// Sent returns every message sent so far, in order of arrival.
func (s *Server) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// SentTo returns the messages sent to chat, in order.
func (s *Server) SentTo(chat int64) []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Sent
	for _, m := range s.sent {
		if m.Chat == chat {
			out = append(out, m)
		}
	}
	return out
}

// SentCount is how many messages were sent.
func (s *Server) SentCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

// Updates returns a copy of every update pushed, by id.
func (s *Server) Updates() map[int]Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]Update, len(s.updates))
	for id, u := range s.updates {
		out[id] = *u
	}
	return out
}

// Violations returns the sends refused for breaking a flood limit.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.viol...)
}

// BadRequests returns the requests refused as malformed (bad HTML above all).
func (s *Server) BadRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.badReq...)
}

// Calls is how many times method was called.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// ErrTimeout is returned by WaitSent when the deadline passes.
var ErrTimeout = errors.New("telegramtest: timeout")

// WaitSent waits until at least n messages were sent in total.
func (s *Server) WaitSent(ctx context.Context, n int) error {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.sent) < n {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %d of %d messages sent", ErrTimeout, len(s.sent), n)
		}
		s.cond.Wait()
	}
	return nil
}

// Unanswered checks replies against the updates pushed: it returns the
// updates with no reply (by reply_to_message_id) and those with more than
// one reply message (split replies count once per message, so commands
// whose replies are short must be used).
func (s *Server) Unanswered() (missing, repeated []Update) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := map[[2]int64]int{}
	for _, m := range s.sent {
		n[[2]int64{m.Chat, int64(m.ReplyTo)}]++
	}
	for _, u := range s.updates {
		switch c := n[[2]int64{u.Chat, int64(u.MessageID)}]; {
		case c == 0:
			missing = append(missing, *u)
		case c > 1:
			repeated = append(repeated, *u)
		}
	}
	return missing, repeated
}

// Dump writes a short description of the server's state (for failures).
func (s *Server) Dump(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(w, "updates %d pending %d sent %d violations %d bad %d calls %v\n", len(s.updates), len(s.pending), len(s.sent), len(s.viol), len(s.badReq), s.calls)
}
