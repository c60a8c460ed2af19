package matrix

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestSessionRevokedEncrypted: the bot's device is logged out behind its
// back (Element's session manager, an admin): the homeserver deletes the
// device with its keys. The bot logs in again on the same device id; a new
// user's unverified device in an encrypted room then still gets an answer
// it can decrypt, so the bot published its device keys again.
func TestSessionRevokedEncrypted(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	b := startBot(t, hs, newRouter(t), botOpts{crypto: true})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), c))

	other, err := hs.Login(context.Background(), botName, botPassword)
	if err != nil {
		t.Fatal(err)
	}
	other.AccessToken = b.a.auth.current()
	if _, err := other.Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(wait)
	for b.log.count("logging in again") == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// A new user, on a fresh unverified device, joins and asks.
	carol := newUser(t, hs, "carol", true)
	if _, err := alice.cli.InviteUser(context.Background(), room, &inviteReq{UserID: carol.cli.UserID}); err != nil {
		t.Fatal(err)
	}
	if _, err := carol.cli.JoinRoomByID(context.Background(), room); err != nil {
		t.Fatal(err)
	}
	carol.waitJoined(room, botID())
	time.Sleep(500 * time.Millisecond)
	c2 := carol.say(room, "!zaria 2+2 dc10")
	got := carol.waitFor("reply after the device was logged out", wait, replyTo(botID(), c2))
	if !got.Mautrix.WasEncrypted {
		t.Errorf("reply not encrypted")
	}
	alice.waitFor("reply on alice's device", wait, replyTo(botID(), c2))
}

// TestSendDuringSoftLogout: Synapse ends the bot's session while a reply
// (or the join of a room it is invited to) is on its way: 401
// M_UNKNOWN_TOKEN, soft_logout true, to that request and to every later
// one with the old token, through a proxy. Neither is lost: each waits for
// the sync loop to log in again and goes out once, a reply with the same
// transaction id.
func TestSendDuringSoftLogout(t *testing.T) {
	for _, trigger := range []string{"/send/m.room.message/", "/join"} {
		t.Run(strings.Trim(trigger, "/"), func(t *testing.T) {
			hs := startServer(t, optsNone)
			alice := newUser(t, hs, "alice", false)
			up, _ := url.Parse(hs.URL)
			proxy := httputil.NewSingleHostReverseProxy(up)
			var mu sync.Mutex
			expired := ""
			var sends []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth := r.Header.Get("Authorization")
				mu.Lock()
				if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") {
					sends = append(sends, r.URL.Path)
				}
				if expired == "" && r.Method != http.MethodGet && strings.Contains(r.URL.Path, trigger) {
					expired = auth
				}
				refuse := expired != "" && auth == expired
				mu.Unlock()
				if refuse {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusUnauthorized)
					_, _ = w.Write([]byte(`{"errcode":"M_UNKNOWN_TOKEN","error":"Access token has expired","soft_logout":true}`))
					return
				}
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			b := startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
			room := alice.createRoom(false, botID())
			alice.waitJoined(room, botID())
			cmd := alice.say(room, "!zaria 4+2 dc15")
			alice.waitFor("reply after the session ended", wait, replyTo(botID(), cmd))
			time.Sleep(300 * time.Millisecond)
			if n := len(alice.matching(replyTo(botID(), cmd))); n != 1 {
				t.Errorf("reply shown %d times, want once", n)
			}
			mu.Lock()
			defer mu.Unlock()
			if expired == "" {
				t.Fatalf("the proxy never ended the session: the test proves nothing")
			}
			if trigger == "/send/m.room.message/" && (len(sends) < 2 || sends[0] != sends[1]) {
				t.Errorf("sends %v: want the refused one sent again with the same transaction id", sends)
			}
			if n := b.log.count("logging in again"); n != 1 {
				t.Errorf("logged in again %d times, want once:\n%s", n, b.log)
			}
			if n := b.log.count("deliver reply") + b.log.count("join room"); n != 0 {
				t.Errorf("a delivery or join failed:\n%s", b.log)
			}
		})
	}
}

