package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
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
	ctx := context.Background()
	// Alice's name in the room is her display name, not her Matrix ID.
	if err := w.alice.SetDisplayName(ctx, "Alice Liddell"); err != nil {
		t.Fatal(err)
	}
	room := w.room(t)

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
	// A roll from the widget is headed with her name in the room, as the
	// room's own messages name her.
	if code, out := post("c/"+chat+"/do", "Bearer "+s.Session, `{"op":"roll","n":1,"sides":6}`); code != 200 || !strings.Contains(out, `"posted":true`) {
		t.Fatalf("the widget's roll: %d %s", code, out)
	}
	waitUntil(t, 30*time.Second, "the widget's roll in the room, headed «📱 Alice Liddell: /roll 1d6»", func() bool {
		msgs, err := w.alice.Messages(ctx, room, "", "", mautrix.DirectionBackward, nil, 20)
		if err != nil {
			return false
		}
		for _, ev := range msgs.Chunk {
			_ = ev.Content.ParseRaw(ev.Type)
			if m := ev.Content.AsMessage(); ev.Sender == w.bot && m != nil && strings.Contains(m.Body, "📱 Alice Liddell: /roll 1d6") {
				return true
			}
		}
		return false
	})

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

// TestWebMatrixBotAddsWidget: the real binary on Dendrite. Alice, who made
// the room (power 100), asks !app widget while the bot has power 0: the
// bot says which power level it needs and sends nothing. Raised to 50, it
// adds the widget: the room's state has im.vector.modular.widgets with
// the companion's widget URL (the one !app gives for /addwidget). Bob, a
// player, is refused with the core's message and the widget stays; Alice
// removes it.
func TestWebMatrixBotAddsWidget(t *testing.T) {
	w, base := newMxWebWorld(t, dendritetest.Options{})
	w.start(t, zariaBinary(t))
	room := w.room(t)
	ctx := context.Background()
	widgets := event.Type{Type: "im.vector.modular.widgets", Class: event.StateEventType}
	widget := func() map[string]any {
		var c map[string]any
		if err := w.alice.StateEvent(ctx, room, widgets, "zaria_table", &c); err != nil {
			return nil
		}
		return c
	}
	ask := func(cli *mautrix.Client, text string) string {
		t.Helper()
		r, err := cli.SendText(ctx, room, text)
		if err != nil {
			t.Fatal(err)
		}
		waitReplies(t, w.alice, room, w.bot, []id.EventID{r.EventID}, 60*time.Second)
		return replyBody(t, w.alice, room, w.bot, r.EventID)
	}

	body := ask(w.alice, "!app")
	m := regexp.MustCompile(`/addwidget (` + regexp.QuoteMeta(base) + `w\?chat=[A-Za-z0-9_-]{22}&theme=\$org\.matrix\.msc2873\.client_theme)`).FindStringSubmatch(body)
	if m == nil || !strings.Contains(body, "have the bot add it: !app widget") {
		t.Fatalf("!app answered %q", body)
	}
	url := m[1]

	if body := ask(w.alice, "!app widget"); !strings.Contains(body, "that needs power level 50 and mine is 0") {
		t.Errorf("!app widget with the bot at power 0: %q", body)
	}
	if c := widget(); len(c) > 0 {
		t.Fatalf("a widget was added without the power: %v", c)
	}

	var pl event.PowerLevelsEventContent
	if err := w.alice.StateEvent(ctx, room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	pl.SetUserLevel(w.bot, 50)
	if _, err := w.alice.SendStateEvent(ctx, room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	if body := ask(w.alice, "!app widget"); !strings.Contains(body, "The table is now a widget of this room") {
		t.Errorf("!app widget at power 50: %q", body)
	}
	c := widget()
	if c["url"] != url || c["type"] != "m.custom" || c["id"] != "zaria_table" || c["creatorUserId"] != w.bot.String() || c["name"] == "" {
		t.Fatalf("the widget's state event: %v, want the URL %s", c, url)
	}

	if _, err := w.hs.Register(ctx, "bob", "bob-password", false); err != nil {
		t.Fatal(err)
	}
	bob, err := w.hs.Login(ctx, "bob", "bob-password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.alice.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: bob.UserID}); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	if body := ask(bob, "!app widget off"); !strings.Contains(body, "Only a GM can add or remove the room's widget") {
		t.Errorf("bob's !app widget off: %q", body)
	}
	if c := widget(); c["url"] != url {
		t.Fatalf("after bob's refused removal the widget is %v", c)
	}
	if body := ask(w.alice, "!app widget off"); !strings.Contains(body, "widget has been removed") {
		t.Errorf("!app widget off: %q", body)
	}
	if c := widget(); len(c) != 0 {
		t.Errorf("after the removal the widget is %v", c)
	}
}
