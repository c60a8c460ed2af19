package main

// Security review, as tests. Covered elsewhere and not repeated here:
//   - the webhook secret is enforced: adapters/telegram
//     TestWebhookChecksSecretAndNeverAnswersTwice (no or a wrong
//     X-Telegram-Bot-Api-Secret-Token: refused, never handled) and
//     TestEmulatorWebhook;
//   - per-chat isolation of every store query: storage/storagetest's
//     contract suite ("Isolation", run by storage/sqlite and storage/memory)
//     and core/sheet TestChatIsolation;
//   - Matrix auto-join restricted to allowed servers/users:
//     adapters/matrix TestInvitePolicy against Dendrite;
//   - Matrix credentials never in logs: adapters/matrix TestBinary and
//     TestBadCredentials, and TestE2EMatrixOutage below;
//   - HTML escaping on Matrix (formatted_body): core/reply's HTML renderer
//     tests and the adapters/matrix tests.

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/bench/e2e/botproc"
)

const (
	secretTGToken  = "424242:ZARIA-FAKE-SECRET-TOKEN-do-not-log"
	secretPassword = "ZARIA-FAKE-SECRET-PASSWORD-do-not-log"
	secretPickle   = "ZARIA-FAKE-SECRET-PICKLE-do-not-log"
	secretMXToken  = "syt_ZARIA-FAKE-SECRET-ACCESS-TOKEN-do-not-log"
)

