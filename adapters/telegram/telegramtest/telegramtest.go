// Package telegramtest is a fake Telegram Bot API server for tests and
// benchmarks that drive the real zaria binary over HTTP: real long polling
// with offset semantics, strict HTML checks, Telegram's flood limits
// enforced and counted (per chat, per group, global), injected faults, and
// an outage switch that closes the listener and reopens it on the same port.
//
// It records when each update was handed to the bot and when each reply
// arrived, so a caller can check that every command got exactly one reply;
// it records every call (method, parameters, time) too. Group admins,
// users who never started the bot (403), files to download and the
// published command menus can be set up or read back.
//
// It does not import the adapter, so the adapter's own tests use it too.
package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

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
	ReplyTo int    // reply_parameters.message_id, 0 if none
	Thread  int    // message_thread_id (a forum topic), 0 if none
	Params  map[string]string
	Doc     []byte // the file of a sendDocument
	// FileName is the name of the uploaded file (the document's or the
	// photo's part), as the chat shows a document.
	FileName string
	// Photo is the picture of a sendPhoto uploaded with multipart/form-data
	// (its "photo" field, or the part named by "attach://<name>"), and
	// PhotoType the Content-Type of that part.
	Photo     []byte
	PhotoType string
	At        time.Time
}

// Call is one request the bot made.
type Call struct {
	Method string
	Params map[string]string
	At     time.Time
}

// Violation is a send refused because it broke a flood limit.
type Violation struct {
	Chat  int64
	Limit string // "chat", "group" or "global"
	At    time.Time
}

// Fault is an injected answer to the next call of a method: an error status
// (Code, Description, RetryAfter, MigrateTo) and/or a delay before the
// answer.
type Fault struct {
	Code        int
	Description string
	RetryAfter  int
	MigrateTo   int64 // migrate_to_chat_id: the group became this supergroup
	Delay       time.Duration
	// Body, when set, is the whole answer with status Code instead of a
	// Bot API JSON error: a proxy's HTML page, a cut-off body.
	Body string
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
	calls     []Call
	faults    map[string][]Fault
	admins    map[int64][]int64
	blocked   map[int64]bool
	members   map[int64]map[int64]bool // chat → users getChatMember says are members (members.go)
	kicked    map[int64]bool           // chats the bot was removed from (members.go)
	menus     map[int64]MenuButton     // private chat (0: the default) → its menu button (menu.go)
	files     map[string][]byte
	commands  map[string]string // language_code → commands JSON
	webhook   string
	chatSends map[int64][]time.Time
	allSends  []time.Time
	viol      []Violation
	badReq    []string
	pollGen   int

	forums   map[int64]bool    // supergroups with topics (is_forum)
	deleted  map[[2]int64]bool // chat, message id: deleted messages
	migrated map[int64]int64   // group → the supergroup it became
	inline   map[string]string // inline_message_id → its text
	results  map[string]inlineResult
	edits    []Edit
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
		faults:    map[string][]Fault{},
		admins:    map[int64][]int64{},
		blocked:   map[int64]bool{},
		files:     map[string][]byte{},
		commands:  map[string]string{},
		chatSends: map[int64][]time.Time{},
		forums:    map[int64]bool{},
		deleted:   map[[2]int64]bool{},
		migrated:  map[int64]int64{},
		inline:    map[string]string{},
		results:   map[string]inlineResult{},
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

// SetAdmins makes users the administrators of chat (the bot is one too).
func (s *Server) SetAdmins(chat int64, users ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.admins[chat] = users
}

// Block makes sends to a private chat fail with 403, as for a user who
// never started the bot.
func (s *Server) Block(user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocked[user] = true
}

// AddFile makes a file available to getFile and download under id.
func (s *Server) AddFile(id string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[id] = data
}

// Commands returns the command menus published with setMyCommands, by
// language_code ("" for the default), as the JSON the bot sent.
func (s *Server) Commands() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.commands)
}

