package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"maunium.net/go/mautrix/id"

	"zaria/adapters/matrix/dendritetest"
)

// TestWebMatrixWidgetOpenID: the real binary on Dendrite (federation API
// on, for its openid/userinfo). !app tells a GM the widget's URL; a
// widget's real OpenID token from /openid/request_token gives Alice a
// session in her room; a made-up token, a token from a member of another
// server, and a valid token of someone not in the room are refused.
func TestWebMatrixWidgetOpenID(t *testing.T) {
	// The homeserver URL is known once it runs: the override is set then.
	w, base := newMxWebWorld(t, dendritetest.Options{Federation: true})
	w.env = append(w.env, "ZARIA_WEB_MATRIX_OPENID_URL="+w.hs.URL)
	w.start(t, zariaBinary(t))
	room := w.room(t)
	ctx := context.Background()

	cmd := w.say(t, room, "!app")
	waitReplies(t, w.alice, room, w.bot, []id.EventID{cmd}, 60*time.Second)
	body := replyBody(t, w.alice, room, w.bot, cmd)
	m := regexp.MustCompile(`/addwidget ` + regexp.QuoteMeta(base) + `w\?chat=([A-Za-z0-9_-]{22})`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("!app answered %q, no widget URL", body)
	}
	chat := m[1]
	if resp, err := http.Get(base + "w?chat=" + chat); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the widget page: %v %v", resp, err)
	}

	post := func(path, auth, body string) (int, string) { return webPost(t, base, path, auth, body) }
	openid := func(token, server string) (int, string) {
		b, _ := json.Marshal(map[string]string{"chat": chat, "access_token": token, "matrix_server_name": server})
		return post("api/openid", "", string(b))
	}
	tok, err := w.alice.RequestOpenIDToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	code, out := openid(tok.AccessToken, tok.MatrixServerName)
	var s struct{ Session, Chat string }
	if code != 200 || json.Unmarshal([]byte(out), &s) != nil || s.Session == "" || s.Chat != chat {
		t.Fatalf("alice's OpenID token: %d %s", code, out)
	}
	req, _ := http.NewRequest("GET", base+"c/"+chat+"/s/sheets", nil)
	req.Header.Set("Authorization", "Bearer "+s.Session)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("sheets with the widget's session: %v %v", resp, err)
	}

	// Refused: a made-up token; alice's token claimed for another server
	// (the homeserver vouches for its own users only); a token that is
	// not a token; bob's real token (he is not in the room); a room zaria
	// never gave a widget URL for.
	if code, _ := openid("madeupmadeupmadeup", "localhost"); code != 401 {
		t.Errorf("made-up token: %d, want 401", code)
	}
	if code, _ := openid(tok.AccessToken, "evil.example.org"); code != 401 {
		t.Errorf("another server's name: %d, want 401", code)
	}
	if code, _ := openid("a b\nc", "localhost"); code != 401 {
		t.Errorf("a token with spaces: %d, want 401", code)
	}
	if _, err := w.hs.Register(ctx, "bob", "bob-password", false); err != nil {
		t.Fatal(err)
	}
	bob, err := w.hs.Login(ctx, "bob", "bob-password")
	if err != nil {
		t.Fatal(err)
	}
	bt, err := bob.RequestOpenIDToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := openid(bt.AccessToken, bt.MatrixServerName); code != 403 {
		t.Errorf("bob, not in the room: %d, want 403", code)
	}
	b, _ := json.Marshal(map[string]string{"chat": "AAAAAAAAAAAAAAAAAAAAAA", "access_token": tok.AccessToken, "matrix_server_name": "localhost"})
	if code, _ := post("api/openid", "", string(b)); code != 403 {
		t.Errorf("unknown room: %d, want 403", code)
	}
}
