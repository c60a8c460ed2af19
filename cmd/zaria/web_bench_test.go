package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"zaria/core"
)

// BenchmarkWeb measures the companion in the bot's process, SQLite
// included, without the network: the handler is called directly.
//
//	go test -tags goolm -run '^$' -bench BenchmarkWeb ./cmd/zaria/
//
// page: the sheets screen of a chat with 4 characters of 6 values; dice:
// the dice screen (with the systems' difficulty lists); call: one "set a
// value" (the /pj set command through the router, a SQLite write
// transaction); odds: the odds of 1d20+2 before rolling; odds-dh: those
// of a long sword against a breastplate. first-load-B is
// what the page transfers on opening (shell, script, style, hello, the
// sheets screen), Telegram's own script excluded.
func BenchmarkWeb(b *testing.B) {
	w := newWebTable(b)
	tok := w.chatToken(webGroup, webAna, "Ana")
	h := w.handler(b)
	// Each player has the chat's allowance (5 at once, then one each 2 s):
	// each serves 5 calls and the next takes over, all administrators (who
	// may edit every sheet), so that none is refused. New players are made
	// (and their membership asked once) with the timer stopped.
	var admins []int64
	var auths []string
	next := 0
	grow := func(tb testing.TB) {
		from := len(admins)
		for i := from; i < from+200; i++ {
			admins = append(admins, int64(1000+i))
		}
		w.tg.SetAdmins(webGroup, admins...)
		for i := from; i < len(admins); i++ {
			a := "tma " + w.initDataFor(admins[i], fmt.Sprintf("P%d", i), tok, time.Now())
			if code := serve1(h, "POST", w.base+"api/hello", a, ""); code != 200 {
				tb.Fatalf("hello: %d", code) // and getChatMember is cached
			}
			auths = append(auths, a)
		}
	}
	grow(b)
	player := func(b *testing.B) string {
		if next/5 >= len(auths) {
			b.StopTimer()
			grow(b)
			b.StartTimer()
		}
		a := auths[next/5]
		next++
		return a
	}
	// Screen reads have their own allowance per user (30 at once, then
	// two a second): each player serves 25.
	nr := 0
	reader := func(b *testing.B) string {
		if nr/25 >= len(auths) {
			b.StopTimer()
			grow(b)
			b.StartTimer()
		}
		a := auths[nr/25]
		nr++
		return a
	}
	for i := range 4 {
		name := fmt.Sprintf("Pj%d", i)
		if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), `{"op":"create","name":"`+name+`"}`); code != 200 {
			b.Fatalf("create: %d", code)
		}
		for j := range 6 {
			if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), fmt.Sprintf(`{"op":"set","char":"%s","name":"v%d","value":"%d"}`, name, j, j)); code != 200 {
				b.Fatalf("set: %d", code)
			}
		}
	}
	// A fight of 8 with hit points and a table of 20 rows.
	for i := range 8 {
		if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), fmt.Sprintf(`{"op":"add","name":"Orco %d","value":"%d","hp":15}`, i, 10+i)); code != 200 {
			b.Fatalf("add: %d", code)
		}
	}
	var rows []string
	for i := range 20 {
		rows = append(rows, fmt.Sprintf("fila %d", i))
	}
	if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), fmt.Sprintf(`{"op":"rows","name":"Botín","value":%q}`, strings.Join(rows, "\n"))); code != 200 {
		b.Fatalf("table: %d", code)
	}

	b.Run("order", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "GET", w.base+"c/"+tok+"/s/order", reader(b), ""); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("tables", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "GET", w.base+"c/"+tok+"/s/tables", reader(b), ""); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "GET", w.base+"c/"+tok+"/s/sheets", reader(b), ""); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("dice", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "GET", w.base+"c/"+tok+"/s/dice", reader(b), ""); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		i := 0
		for b.Loop() {
			body := fmt.Sprintf(`{"op":"set","char":"Pj0","name":"v0","value":"%d"}`, i)
			if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), body); code != 200 {
				b.Fatal(code)
			}
			i++
		}
	})
	// The same command typed in the chat, for comparison: the router and
	// SQLite alone.
	b.Run("call-typed", func(b *testing.B) {
		i := 0
		for b.Loop() {
			player(b)
			u := admins[(next-1)/5]
			rep, ok := w.router.Dispatch(context.Background(), core.Message{Chat: core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)},
				From: core.User{ID: strconv.FormatInt(u, 10), Name: "P"}, FromGM: true, Text: fmt.Sprintf("/pj set @Pj0 v0 %d", i), Sent: time.Now()})
			if !ok || rep.Error {
				b.Fatal(rep)
			}
			i++
		}
	})
	b.Run("odds", func(b *testing.B) {
		for b.Loop() {
			if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), `{"op":"odds","n":1,"sides":20,"mod":2}`); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("odds-dh", func(b *testing.B) { // a Dungeon Hack attack's odds: /odds dh through the odds press
		for b.Loop() {
			if code := serve1(h, "POST", w.base+"c/"+tok+"/do", player(b), `{"op":"odds","form":"dh.attack","fields":{"weapon":"espada-larga","armour":"coraza"}}`); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("first-load", func(b *testing.B) {
		var n int
		for b.Loop() {
			n = 0
			who := reader(b)
			for _, r := range []struct{ method, path, auth string }{
				{"GET", "", ""}, {"GET", "static/app.js", ""}, {"GET", "static/app.css", ""},
				{"POST", "api/hello", who}, {"GET", "c/" + tok + "/s/sheets", who},
			} {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(r.method, w.base+r.path, nil)
				if r.auth != "" {
					req.Header.Set("Authorization", r.auth)
				}
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%s: %d", r.path, rec.Code)
				}
				n += rec.Body.Len()
				for k, vs := range rec.Header() {
					n += len(k) + len(strings.Join(vs, ", ")) + 4
				}
			}
		}
		b.ReportMetric(float64(n), "first-load-B")
	})
}

// handler is the companion's HTTP handler, for calls without the network.
func (w *webTable) handler(tb testing.TB) http.Handler {
	tb.Helper()
	if w.web == nil {
		tb.Fatal("no web adapter")
	}
	return w.web.Handler()
}

// serve1 makes one request to h and returns its status; the body of a do
// must say no error.
func serve1(h http.Handler, method, url, auth, body string) int {
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, url, nil)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code == 200 && strings.HasSuffix(url, "/do") {
		var a webAnswer
		if json.Unmarshal(rec.Body.Bytes(), &a) != nil || a.Error {
			return 599
		}
	}
	return rec.Code
}