var (
	methodRE = regexp.MustCompile(`^/bot([^/]+)/([A-Za-z]+)$`)
	fileRE   = regexp.MustCompile(`^/file/bot([^/]+)/(.+)$`)
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if m := fileRE.FindStringSubmatch(r.URL.Path); m != nil {
		s.mu.Lock()
		data, found := s.files[m[2]]
		s.mu.Unlock()
		if m[1] != s.token || !found {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data)
		return
	}
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
	params, doc, err := formParams(r, method)
	if err != nil {
		s.mu.Lock()
		s.badReq = append(s.badReq, method+": "+err.Error())
		s.mu.Unlock()
		reply(w, 400, "Bad Request: "+err.Error(), 0)
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: method, Params: params, At: time.Now()})
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
		if ft.Code != 0 && ft.Body != "" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(ft.Code)
			_, _ = io.WriteString(w, ft.Body)
			return
		}
		if ft.Code != 0 {
			replyParams(w, ft.Code, ft.Description, ft.RetryAfter, ft.MigrateTo)
			return
		}
	}
	switch method {
	case "getMe":
		ok(w, s.bot)
	case "getUpdates":
		s.getUpdates(w, r, params)
	case "sendMessage", "sendDocument", "sendPhoto":
		s.send(w, method, params, doc)
	case "answerCallbackQuery":
		// "text: Text of the notification. If not specified, nothing will
		// be shown to the user, 0-200 characters".
		if p := params; p["callback_query_id"] == "" {
			reply(w, 400, "Bad Request: QUERY_ID_INVALID", 0)
		} else if len(utf16.Encode([]rune(p["text"]))) > 200 {
			s.refuse(w, "MESSAGE_TOO_LONG")
		} else {
			ok(w, true)
		}
	case "answerInlineQuery":
		s.answerInline(w, params)
	case "editMessageText":
		s.editText(w, params)
	case "setMyCommands":
		if desc := badCommands(params["commands"]); desc != "" {
			s.refuse(w, desc)
			return
		}
		s.mu.Lock()
		s.commands[params["language_code"]] = params["commands"]
		s.mu.Unlock()
		ok(w, true)
	case "setWebhook", "deleteWebhook":
		s.mu.Lock()
		s.webhook = params["url"] // deleteWebhook has none
		s.mu.Unlock()
		ok(w, true)
	case "setChatMenuButton":
		s.setMenuButton(w, params)
	case "getChatMember":
		s.chatMember(w, params)
	case "getChatAdministrators":
		id, _ := strconv.ParseInt(params["chat_id"], 10, 64)
		s.mu.Lock()
		var out []tgbotapi.ChatMember
		for _, u := range s.admins[id] {
			out = append(out, tgbotapi.ChatMember{User: &tgbotapi.User{ID: u, FirstName: fmt.Sprintf("Admin%d", u)}, Status: "administrator"})
		}
		out = append(out, tgbotapi.ChatMember{User: &s.bot, Status: "administrator"})
		s.mu.Unlock()
		ok(w, out)
	case "getFile":
		s.mu.Lock()
		_, found := s.files[params["file_id"]]
		s.mu.Unlock()
		if !found {
			reply(w, 400, "Bad Request: invalid file_id", 0)
			return
		}
		ok(w, tgbotapi.File{FileID: params["file_id"], FilePath: params["file_id"]})
	default:
		reply(w, 404, "Not Found: method "+method, 0)
	}
}

// refuse answers 400 with Telegram's description and records it in
// BadRequests.
func (s *Server) refuse(w http.ResponseWriter, desc string) {
	s.mu.Lock()
	s.badReq = append(s.badReq, desc)
	s.mu.Unlock()
	reply(w, 400, "Bad Request: "+desc, 0)
}