// TestE2ESecretsNeverLogged runs the binary, at debug level, with
// recognizable secrets against servers that are unreachable, that refuse
// the credentials or that fail, and with bad configurations, and looks for
// the secrets (and their URL-escaped forms) in everything it prints.
func TestE2ESecretsNeverLogged(t *testing.T) {
	t.Parallel()
	bin := zariaBinary(t)
	closed, err := botproc.FreeAddr() // nothing listens there
	if err != nil {
		t.Fatal(err)
	}
	// A Bot API that refuses every token, and a homeserver that refuses
	// every login and token and fails everything else.
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.Contains(r.URL.Path, "/_matrix/client/versions"):
			_, _ = w.Write([]byte(`{"versions":["v1.1","v1.6"]}`))
		case strings.Contains(r.URL.Path, "/_matrix/"):
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"errcode":"M_FORBIDDEN","error":"Invalid username or password"}`))
		default:
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
		}
	}))
	t.Cleanup(refuse.Close)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html>bad gateway " + r.URL.String() + "</html>"))
	}))
	t.Cleanup(failing.Close)

	tg := func(api string) []string {
		return []string{"ZARIA_TELEGRAM_TOKEN=" + secretTGToken, "ZARIA_TELEGRAM_API=" + api}
	}
	mx := func(hs string, extra ...string) []string {
		return append([]string{"ZARIA_MATRIX_HOMESERVER=" + hs, "ZARIA_MATRIX_USER=@zaria:localhost",
			"ZARIA_MATRIX_PICKLE_KEY=" + secretPickle}, extra...)
	}
	cases := []struct {
		name string
		env  []string
		args []string
		run  time.Duration // how long to let it run before SIGTERM (0: it must exit by itself)
	}{
		{"telegram unreachable", tg("http://" + closed), nil, 3 * time.Second},
		{"telegram refuses the token", tg(refuse.URL), nil, 0},
		{"telegram 502 with the URL echoed", tg(failing.URL), nil, 3 * time.Second},
		{"telegram bad API URL", tg("ftp://example.org"), nil, 0},
		{"telegram bad limits", append(tg(refuse.URL), "ZARIA_TELEGRAM_LIMITS=chat=x"), nil, 0},
		{"telegram token with bad characters", []string{"ZARIA_TELEGRAM_TOKEN=" + secretTGToken + "/x y", "ZARIA_TELEGRAM_API=http://" + closed}, nil, 0},
		{"matrix unreachable", mx("http://"+closed, "ZARIA_MATRIX_PASSWORD="+secretPassword), nil, 3 * time.Second},
		{"matrix refuses the password", mx(refuse.URL, "ZARIA_MATRIX_PASSWORD="+secretPassword), nil, 3 * time.Second},
		{"matrix refuses the token", mx(refuse.URL, "ZARIA_MATRIX_TOKEN="+secretMXToken), nil, 3 * time.Second},
		{"matrix 502", mx(failing.URL, "ZARIA_MATRIX_PASSWORD="+secretPassword), nil, 3 * time.Second},
		{"matrix bad homeserver URL", mx("not a url", "ZARIA_MATRIX_PASSWORD="+secretPassword), nil, 0},
		{"bad poll timeout", append(tg(refuse.URL), "ZARIA_TELEGRAM_POLL_TIMEOUT=soon"), nil, 0},
		{"bad config file", tg(refuse.URL), []string{"--config", "bad.yaml"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			bad := "telegram:\n  token: " + secretTGToken + "\n  unknown_key: " + secretPassword + "\nmatrix:\n  password: [" + secretPassword + "\n"
			if err := os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte(bad), 0o600); err != nil {
				t.Fatal(err)
			}
			env := append([]string{"ZARIA_DB=" + filepath.Join(dir, "z.db"), "ZARIA_LOG_LEVEL=debug"}, c.env...)
			p, err := botproc.Start(context.Background(), bin, dir, env, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			if c.run > 0 {
				select {
				case <-p.Done():
				case <-time.After(c.run):
					if _, err := p.Stop(10 * time.Second); err != nil {
						t.Error(err)
					}
				}
			} else {
				select {
				case <-p.Done():
				case <-time.After(20 * time.Second):
					p.Kill()
					t.Fatalf("still running after 20 s:\n%s", tail(p.Logs(), 20))
				}
			}
			logs := p.Logs()
			if strings.TrimSpace(logs) == "" {
				t.Fatal("no output at all: the case did not exercise the error paths")
			}
			for _, s := range []string{secretTGToken, secretPassword, secretPickle, secretMXToken} {
				for _, form := range []string{s, strings.ReplaceAll(s, ":", "%3A"), s[len(s)-20:]} {
					if strings.Contains(logs, form) {
						t.Errorf("a secret (%q…) appears in the output:\n%s", s[:10], logs)
					}
				}
			}
			t.Logf("output (%d lines), last: %s", strings.Count(logs, "\n"), tail(logs, 1))
		})
	}
}

// TestE2EHTMLInjection: names and labels typed by users reach Telegram
// escaped, so a user can neither break the bot's HTML (Telegram would
// refuse the message) nor inject links or formatting. The fake parses
// parse_mode=HTML as strictly as Telegram and shows the text users see.
func TestE2EHTMLInjection(t *testing.T) {
	t.Parallel()
	fake := newFake(t, telegramtest.Limits{})
	p := tgBot(t, fake, filepath.Join(t.TempDir(), "zaria.db"))
	const chat = -4242
	cmds := []struct {
		user int64
		text string
		want string // must be visible literally
	}{
		{1, "/pj crear <b>x</b>", "<b>x</b>"},
		{2, "/roll 1d6 # <a href=x>", "<a href=x>"},
		{3, "/roll 2d6 # &amp; <i>&lt; \"q\" '", "&amp; <i>&lt; \"q\""},
		{4, "/pj crear Mal<script>", "Mal<script>"},
		{5, "/pj crear Eve", ""},
		{5, "/pj set nota <a href=\"javascript:x\">hi</a>", ""},
		{5, "/pj ver", "<b>Bob</b> & <i>\nnota <a href=\"javascript:x\">hi</a>"},
	}
	for i, c := range cmds {
		fake.Say(chat, c.user, "<b>Bob</b> & <i>", "es", c.text)
		waitSent(t, fake, i+1, 20*time.Second)
	}
	sent := fake.SentTo(chat)
	if bad := fake.BadRequests(); len(bad) != 0 {
		t.Errorf("Telegram would refuse %d messages: %v", len(bad), bad)
	}
	for i, c := range cmds {
		s := sent[i]
		if s.Params["parse_mode"] != "HTML" {
			t.Errorf("%q: parse_mode %q", c.text, s.Params["parse_mode"])
		}
		if c.want != "" && !strings.Contains(s.Visible, c.want) {
			t.Errorf("%q: the user's text is not shown literally: %q", c.text, s.Visible)
		}
		t.Logf("%q → %q", c.text, s.Visible)
		for _, raw := range []string{"<a ", "<script", "<b>x", "<b>Bob", "<i>hi", "<i>&lt; \"q\""} {
			if strings.Contains(s.Text, raw) {
				t.Errorf("%q: raw HTML %q reached Telegram: %q", c.text, raw, s.Text)
			}
		}
	}
	exactlyOnce(t, fake)
	_ = p
}

// TestSQLOnlyWithParameters reads storage/sqlite's code: every SQL string
// handed to Exec/Query/QueryRow/Prepare is built only from literals and
// constants, never from values (fmt.Sprintf, variables, concatenation with
// non-constants). Values travel as ? parameters. The reviewed exceptions
// have no outside input: a migration's embedded SQL, PRAGMA user_version
// set to a migration's number, and the multi-row INSERT of sheet values
// (constants and ? repeated as many times as rows).
func TestSQLOnlyWithParameters(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root, err := botproc.ModuleRoot(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	bad, checked, err := sqlNotConstant(filepath.Join(root, "storage", "sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("SQL built from a non-constant: %s", b)
	}
	if checked < 30 {
		t.Errorf("only %d SQL calls found: the check is not looking at the right code", checked)
	}
	t.Logf("%d SQL calls checked", checked)

	// The check finds what it should: a planted package with the usual
	// mistakes.
	dir := t.TempDir()
	planted := `package p
