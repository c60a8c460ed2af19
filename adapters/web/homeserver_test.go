package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/fold"
	"zaria/core/reply"
	"zaria/storage/sqlite"
)

// quietPort is a core that answers nothing: these tests stop before it.
type quietPort struct{}

func (quietPort) Dispatch(context.Context, core.Message) (*reply.Reply, bool) { return nil, false }
func (quietPort) Press(context.Context, core.Message, reply.Action) (*reply.Reply, bool) {
	return nil, false
}
func (quietPort) Lang(context.Context, core.ChatRef, string) string { return "en" }
func (quietPort) Text(_, key string, _ ...any) string               { return key }

type noSheets struct{}

func (noSheets) Characters(context.Context, core.ChatRef) ([]Character, error) { return nil, nil }
func (noSheets) IsGM(context.Context, core.ChatRef, string) (bool, error)      { return false, nil }

// membersFunc adapts a function to Members.
type membersFunc func(ctx context.Context, chat core.ChatRef, user string) (bool, bool, error)

func (f membersFunc) Member(ctx context.Context, chat core.ChatRef, user string) (bool, bool, error) {
	return f(ctx, chat, user)
}

// newTestAdapter is the companion on a SQLite file, its handler served on
// loopback; d's Port, Sheets and State are filled in.
func newTestAdapter(t *testing.T, cfg Config, d Deps) (*Adapter, *httptest.Server) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if cfg.URL == "" {
		cfg.URL = "https://bot.example.org/app/"
	}
	d.Port, d.Sheets, d.State, d.UserName = quietPort{}, noSheets{}, db, fold.UserName
	a, err := New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return a, srv
}

func post(t *testing.T, url, auth, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// countingListener is a loopback port that counts the connections made
// to it (and closes them).
func countingListener(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port, &n
}

// TestOpenIDServerNameIsNoWayIn: a widget's sign-in names the user's
// homeserver, and the bot connects there. An IP literal, a name that
// leads to loopback (localhost, with the port of a listener on this
// machine), an IPv6 literal: each refused with 401 and no connection
// made; the same name listed in web.matrix_local_servers is connected
// to. Attempts for one room's widget beyond 20 a minute: 429.
func TestOpenIDServerNameIsNoWayIn(t *testing.T) {
	port, conns := countingListener(t)
	in := membersFunc(func(context.Context, core.ChatRef, string) (bool, bool, error) { return true, false, nil })
	now := time.Unix(1_800_000_000, 0)
	a, srv := newTestAdapter(t, Config{}, Deps{Members: map[string]Members{"matrix": in}, Now: func() time.Time { return now }})
	ctx := context.Background()
	chat, err := a.tok.ChatToken(ctx, core.ChatRef{Platform: "matrix", ID: "!room:example.org"})
	if err != nil {
		t.Fatal(err)
	}
	try := func(server string) int {
		b, _ := json.Marshal(map[string]string{"chat": chat, "access_token": "tokentokentoken", "matrix_server_name": server})
		code, _ := post(t, srv.URL+"/app/api/openid", "", string(b))
		return code
	}
	for _, name := range []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "[::ffff:127.0.0.1]:" + port, "127.1:" + port} {
		if code := try(name); code != 401 {
			t.Errorf("%s: %d, want 401", name, code)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connections reached the loopback listener", n)
	}
	for i := 5; i < openIDPerChat; i++ {
		try("localhost:" + port)
	}
	if code := try("localhost:" + port); code != 429 {
		t.Errorf("attempt %d in a minute: %d, want 429", openIDPerChat+1, code)
	}
	now = now.Add(openIDWindow + time.Second)
	if code := try("localhost:" + port); code != 401 {
		t.Errorf("a minute later: %d, want 401", code)
	}

	// The operator's own homeserver on their network: connected to (not
	// TLS here, so still refused).
	b, srv2 := newTestAdapter(t, Config{MatrixLocalServers: []string{"localhost:" + port}}, Deps{Members: map[string]Members{"matrix": in}})
	chat2, _ := b.tok.ChatToken(ctx, core.ChatRef{Platform: "matrix", ID: "!room:example.org"})
	body, _ := json.Marshal(map[string]string{"chat": chat2, "access_token": "tokentokentoken", "matrix_server_name": "localhost:" + port})
	if code, _ := post(t, srv2.URL+"/app/api/openid", "", string(body)); code != 401 {
		t.Errorf("a configured local server that is not one: %d", code)
	}
	if n := conns.Load(); n == 0 {
		t.Error("the configured local server was not connected to")
	}
}

// fakeSRV is a DNS with SRV records only.
type fakeSRV map[string]*net.SRV

func (f fakeSRV) LookupSRV(_ context.Context, service, proto, name string) (string, []*net.SRV, error) {
	if r, ok := f["_"+service+"._"+proto+"."+name]; ok {
		return "", []*net.SRV{r}, nil
	}
	return "", nil, errors.New("no such record")
}

// TestServerNameResolution: the spec's order when the name has no
// .well-known (these names do not resolve): an explicit port as given,
// then _matrix-fed._tcp, then the older _matrix._tcp, then 8448; the
// certificate and Host stay the server name's.
func TestServerNameResolution(t *testing.T) {
	h := &homeservers{dns: fakeSRV{
		"_matrix-fed._tcp.fed.invalid": {Target: "hs1.fed.invalid.", Port: 443},
		"_matrix._tcp.old.invalid":     {Target: "hs2.old.invalid.", Port: 8449},
	}, calls: map[string]callCount{}}
	for _, c := range []struct{ name, base, addr string }{
		{"port.invalid:8008", "https://port.invalid:8008", ""},
		{"fed.invalid", "https://fed.invalid", "hs1.fed.invalid:443"},
		{"old.invalid", "https://old.invalid", "hs2.old.invalid:8449"},
		{"plain.invalid", "https://plain.invalid", "plain.invalid:8448"},
	} {
		got, err := h.resolve(context.Background(), c.name)
		if err != nil || got.base != c.base || got.addr != c.addr {
			t.Errorf("%s: %+v %v, want %s via %q", c.name, got, err, c.base, c.addr)
		}
	}
	if _, err := h.resolve(context.Background(), "10.0.0.1:8448"); !errors.Is(err, errIPLiteral) {
		t.Errorf("an IP literal: %v", err)
	}
}
