package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/adapters/web"
	"zaria/core"
)

// TestWebStrictBodies: a body with a key twice or a key in another case
// (which encoding/json would take, the last or the case-folded one
// winning) is refused with 400 and changes nothing; the same body spelt
// right is taken.
func TestWebStrictBodies(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, w.now())
	for _, body := range []string{
		`{"op":"create","name":"Alba","name":"Bea"}`,
		`{"op":"create","NAME":"Bea"}`,
		`{"OP":"create","name":"Bea"}`,
		`{"op":"create","Name":"Bea"}`,
		`{"op":"create","op":"create","name":"Bea"}`,
		`{"op":"pad","button":1,"values":["a"],"values":["b"]}`,
	} {
		if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("body %s: %d %q, want 400", body, code, got)
		}
	}
	for _, body := range []string{`{"chat":"x","chat":"y","access_token":"a","matrix_server_name":"b"}`} {
		if code, _, _ := w.call("POST", "api/openid", "", body); code != 400 {
			t.Errorf("openid body %s: %d, want 400", body, code)
		}
	}
	if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, `{"op":"create","name":"Eva"}`); code != 200 {
		t.Fatalf("the body spelt right: %d %q", code, got)
	}
	list, _ := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)})
	if len(list) != 1 || list[0].Name != "Eva" {
		t.Errorf("characters after the refused bodies: %+v", list)
	}
}

// TestWebMembershipChecksBounded: the bot was removed from a group, and a
// member keeps calling with its link: 200 requests make one getChatMember
// call (the error is kept 15 s), then one more after. Forty users of a
// group where none is a member: 30 calls, then 429 for that group while
// another group's members are still let in.
func TestWebMembershipChecksBounded(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	other := w.chatToken(webOther, webStranger, "Zoe")
	w.tg.Kick(webOther)
	zoe := "tma " + w.initDataFor(webStranger, "Zoe", other, w.now())
	before := w.tg.Calls("getChatMember")
	for i := range 200 {
		if code, _, _ := w.call("GET", "c/"+other+"/s/sheets", zoe, ""); code == 200 {
			t.Fatalf("request %d of a removed bot's group answered 200", i)
		}
	}
	if n := w.tg.Calls("getChatMember") - before; n != 1 {
		t.Errorf("200 requests made %d getChatMember calls, want 1", n)
	}
	w.later(16 * time.Second)
	w.call("GET", "c/"+other+"/s/sheets", zoe, "")
	if n := w.tg.Calls("getChatMember") - before; n != 2 {
		t.Errorf("16 s later: %d calls in all, want 2", n)
	}

	// Forty strangers with the group's link: 30 asked, then 429.
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, w.now())
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", ana, ""); code != 200 {
		t.Fatalf("Ana: %d", code)
	}
	before = w.tg.Calls("getChatMember")
	codes := map[int]int{}
	for i := range 40 {
		a := "tma " + w.initDataFor(int64(5000+i), "X", tok, w.now())
		code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", a, "")
		codes[code]++
	}
	if n := w.tg.Calls("getChatMember") - before; n != 30 || codes[403] != 30 || codes[429] != 10 {
		t.Errorf("40 strangers: %d calls, answers %v; want 30 calls, 30×403 and 10×429", n, codes)
	}
	// Ana, a member known before the flood, still reads.
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", ana, ""); code != 200 {
		t.Errorf("Ana during the flood: %d, want 200", code)
	}
}

// TestWebDisplayNameOneLine: a Telegram name holding a line break, a
// right-to-left override and a zero-width space reaches the chat's
// «📱 name: command» header as one clean line, as the core cleans names.
func TestWebDisplayNameOneLine(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	name := "Ana\n📱 Bot: /pj delete\u202e\u200b"
	u, _ := json.Marshal(map[string]any{"id": webAna, "first_name": name, "language_code": "es"})
	v := url.Values{"user": {string(u)}, "auth_date": {strconv.FormatInt(w.now().Unix(), 10)}, "start_param": {tok}}
	ana := "tma " + mustSign(t, v.Encode(), w.token)
	code, a := w.do(ana, tok, map[string]any{"op": "roll", "n": 1, "sides": 6})
	if code != 200 || !a.Posted {
		t.Fatalf("roll: %d %+v", code, a)
	}
	m := w.waitSent(webGroup, `/tirar 1d6`)
	first, _, _ := strings.Cut(m.Visible, "\n")
	if first != "📱 Ana 📱 Bot: /pj delete: /tirar 1d6" {
		t.Errorf("the header is %q (whole message %q)", first, m.Visible)
	}
}

// TestWebReadAllowance: one user's screen reads: 30 at once, then one each
// 0.5 s; the 31st is 429 with the chat's «too fast» in its language; two
// seconds later four more are answered. The companion's clock is the real
// one moved on (w.later), so each 0.5 s the reads themselves take (slow
// under -race on a loaded machine) adds one to what is answered: the
// counts allow for it, and no more.
func TestWebReadAllowance(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, w.now())
	// untilRefused reads as who until a 429 and says how many were
	// answered, with the refusal's body.
	untilRefused := func(who string) (int, string) {
		for n := 0; n < 200; n++ {
			code, body, _ := w.call("GET", "c/"+tok+"/s/dice", who, "")
			if code == 429 {
				return n, body
			}
			if code != 200 {
				t.Fatalf("read %d: %d %q", n+1, code, body)
			}
		}
		t.Fatal("200 reads answered in a row: no allowance")
		return 0, ""
	}
	start := time.Now()
	n, body := untilRefused(ana)
	refused := time.Now()
	if took, extra := refused.Sub(start), int(refused.Sub(start)/(500*time.Millisecond)); n < 30 || n > 30+extra {
		t.Errorf("%d reads at once answered before a 429 (in %v), want 30 (+%d for that time)", n, took, extra)
	}
	if !strings.Contains(body, "Vas muy rápido") {
		t.Errorf("the refused read says %q, want «Vas muy rápido…»", body)
	}
	// Beto's allowance is his own.
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, w.now())
	if code, _, _ := w.call("GET", "c/"+tok+"/s/dice", beto, ""); code != 200 {
		t.Errorf("Beto: %d", code)
	}
	// What was left at the refusal, less than one read, may make one more.
	w.later(2 * time.Second)
	n, _ = untilRefused(ana)
	if took, extra := time.Since(refused), 1+int(time.Since(refused)/(500*time.Millisecond)); n < 4 || n > 4+extra {
		t.Errorf("2 s later, %d reads answered before a 429 (in %v), want 4 (+%d at most for that time)", n, took, extra)
	}
}

// TestWebConnectionCap: 128 connections that send nothing hold the
// listener (web.MaxConns): a page's request waits unserved while they
// stay open, and is answered as soon as they close.
func TestWebConnectionCap(t *testing.T) {
	w := newWebTable(t)
	host := strings.TrimSuffix(strings.TrimPrefix(w.base, "http://"), "/app/")
	var slow []net.Conn
	for range web.MaxConns {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		slow = append(slow, c)
	}
	time.Sleep(300 * time.Millisecond) // all accepted
	cl := &http.Client{Timeout: time.Second}
	if resp, err := cl.Get(w.base); err == nil {
		resp.Body.Close()
		t.Fatalf("a request was served while %d connections were held: %d", web.MaxConns, resp.StatusCode)
	}
	for _, c := range slow {
		c.Close()
	}
	cl.Timeout = 5 * time.Second
	resp, err := cl.Get(w.base)
	if err != nil {
		t.Fatalf("once they closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("once they closed: %d", resp.StatusCode)
	}
}