var commandRE = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// badCommands checks setMyCommands' commands as documented: a JSON list of
// at most 100 BotCommand, each command "1-32 characters. Can contain only
// lowercase English letters, digits and underscores", each description
// "1-256 characters". It returns Telegram's description of the fault, or "".
func badCommands(raw string) string {
	var cmds []struct {
		Command     *string `json:"command"`
		Description *string `json:"description"`
	}
	if err := json.Unmarshal([]byte(raw), &cmds); err != nil {
		return "can't parse commands JSON object"
	}
	if len(cmds) > 100 {
		return "BOT_COMMANDS_TOO_MUCH"
	}
	for _, c := range cmds {
		if c.Command == nil || !commandRE.MatchString(*c.Command) {
			return "BOT_COMMAND_INVALID"
		}
		if n := len(utf16.Encode([]rune(strings.TrimSpace(deref(c.Description))))); n == 0 || n > 256 {
			return "BOT_COMMAND_DESCRIPTION_INVALID"
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// upload is a file sent with multipart/form-data.
type upload struct {
	data  []byte
	ctype string
	name  string
}

// formParams reads a form or multipart request: its fields and the file
// of the method's input field ("document" of sendDocument, "photo" of
// sendPhoto), given as the part of that name or, per the Bot API's
// "Sending files", as "attach://<part name>" in the field.
func formParams(r *http.Request, method string) (map[string]string, *upload, error) {
	p := map[string]string{}
	var doc *upload
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return nil, nil, err
		}
		field := "document"
		if method == "sendPhoto" {
			field = "photo"
		}
		part := field
		if v := r.MultipartForm.Value[field]; len(v) > 0 && strings.HasPrefix(v[0], "attach://") {
			part = strings.TrimPrefix(v[0], "attach://")
		}
		if fh := r.MultipartForm.File[part]; len(fh) > 0 {
			f, err := fh[0].Open()
			if err != nil {
				return nil, nil, err
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				return nil, nil, err
			}
			doc = &upload{data: data, ctype: fh[0].Header.Get("Content-Type"), name: fh[0].Filename}
		}
	} else if err := r.ParseForm(); err != nil {
		return nil, nil, err
	}
	for k, v := range r.Form {
		if len(v) > 0 {
			p[k] = v[0]
		}
	}
	return p, doc, nil
}

func ok(w http.ResponseWriter, result any) {
	b, _ := json.Marshal(result)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: true, Result: b})
}

func reply(w http.ResponseWriter, code int, desc string, retryAfter int) {
	replyParams(w, code, desc, retryAfter, 0)
}

func replyParams(w http.ResponseWriter, code int, desc string, retryAfter int, migrateTo int64) {
	var p *tgbotapi.ResponseParameters
	if retryAfter > 0 || migrateTo != 0 {
		p = &tgbotapi.ResponseParameters{RetryAfter: retryAfter, MigrateToChatID: migrateTo}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: false, ErrorCode: code, Description: desc, Parameters: p})
}