// TestLeavesEmptyRoom: a direct room (is_direct invite, as Element sends
// it) is answered as private; when alice leaves it the bot leaves too and
// forgets it. In a room where someone is still there (or invited) the bot
// stays.
func TestLeavesEmptyRoom(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	bob := newUser(t, hs, "bob", false)
	b := startBot(t, hs, newRouter(t), botOpts{})
	ctx := context.Background()
	resp, err := alice.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{botID()}})
	if err != nil {
		t.Fatal(err)
	}
	dm := resp.RoomID
	alice.waitJoined(dm, botID())
	c := alice.say(dm, "!zaria 4+2 dc15")
	alice.waitFor("reply in the direct room", wait, replyTo(botID(), c))
	if v, _, _ := b.st.State(ctx, keyDirect(dm)); v != "1" {
		t.Errorf("the is_direct invite was not recorded: %q", v)
	}

	group := alice.createRoom(false, botID(), bob.cli.UserID)
	alice.waitJoined(group, botID())
	if _, err := bob.cli.JoinRoomByID(ctx, group); err != nil {
		t.Fatal(err)
	}
	alice.waitJoined(group, bob.cli.UserID)
	invited := alice.createRoom(false, botID(), bob.cli.UserID) // bob invited, not joined
	alice.waitJoined(invited, botID())

	for _, r := range []id.RoomID{dm, group, invited} {
		if _, err := alice.cli.LeaveRoom(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	joined := func() map[id.RoomID]bool {
		resp, err := b.a.cli.JoinedRooms(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := map[id.RoomID]bool{}
		for _, r := range resp.JoinedRooms {
			m[r] = true
		}
		return m
	}
	deadline := time.Now().Add(wait)
	for joined()[dm] && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // the other two had their chance to go wrong
	j := joined()
	if j[dm] {
		t.Errorf("the bot stayed in the direct room alice left")
	}
	if !j[group] || !j[invited] {
		t.Errorf("the bot left a room with someone still in it (or invited): group %v, invited %v", j[group], j[invited])
	}
	c2 := bob.say(group, "!zaria 2+2 dc10")
	bob.waitFor("reply to bob", wait, replyTo(botID(), c2))
	if n := b.log.count("removed from room"); n != 0 {
		t.Errorf("leaving on its own was logged as being removed:\n%s", b.log)
	}
}

// TestLateRoomKey: alice's client sends an encrypted command in a new
// Megolm session, and the room key (an Olm to-device message) reaches the
// bot 1.5 s after the command does (a proxy holds the bot's to-device
// events back). The bot waits for the key instead of giving up, answers
// once, without a 🔒, and alice decrypts the reply. "restart": the bot is
// stopped while it waits and started again; the new run still gets the
// command (the sync token was not saved past it) and its key (alice's
// client shares it again when the bot asks, or the proxy lets it go).
func TestLateRoomKey(t *testing.T) {
	for _, restart := range []bool{false, true} {
		name := "late"
		if restart {
			name = "restart"
		}
		t.Run(name, func(t *testing.T) { testLateRoomKey(t, restart) })
	}
}

func testLateRoomKey(t *testing.T, restart bool) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	armed := false
	var held []any
	var release time.Time
	heldOnce := false
	base := proxy.Director
	proxy.Director = func(r *http.Request) {
		base(r)
		r.Header.Del("Accept-Encoding")
		mu.Lock()
		if len(held) > 0 && strings.HasSuffix(r.URL.Path, "/sync") {
			q := r.URL.Query() // poll quickly while a key is held
			q.Set("timeout", "200")
			r.URL.RawQuery = q.Encode()
		}
		mu.Unlock()
	}
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/sync") || resp.StatusCode != http.StatusOK {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err == nil {
			mu.Lock()
			td, _ := m["to_device"].(map[string]any)
			evs, _ := td["events"].([]any)
			switch {
			case armed && !heldOnce && len(evs) > 0:
				held, heldOnce, release = evs, true, time.Now().Add(1500*time.Millisecond)
				if restart {
					release = time.Now().Add(time.Hour) // until the new run
				}
				td["events"] = []any{}
			case len(held) > 0 && time.Now().After(release):
				if td == nil {
					td = map[string]any{}
					m["to_device"] = td
				}
				td["events"] = append(held, evs...)
				held = nil
			}
			mu.Unlock()
			if b, err := json.Marshal(m); err == nil {
				body = b
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	b := startBot(t, hs, newRouter(t), botOpts{crypto: true, homeURL: srv.URL, dir: dir})
	room := alice.createRoom(true, botID())
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c1 := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("first reply", wait, replyTo(botID(), c1))

	// A new session: its key goes out with the next message.
	mach := alice.cli.Crypto.(*cryptohelper.CryptoHelper).Machine()
	if err := mach.CryptoStore.RemoveOutboundGroupSession(context.Background(), room); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	armed = true
	mu.Unlock()
	start := time.Now()
	c2 := alice.say(room, "!zaria 2+2 dc10")
	if restart {
		deadline := time.Now().Add(wait)
		for {
			mu.Lock()
			h := heldOnce
			mu.Unlock()
			if h || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond) // the bot has the command and waits for its key
		t.Logf("stopping at %v", time.Since(start))
		b.stop()
		b = startBot(t, hs, newRouter(t), botOpts{crypto: true, homeURL: srv.URL, dir: dir})
		mu.Lock()
		release = time.Now().Add(500 * time.Millisecond)
		mu.Unlock()
		t.Logf("restarted at %v", time.Since(start))
	}
	got := alice.waitFor("reply to the command whose key came late", 40*time.Second, replyTo(botID(), c2))
	t.Logf("answered %v after the command", time.Since(start))
	mu.Lock()
	if !heldOnce {
		t.Errorf("the proxy never held a room key back: the test proves nothing")
	}
	mu.Unlock()
	if !got.Mautrix.WasEncrypted {
		t.Errorf("reply not encrypted")
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(alice.matching(replyTo(botID(), c2))); n != 1 {
		t.Errorf("answered %d times, want once", n)
	}
	if n := len(alice.matching(func(e *event.Event) bool {
		return e.Sender == botID() && e.Type == event.EventReaction && e.Content.AsReaction().RelatesTo.Key == lockedKey
	})); n != 0 {
		t.Errorf("the bot marked %d messages 🔒 although the key came", n)
	}
	_ = b
}

// TestJoinRoomWithHistory: the bot is invited to an encrypted room with
// 150 messages of history (more than one sync's timeline, so the
// homeserver marks it limited). Joining, it fetches none of that history
// (it is never answered) and asks nobody for the keys of messages from
// before it joined; the first command after the join is answered.
func TestJoinRoomWithHistory(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", true)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	var pages, keyRequests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/messages"):
			pages++
		case strings.Contains(r.URL.Path, "/sendToDevice/m.room_key_request/"):
			keyRequests++
		}
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	b := startBot(t, hs, newRouter(t), botOpts{crypto: true, homeURL: srv.URL})
	room := alice.createRoom(true)
	for i := range 150 {
		alice.say(room, "history "+strconv.Itoa(i))
	}
	time.Sleep(500 * time.Millisecond) // the bot's sync is idle again
	mu.Lock()
	pages0 := pages
	mu.Unlock()
	if _, err := alice.cli.InviteUser(context.Background(), room, &inviteReq{UserID: botID()}); err != nil {
		t.Fatal(err)
	}
	alice.waitJoined(room, botID())
	time.Sleep(200 * time.Millisecond)
	c := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply after the join", wait, replyTo(botID(), c))
	time.Sleep(4 * time.Second) // mautrix asks for missing keys after 3 s
	mu.Lock()
	defer mu.Unlock()
	if pages-pages0 > 1 {
		t.Errorf("the bot fetched %d pages of history when it joined, want at most one:\n%s", pages-pages0, b.log)
	}
	if keyRequests != 0 {
		t.Errorf("the bot sent %d key requests for history from before it joined, want none", keyRequests)
	}
}

// TestSendRateLimitedHeaderOnly: a homeserver of spec v1.10+ may give the
// wait only in the Retry-After header (seconds), with no retry_after_ms in
// the body. The bot waits that long and the reply shows once.
func TestSendRateLimitedHeaderOnly(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	up, _ := url.Parse(hs.URL)
	proxy := httputil.NewSingleHostReverseProxy(up)
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/m.room.message/") {
			mu.Lock()
			times = append(times, time.Now())
			first := len(times) == 1
			mu.Unlock()
			if first {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Retry-After", "2")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests"}`))
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	startBot(t, hs, newRouter(t), botOpts{homeURL: srv.URL})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	cmd := alice.say(room, "!zaria 4+2 dc15")
	alice.waitFor("reply", wait, replyTo(botID(), cmd))
	time.Sleep(200 * time.Millisecond)
	if n := len(alice.matching(replyTo(botID(), cmd))); n != 1 {
		t.Errorf("reply shown %d times, want once", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) < 2 {
		t.Fatalf("%d sends, want the limited one retried", len(times))
	}
	if d := times[1].Sub(times[0]); d < 2*time.Second {
		t.Errorf("retried after %v, want at least the Retry-After of 2 s", d)
	}
}

// TestThreadReplyAndEdit: a command in a thread (as Element sends it:
// rel_type m.thread, is_falling_back true with in_reply_to the thread's
// latest event) is answered in the thread, as a genuine reply to the
// command (in_reply_to the command, not falling back), mentioning the
// sender. With RerunEdits an edit of it (m.replace, whose new content
// has no thread) is answered once, in the same thread.
func TestThreadReplyAndEdit(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) { c.RerunEdits = true }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	root := alice.say(room, "tonight's session")
	cmd := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 4+2 dc15",
		RelatesTo: &event.RelatesTo{Type: event.RelThread, EventID: root, IsFallingBack: true, InReplyTo: &event.InReplyTo{EventID: root}}})
	check := func(what string, got *event.Event, to id.EventID) {
		t.Helper()
		c := got.Content.AsMessage()
		rel := c.RelatesTo
		if rel == nil || rel.Type != event.RelThread || rel.EventID != root {
			t.Errorf("%s: relation %+v, want the thread of %s", what, rel, root)
			return
		}
		if rel.InReplyTo == nil || rel.InReplyTo.EventID != to || rel.IsFallingBack {
			t.Errorf("%s: in_reply_to %+v falling back %v, want a genuine reply to %s", what, rel.InReplyTo, rel.IsFallingBack, to)
		}
		if c.MsgType != event.MsgNotice || c.Format != event.FormatHTML || c.Body == "" || strings.Contains(c.Body, "<") {
			t.Errorf("%s: msgtype %s format %s body %q, want an m.notice with HTML and a plain body", what, c.MsgType, c.Format, c.Body)
		}
		if c.Mentions == nil || len(c.Mentions.UserIDs) != 1 || c.Mentions.UserIDs[0] != alice.cli.UserID {
			t.Errorf("%s: m.mentions %+v, want alice", what, c.Mentions)
		}
	}
	check("reply in the thread", alice.waitFor("reply in the thread", wait, replyTo(botID(), cmd)), cmd)

	edit := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "* !zaria 4+2 dc18",
		NewContent: &event.MessageEventContent{MsgType: event.MsgText, Body: "!zaria 4+2 dc18"},
		RelatesTo:  &event.RelatesTo{Type: event.RelReplace, EventID: cmd}})
	check("answer to the edit", alice.waitFor("answer to the edit", wait, replyTo(botID(), edit)), edit)
	marker := alice.say(room, "!zaria 1+1 dc5")
	alice.waitFor("marker", wait, replyTo(botID(), marker))
	if n, m := len(alice.matching(replyTo(botID(), cmd))), len(alice.matching(replyTo(botID(), edit))); n != 1 || m != 1 {
		t.Errorf("command answered %d times, its edit %d; want once each", n, m)
	}
}
