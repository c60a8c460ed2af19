package matrix

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSecretsRedacted: a homeserver that quotes secrets back in its error
// bodies — the login request body (the password), the Authorization header
// (the access token), anything else (the pickle key) — gets those errors
// logged with the secrets replaced, on every path: a login retried, a sync
// retried, a reply refused, and the error Run returns.
func TestSecretsRedacted(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	planted := map[string]int{}
	plant := func(kind string) bool {
		mu.Lock()
		defer mu.Unlock()
		planted[kind]++
		return planted[kind] == 1
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/login") && plant("login"):
			body, _ := io.ReadAll(r.Body)
			quoteBack(w, http.StatusBadGateway, "M_UNKNOWN", "upstream rejected request body "+string(body))
			return
		case strings.HasSuffix(r.URL.Path, "/sync") && auth != "" && plant("sync"):
			quoteBack(w, http.StatusInternalServerError, "M_UNKNOWN", "bad header Authorization: "+auth+" (pickle "+pickleKey+")")
			return
		case r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") && plant("send"):
			quoteBack(w, http.StatusForbidden, "M_FORBIDDEN", "token "+strings.TrimPrefix(auth, "Bearer ")+" may not send; access_token="+url.QueryEscape(strings.TrimPrefix(auth, "Bearer ")))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	b := startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL, crypto: true})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	refused := alice.say(room, "!zaria 4+2 dc15") // its reply is refused (403 quoting the token)
	deadline := time.Now().Add(wait)
	for b.log.count("deliver reply") == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	c := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("reply after the planted errors", wait, replyTo(botID(), c))
	token := b.a.auth.current()
	logs := b.log.String()
	for _, want := range []string{"login failing", "sync failing", "deliver reply"} {
		if !strings.Contains(logs, want) {
			t.Errorf("no %q line: the planted error was not logged, the test proves nothing:\n%s", want, logs)
		}
	}
	if n := strings.Count(logs, redacted); n < 4 {
		t.Errorf("%d redactions in the log, want at least 4 (password, token twice, pickle key):\n%s", n, logs)
	}
	for name, secret := range map[string]string{"password": botPassword, "pickle key": pickleKey, "access token": token, "escaped token": url.QueryEscape(token)} {
		if strings.Contains(logs, secret) {
			t.Errorf("the %s appears in the log", name)
		}
	}
	if n := len(alice.matching(replyTo(botID(), refused))); n != 0 {
		t.Errorf("the refused reply shows %d times", n)
	}
	b.stop()

	// The error Run returns (main logs it with its own logger) is scrubbed too.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		quoteBack(w, http.StatusForbidden, "M_FORBIDDEN", "invalid credentials in "+string(body))
	}))
	t.Cleanup(bad.Close)
	a, err := New(Config{Homeserver: bad.URL, User: botName, Password: botPassword, CryptoDB: t.TempDir() + "/m.db"}, newRouter(t), &memState{m: map[string]string{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	err = a.Run(ctx)
	if err == nil || strings.Contains(err.Error(), botPassword) || !strings.Contains(err.Error(), redacted) {
		t.Fatalf("Run against a server quoting the password = %v, want an error with the password redacted", err)
	}
}

func quoteBack(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"errcode":%q,"error":%q}`, code, msg)
}