// getUpdates confirms updates below offset, then returns at most limit
// updates at or above it, waiting up to timeout seconds for one. A newer
// getUpdates ends an older one with 409, like Telegram, and so does a
// webhook in place.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	offset, _ := strconv.Atoi(p["offset"])
	limit, _ := strconv.Atoi(p["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(p["timeout"])
	deadline := time.Now().Add(time.Duration(timeout) * time.Second)
	s.mu.Lock()
	if s.webhook != "" {
		s.mu.Unlock()
		reply(w, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", 0)
		return
	}
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

func (s *Server) send(w http.ResponseWriter, method string, p map[string]string, doc *upload) {
	chat, err := strconv.ParseInt(p["chat_id"], 10, 64)
	if err != nil {
		reply(w, 400, "Bad Request: chat not found", 0)
		return
	}
	s.mu.Lock()
	blocked := s.blocked[chat]
	to, moved := s.migrated[chat]
	forum := s.forums[chat]
	s.mu.Unlock()
	if moved {
		replyParams(w, 400, "Bad Request: group chat was upgraded to a supergroup chat", 0, to)
		return
	}
	thread := 0
	if t := p["message_thread_id"]; t != "" {
		thread, _ = strconv.Atoi(t)
		if !forum || thread <= 0 {
			reply(w, 400, "Bad Request: message thread not found", 0)
			return
		}
	}
	if blocked {
		reply(w, 403, "Forbidden: bot can't initiate conversation with a user", 0)
		return
	}
	rt, desc := s.replyTo(chat, thread, p)
	if desc != "" {
		reply(w, 400, "Bad Request: "+desc, 0)
		return
	}
	text := p["text"]
	var photo []PhotoSize
	switch method {
	case "sendDocument":
		text = p["caption"]
		if doc == nil {
			reply(w, 400, "Bad Request: there is no document in the request", 0)
			return
		}
	case "sendPhoto":
		text = p["caption"]
		var desc string
		if photo, desc = checkPhoto(doc); desc != "" {
			reply(w, 400, "Bad Request: "+desc, 0)
			return
		}
	default:
		if strings.TrimSpace(text) != "" {
			break
		}
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
	if n := len(utf16.Encode([]rune(vis))); method != "sendMessage" && n > 1024 {
		reply(w, 400, "Bad Request: message caption is too long", 0)
		return
	} else if n > 4096 {
		reply(w, 400, "Bad Request: message is too long", 0)
		return
	}
	if rm := p["reply_markup"]; rm != "" {
		if desc := badKeyboard(rm, chat > 0); desc != "" {
			s.mu.Lock()
			s.badReq = append(s.badReq, desc)
			s.mu.Unlock()
			reply(w, 400, "Bad Request: "+desc, 0)
			return
		}
	}
	// The clock is read under the lock, so that sends are recorded in the
	// order they are counted: read before it, two sends racing for the lock
	// could be stored out of order and a later one measured against the
	// wrong neighbour (a false 429 under load).
	s.mu.Lock()
	now := time.Now()
	if which, wait := s.flood(chat, now); which != "" {
		s.viol = append(s.viol, Violation{Chat: chat, Limit: which, At: now})
		s.mu.Unlock()
		reply(w, 429, "Too Many Requests: retry after "+strconv.Itoa(int(wait/time.Second)+1), int(wait/time.Second)+1)
		return
	}
	id := s.nextMsg
	s.nextMsg++
	sent := Sent{ID: id, Chat: chat, Method: method, Text: text, Visible: vis, ReplyTo: rt, Thread: thread, Params: p, At: now}
	switch {
	case method == "sendPhoto":
		sent.Photo, sent.PhotoType, sent.FileName = doc.data, doc.ctype, doc.name
	case doc != nil:
		sent.Doc, sent.FileName = doc.data, doc.name
	}
	s.sent = append(s.sent, sent)
	s.cond.Broadcast()
	s.mu.Unlock()
	msg := map[string]any{"message_id": id, "chat": map[string]any{"id": chat}, "from": s.bot, "date": now.Unix()}
	if method == "sendMessage" {
		msg["text"] = text
	} else if text != "" {
		msg["caption"] = text
	}
	if photo != nil {
		msg["photo"] = photo
	}
	ok(w, msg)
}

// replyTo reads a send's reply_parameters (ReplyParameters, the only way
// the Bot API documents since 7.0; reply_to_message_id is not read): the
// message replied to, 0 if none. A reply to a deleted message (Delete)
// fails with "message to be replied not found" unless
// allow_sending_without_reply is true, which the documentation says is
// "always False for replies in another chat or forum topic". It returns
// Telegram's description of a refusal, or "".
func (s *Server) replyTo(chat int64, thread int, p map[string]string) (int, string) {
	raw := p["reply_parameters"]
	if raw == "" {
		// The older parameter, which Telegram still reads (and zaria sent
		// before it used reply_parameters: bench-e2e runs such binaries).
		if id, err := strconv.Atoi(p["reply_to_message_id"]); err == nil && id > 0 {
			return id, ""
		}
		return 0, ""
	}
	var rp struct {
		MessageID int             `json:"message_id"`
		ChatID    json.RawMessage `json:"chat_id"`
		Allow     bool            `json:"allow_sending_without_reply"`
	}
	if err := json.Unmarshal([]byte(raw), &rp); err != nil || rp.MessageID <= 0 {
		return 0, "can't parse reply parameters JSON object"
	}
	s.mu.Lock()
	gone := s.deleted[[2]int64{chat, int64(rp.MessageID)}]
	s.mu.Unlock()
	if gone {
		if !rp.Allow || thread != 0 || len(rp.ChatID) > 0 {
			return 0, "message to be replied not found"
		}
		return 0, ""
	}
	return rp.MessageID, ""
}

// Delete deletes message id of chat, as its author or an admin may: a
// reply to it then fails as the documentation says (see replyTo).
func (s *Server) Delete(chat int64, id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleted[[2]int64{chat, int64(id)}] = true
}

// badKeyboard checks a reply_markup as Telegram does: valid JSON; an
// inline keyboard's buttons each of one kind (callback data of 1 to 64
// bytes, a url, or a web_app, which only a private chat takes); a reply
// keyboard (ReplyKeyboardMarkup) with keys of non-empty text and an input
// field placeholder of at most 64 characters; never both kinds at once.
// It returns Telegram's description of the fault, or "".
func badKeyboard(markup string, private bool) string {
	var kb tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(markup), &kb); err != nil {
		return "can't parse reply keyboard markup JSON object"
	}
	var rk struct {
		Keyboard    [][]struct{ Text string } `json:"keyboard"`
		Remove      bool                      `json:"remove_keyboard"`
		Placeholder string                    `json:"input_field_placeholder"`
	}
	_ = json.Unmarshal([]byte(markup), &rk)
	if len(rk.Keyboard) > 0 || rk.Remove {
		if len(kb.InlineKeyboard) > 0 || (len(rk.Keyboard) > 0 && rk.Remove) {
			return "can't parse reply keyboard markup JSON object"
		}
		for _, row := range rk.Keyboard {
			for _, b := range row {
				if strings.TrimSpace(b.Text) == "" {
					return "keyboard button text is empty"
				}
			}
		}
		if len(utf16.Encode([]rune(rk.Placeholder))) > 64 {
			return "input field placeholder is too long"
		}
	}
	// Each inline button has exactly one kind: callback_data (1 to 64
	// bytes), url (http, https or tg), or web_app (an HTTPS URL, "only in
	// private chats between a user and the bot").
	var ik struct {
		InlineKeyboard [][]struct {
			Text         string  `json:"text"`
			CallbackData *string `json:"callback_data"`
			URL          *string `json:"url"`
			WebApp       *struct {
				URL string `json:"url"`
			} `json:"web_app"`
		} `json:"inline_keyboard"`
	}
	_ = json.Unmarshal([]byte(markup), &ik)
	for _, row := range ik.InlineKeyboard {
		for _, b := range row {
			kinds := 0
			for _, set := range []bool{b.CallbackData != nil, b.URL != nil, b.WebApp != nil} {
				if set {
					kinds++
				}
			}
			switch {
			case strings.TrimSpace(b.Text) == "":
				return "text buttons are unallowed in the inline keyboard"
			case kinds != 1:
				return "BUTTON_TYPE_INVALID"
			case b.URL != nil:
				if u, err := url.Parse(*b.URL); err != nil || u.Host == "" && u.Scheme != "tg" || u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "tg" {
					return "BUTTON_URL_INVALID"
				}
			case b.WebApp != nil:
				if !private {
					return "BUTTON_TYPE_INVALID"
				}
				if u, err := url.Parse(b.WebApp.URL); err != nil || u.Scheme != "https" || u.Host == "" {
					return "BUTTON_URL_INVALID"
				}
			case len(*b.CallbackData) == 0 || len(*b.CallbackData) > 64:
				return "BUTTON_DATA_INVALID"
			}
		}
	}
	return ""
}

var tagOK = regexp.MustCompile(`^(</?(b|i|code|a)>|<a href="[^"<>&]+">)$`)

// Visible parses Telegram HTML the strict way (only b, i, code and a link
// <a href="…"> such as a tg://user?id= mention, balanced;
// only the four named entities &lt; &gt; &amp; &quot;, and numeric ones,
// as documented) and returns the text a user sees.
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
			name, _, _ := strings.Cut(strings.Trim(tag, "</>"), " ")
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
				// "All numerical HTML entities are supported."
				if r, ok := numericEntity(s[i : i+j+1]); ok {
					out.WriteRune(r)
					break
				}
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

// numericEntity reads "&#NNN;" or "&#xHH;" as the character it names.
func numericEntity(e string) (rune, bool) {
	body, ok := strings.CutPrefix(strings.TrimSuffix(e, ";"), "&#")
	if !ok || body == "" {
		return 0, false
	}
	base := 10
	if rest, hex := strings.CutPrefix(strings.ToLower(body), "x"); hex {
		body, base = rest, 16
	}
	n, err := strconv.ParseUint(body, base, 32)
	if err != nil || n == 0 || n > utf8.MaxRune || (n >= 0xD800 && n <= 0xDFFF) {
		return 0, false
	}
	return rune(n), true
}

// User is a Telegram user who talks to the bot.
type User struct {
	ID   int64
	Name string
	Lang string // language_code
}

// API is the user as the Bot API shows it.
func (u User) API() *tgbotapi.User {
	return &tgbotapi.User{ID: u.ID, FirstName: u.Name, LanguageCode: u.Lang}
}

// Group is the supergroup id (< 0), titled "Mesa <-id>".
func Group(id int64) *tgbotapi.Chat {
	return &tgbotapi.Chat{ID: id, Type: "supergroup", Title: fmt.Sprintf("Mesa %d", -id)}
}

// Private is u's private chat with the bot.
func Private(u User) *tgbotapi.Chat {
	return &tgbotapi.Chat{ID: u.ID, Type: "private", FirstName: u.Name}
}

// Say makes user (id, name) send text in chat (a group when chat < 0, a
// private chat when chat == user) and returns the message id.
func (s *Server) Say(chat, user int64, name, lang, text string) int {
	u := User{ID: user, Name: name, Lang: lang}
	c := Private(u)
	if chat < 0 {
		c = Group(chat)
	}
	return s.SayIn(c, u, text)
}

// SayIn makes from send text in chat and returns the message id. A text
// starting with "/" carries a bot_command entity, as Telegram adds.
func (s *Server) SayIn(chat *tgbotapi.Chat, from User, text string) int {
	m := s.newMessage(chat, from, text)
	s.Push(tgbotapi.Update{Message: m})
	return m.MessageID
}

// Press makes from press a button of msg (a message the bot sent) with
// callback data; it returns the update id.
func (s *Server) Press(msg Sent, from User, data string) int {
	chat := Group(msg.Chat)
	if msg.Chat > 0 {
		chat = &tgbotapi.Chat{ID: msg.Chat, Type: "private"}
	}
	return s.Push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID: fmt.Sprintf("cb%d", time.Now().UnixNano()), From: from.API(), Data: data,
		Message: &tgbotapi.Message{MessageID: msg.ID, Chat: chat, From: &s.bot, Text: msg.Visible},
	}})
}