import ("context"; "database/sql"; "fmt")
const q = "SELECT 1 FROM t WHERE a = ?"
func f(ctx context.Context, db *sql.DB, name string) {
	db.QueryRowContext(ctx, q, name)
	db.ExecContext(ctx, "DELETE FROM t WHERE a = ?", name)
	db.ExecContext(ctx, fmt.Sprintf("DELETE FROM t WHERE a = '%s'", name))
	db.QueryContext(ctx, "SELECT * FROM t WHERE a = '"+name+"'")
	s := "SELECT 2"
	db.Query(s)
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	bad, checked, err = sqlNotConstant(dir)
	if err != nil || checked != 5 || len(bad) != 3 {
		t.Errorf("planted code: %d calls checked, flagged %q (%v); want 5 checked, 3 flagged", checked, bad, err)
	}
}

// sqlNotConstant parses the non-test Go files of dir and returns the SQL
// arguments of Exec/Query/QueryRow/Prepare calls not made of literals and
// constants only (minus the reviewed exceptions), and how many calls it saw.
func sqlNotConstant(dir string) (bad []string, checked int, err error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return nil, 0, err
	}
	reviewed := map[string]bool{
		`m.sql`: true, // embedded migration file (migrations/NNN_*.sql)
		`fmt.Sprintf("PRAGMA user_version = %d", m.version)`: true, // integer from the migration's file name
		`valuesSQL(len(w.args) / valueCols)`:                 true, // constant text and ? repeated (importer.go)
		`upsertStatesSQL(n)`:                                 true, // constant text and ? repeated (statebatch.go)
		`deleteStatesSQL(n)`:                                 true, // constant text and ? repeated (statebatch.go)
	}
	methods := map[string]int{"Exec": 0, "Query": 0, "QueryRow": 0, "Prepare": 0,
		"ExecContext": 1, "QueryContext": 1, "QueryRowContext": 1, "PrepareContext": 1}
	for _, pkg := range pkgs {
		consts := map[string]bool{}
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
					for _, s := range g.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							consts[n.Name] = true
						}
					}
				}
			}
		}
		var constant func(e ast.Expr) bool
		constant = func(e ast.Expr) bool {
			switch e := e.(type) {
			case *ast.BasicLit:
				return e.Kind == token.STRING
			case *ast.Ident:
				return consts[e.Name]
			case *ast.ParenExpr:
				return constant(e.X)
			case *ast.BinaryExpr:
				return e.Op == token.ADD && constant(e.X) && constant(e.Y)
			}
			return false
		}
		for name, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				i, ok := methods[sel.Sel.Name]
				if !ok || len(call.Args) <= i {
					return true
				}
				checked++
				arg := call.Args[i]
				var b strings.Builder
				_ = printer.Fprint(&b, fset, arg)
				if constant(arg) || reviewed[b.String()] {
					return true
				}
				bad = append(bad, fmt.Sprintf("%s:%d: %s", filepath.Base(name), fset.Position(arg.Pos()).Line, b.String()))
				return true
			})
		}
	}
	return bad, checked, nil
}
