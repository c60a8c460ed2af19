package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/reply"
)

var funcs = template.FuncMap{"field": field, "join": strings.Join, "span": span}

// span is from, from+1, … to: a rules table's rows or columns.
func span(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func (a *Adapter) routes() {
	p := strings.TrimSuffix(a.base.Path, "/")
	m := http.NewServeMux()
	m.HandleFunc("GET "+p+"/{$}", a.miniApp)
	m.HandleFunc("GET "+p+"/l/{tok}", a.shell)
	m.HandleFunc("GET "+p+"/w", a.shell)
	m.HandleFunc("POST "+p+"/api/openid", a.openID)
	m.HandleFunc("GET "+p+"/static/{file}", a.static)
	m.HandleFunc("POST "+p+"/api/hello", a.hello)
	m.HandleFunc("POST "+p+"/api/redeem", a.redeem)
	m.HandleFunc("GET "+p+"/c/{tok}/s/{screen}", a.screen)
	m.HandleFunc("POST "+p+"/c/{tok}/do", a.do)
	m.HandleFunc("POST "+p+"/c/{tok}/chart", a.chart)
	a.mux = http.NewServeMux()
	a.mux.Handle("/", a.guard(m))
}

// guard sets the security headers, bounds the body and never lets a
// panic take the process down.
func (a *Adapter) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				a.log.Error("web handler panic", "path", r.URL.Path, "panic", v)
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		a.secure(w)
		r.Body = http.MaxBytesReader(w, r.Body, a.cfg.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// shellData is the page's frame: texts before the chat is known, in the
// default language (the screens come in the chat's).
type shellData struct {
	Lang       string
	TelegramJS string
	Base       string
	T          func(key string, kv ...any) string
}

// miniApp is the shell at the Mini App's URL: in a frame (Telegram Web K
// and A; the browser says so in Sec-Fetch-Dest), with the policy that
// lets Telegram's script append its <style> element.
func (a *Adapter) miniApp(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Sec-Fetch-Dest")
	if r.Header.Get("Sec-Fetch-Dest") == "iframe" {
		w.Header().Set("Content-Security-Policy", a.cspFramed)
	}
	a.shell(w, r)
}

func (a *Adapter) shell(w http.ResponseWriter, r *http.Request) {
	lang := a.d.Port.Lang(r.Context(), core.ChatRef{}, r.URL.Query().Get("lang"))
	w.Header().Set("Cache-Control", "no-store")
	a.render(w, "shell.html", shellData{Lang: lang, TelegramJS: a.cfg.TelegramJS, Base: a.base.Path,
		T: a.texts(lang)})
}

func (a *Adapter) texts(lang string) func(string, ...any) string {
	return func(key string, kv ...any) string { return a.d.Port.Text(lang, key, kv...) }
}

func (a *Adapter) render(w http.ResponseWriter, name string, data any) {
	var b bytes.Buffer
	if err := a.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		a.log.Error("web template", "template", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

func (a *Adapter) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	var ctype string
	switch path.Ext(name) {
	case ".js":
		ctype = "text/javascript; charset=utf-8"
	case ".css":
		ctype = "text/css; charset=utf-8"
	default:
		http.NotFound(w, r)
		return
	}
	data, err := fs.ReadFile(assets, "assets/"+name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// refuse answers a request whose identity does not hold.
func (a *Adapter) refuse(w http.ResponseWriter, r *http.Request, err error) {
	a.log.Info("web request refused", "path", r.URL.Path, "why", err.Error())
	status := http.StatusUnauthorized
	switch {
	case errors.Is(err, errNotMember) || errors.Is(err, errWrongChat) || errors.Is(err, errUnknownTok) || errors.Is(err, errNoPlatform):
		status = http.StatusForbidden
	case errors.Is(err, errBusy) || errors.Is(err, errOpenIDBusy):
		status = http.StatusTooManyRequests
	}
	http.Error(w, http.StatusText(status), status)
}

var errWrongChat = errors.New("web: the path names another chat")

// caller identifies the request and checks that the path's chat token is
// the identity's.
func (a *Adapter) caller(w http.ResponseWriter, r *http.Request) (who, bool) {
	id, err := a.identify(r)
	if err == nil && r.PathValue("tok") != id.token {
		err = errWrongChat
	}
	if err != nil {
		a.refuse(w, r, err)
		return who{}, false
	}
	// A session in use is renewed: the page takes the new token.
	if id.sess != nil {
		if s, err := a.renew(r.Context(), *id.sess, false); err == nil && s != "" {
			w.Header().Set("Zaria-Session", s)
		}
	}
	return id, true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// hello tells the page which chat its identity is for, and gives it the
// session it carries from then on: Telegram's initData is traded for one
// (Telegram never signs it again while the app stays open), a session is
// renewed.
func (a *Adapter) hello(w http.ResponseWriter, r *http.Request) {
	id, err := a.identify(r)
	if err != nil {
		a.refuse(w, r, err)
		return
	}
	var s string
	if id.sess == nil {
		s, err = a.startSession(r.Context(), id.msg, id.token)
	} else {
		s, err = a.renew(r.Context(), *id.sess, true)
	}
	if err != nil {
		a.log.Error("web session", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, helloResp{Chat: id.token, Lang: a.d.Port.Lang(r.Context(), id.msg.Chat, id.msg.LangHint),
		Session: s, Renew: int(a.cfg.SessionRenew / time.Second)})
}

// helloResp is what the page learns of its session. Renew is the
// session token's life in seconds: the page renews it well before.
type helloResp struct {
	Chat    string `json:"chat"`
	Lang    string `json:"lang,omitempty"`
	Session string `json:"session,omitempty"`
	Renew   int    `json:"renew,omitempty"`
}

// startSession opens a page's session for msg's sender in msg's chat (tok
// the chat token the page names): one token of web.session_renew.
func (a *Adapter) startSession(ctx context.Context, msg core.Message, tok string) (string, error) {
	now := a.d.Now()
	return a.tok.Session(ctx, session{Chat: msg.Chat, User: msg.From, Thread: msg.Thread, Token: tok,
		Lang: msg.LangHint, Start: now.Unix(), Expires: now.Add(a.cfg.SessionRenew).Unix()})
}

// renew gives s a new token of web.session_renew, never past its start
// plus web.session_ttl; unless always, only once half of s's life is
// spent ("" then: keep s).
func (a *Adapter) renew(ctx context.Context, s session, always bool) (string, error) {
	now := a.d.Now()
	if !always && time.Unix(s.Expires, 0).Sub(now) > a.cfg.SessionRenew/2 {
		return "", nil
	}
	start := s.Start
	if start == 0 {
		start = s.Expires - int64(a.cfg.SessionTTL/time.Second)
	}
	s.Start = start
	s.Expires = min(now.Add(a.cfg.SessionRenew).Unix(), start+int64(a.cfg.SessionTTL/time.Second))
	return a.tok.Session(ctx, s)
}

// redeem exchanges a one-time link for a session the page keeps in
// memory (never a cookie: the page may be framed).
func (a *Adapter) redeem(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Link string `json:"link"`
	}
	if !readJSON(w, r, &in) {
		return
	}
	rec, err := a.tok.Redeem(r.Context(), in.Link)
	if err != nil {
		a.refuse(w, r, err)
		return
	}
	tok, err := a.tok.ChatToken(r.Context(), rec.Chat)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	s, err := a.startSession(r.Context(), core.Message{Chat: rec.Chat, From: rec.User}, tok)
	if err != nil {
		a.log.Error("web session", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, helloResp{Session: s, Chat: tok, Renew: int(a.cfg.SessionRenew / time.Second)})
}

// word checks a name the page sends: one word of at most 64 characters,
// no spaces, no control or format characters, not a command.
func word(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 64 || !utf8.ValidString(s) || s[0] == '/' || s[0] == '!' || s[0] == '@' {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// text checks a value the page sends: one line of at most 200 characters.
func text(s string) bool {
	if strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > 200 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

func signed(n int) string {
	if n < 0 {
		return strconv.Itoa(n)
	}
	return "+" + strconv.Itoa(n)
}

// readJSON decodes a bounded body; false (and 400 or 413 answered) when
// it is not one JSON object of the expected shape: every key exactly one
// of v's (encoding/json would take "NAME" for "name"), none twice
// (encoding/json would keep the last), nothing after it.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return false
		}
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if !strictKeys(data, jsonNames(v)) || dec.Decode(v) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	return true
}

// jsonNames are the keys of the struct v points to, as its tags spell them.
func jsonNames(v any) map[string]bool {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	names := map[string]bool{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
	return names
}

// strictKeys walks a JSON document: false when an object has a key twice,
// or the outer object a key not in names (nil: any).
func strictKeys(data []byte, names map[string]bool) bool {
	type level struct {
		obj, wantKey bool
		seen         map[string]bool
	}
	var stack []*level
	done := func() { // a value ended
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return len(stack) == 0
		}
		if err != nil {
			return false
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			top := stack[n-1]
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				done()
				continue
			}
			k, ok := tok.(string)
			if !ok || top.seen[k] || (n == 1 && names != nil && !names[k]) {
				return false
			}
			top.seen[k] = true
			top.wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{obj: true, wantKey: true, seen: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &level{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			done()
		}
	}
}

// spanJSON is a span of a reply line as the page draws it (textContent,
// never HTML).
type spanJSON struct {
	T string `json:"t"`
	S string `json:"s,omitempty"` // "b", "i", "c" or ""
}

func linesJSON(lines []reply.Line) [][]spanJSON {
	out := make([][]spanJSON, 0, len(lines))
	for _, l := range lines {
		row := make([]spanJSON, 0, len(l))
		for _, s := range l {
			st := ""
			switch s.Style {
			case reply.Bold:
				st = "b"
			case reply.Italic:
				st = "i"
			case reply.Code:
				st = "c"
			}
			row = append(row, spanJSON{T: s.Text, S: st})
		}
		out = append(out, row)
	}
	return out
}