// Push queues an update for getUpdates, numbered after the previous one,
// and returns its id. Message updates are recorded for Updates and
// Unanswered.
func (s *Server) Push(u tgbotapi.Update) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue(func(id int) []byte {
		u.UpdateID = id
		b, err := json.Marshal(u)
		if err != nil { // only channels and funcs fail; tgbotapi.Update has none
			panic("telegramtest: " + err.Error())
		}
		if m := u.Message; m != nil && m.Chat != nil {
			s.updates[id] = &Update{ID: id, Chat: m.Chat.ID, MessageID: m.MessageID, Text: m.Text, Pushed: time.Now()}
		}
		return b
	})
}

// queue numbers the next update, queues the JSON that encode makes of it
// for getUpdates and wakes the long polls. Called with s.mu held.
func (s *Server) queue(encode func(id int) []byte) int {
	s.nextUpd++
	s.pending = append(s.pending, encode(s.nextUpd))
	s.cond.Broadcast()
	return s.nextUpd
}

// PushRaw queues a JSON object as an update, numbered like Push (any
// update_id in it is replaced), and returns its id: for updates the Bot
// API library cannot decode.
func (s *Server) PushRaw(object string) (int, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(object), &fields); err != nil {
		return 0, fmt.Errorf("telegramtest: raw update: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue(func(id int) []byte {
		fields["update_id"] = json.RawMessage(strconv.Itoa(id))
		b, _ := json.Marshal(fields)
		return b
	}), nil
}

