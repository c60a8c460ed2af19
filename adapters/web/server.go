package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/reply"
)

var funcs = template.FuncMap{}

func (a *Adapter) routes() {
	p := strings.TrimSuffix(a.base.Path, "/")
	m := http.NewServeMux()
	m.HandleFunc("GET "+p+"/{$}", a.shell)
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
	if errors.Is(err, errNotMember) || errors.Is(err, errWrongChat) || errors.Is(err, errUnknownTok) {
		status = http.StatusForbidden
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
	return id, true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// hello tells the page which chat its identity is for.
func (a *Adapter) hello(w http.ResponseWriter, r *http.Request) {
	id, err := a.identify(r)
	if err != nil {
		a.refuse(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"chat": id.token, "lang": a.d.Port.Lang(r.Context(), id.msg.Chat, id.msg.LangHint)})
}

// redeem exchanges a one-time link for a session the page keeps in
// memory (never a cookie: the page may be framed).
func (a *Adapter) redeem(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Link string `json:"link"`
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	rec, err := a.tok.Redeem(r.Context(), in.Link)
	if err != nil {
		a.refuse(w, r, err)
		return
	}
	s, err := a.tok.Session(r.Context(), session{Chat: rec.Chat, User: rec.User, Expires: a.d.Now().Add(a.cfg.SessionTTL).Unix()})
	if err != nil {
		a.log.Error("web session", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	tok, err := a.tok.ChatToken(r.Context(), rec.Chat)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, map[string]string{"session": s, "chat": tok})
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
// it is not one JSON object of the expected shape.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return false
		}
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	return true
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