// SetNextUpdateID numbers the next update id (Telegram restarts at a
// random number after a week without updates).
func (s *Server) SetNextUpdateID(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextUpd = id - 1
}

// Expire drops every update not yet confirmed, as Telegram does 24 hours
// after an update arrives.
func (s *Server) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = nil
}

// Pending is how many updates wait to be confirmed by an offset.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
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
	return filter(s.sent, func(m Sent) bool { return m.Chat == chat })
}

// filter returns, in a new slice, the elements of xs that keep accepts.
func filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
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
	return len(s.CallsOf(method))
}

// CallsOf returns the calls of method, in order.
func (s *Server) CallsOf(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return filter(s.calls, func(c Call) bool { return c.Method == method })
}

// ErrTimeout is returned by WaitSent when the deadline passes.
var ErrTimeout = errors.New("telegramtest: timeout")

// ErrClosed is returned by WaitSent when the server is closed first.
var ErrClosed = errors.New("telegramtest: closed")

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
		if s.closed {
			return fmt.Errorf("%w: %d of %d messages sent", ErrClosed, len(s.sent), n)
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
	calls := map[string]int{}
	for _, c := range s.calls {
		calls[c.Method]++
	}
	fmt.Fprintf(w, "updates %d pending %d sent %d violations %d bad %d calls %v\n", len(s.updates), len(s.pending), len(s.sent), len(s.viol), len(s.badReq), calls)
}
