package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// hello trades auth for the page's session (POST api/hello) and returns
// the session token and its life in seconds.
func (w *webTable) hello(auth string) (int, string, int) {
	w.t.Helper()
	code, body, _ := w.call("POST", "api/hello", auth, "")
	var h struct {
		Session string `json:"session"`
		Renew   int    `json:"renew"`
	}
	if code == 200 {
		if err := json.Unmarshal([]byte(body), &h); err != nil {
			w.t.Fatalf("hello answered %q: %v", body, err)
		}
	}
	return code, h.Session, h.Renew
}

// TestWebMiniAppSessionLasts: a Mini App opened once keeps working for a
// three-hour game although Telegram never signs its initData again: the
// page trades it for a session renewed while it is used, which ends when
// unused for longer than web.session_renew, at web.session_ttl whatever
// happens, and as soon as the user is found out of the chat.
func TestWebMiniAppSessionLasts(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	launch := "tma " + w.initDataFor(webAna, "Ana", tok, w.now())
	code, s, renew := w.hello(launch)
	if code != 200 || s == "" || renew != 30*60 {
		t.Fatalf("hello with initData: %d, session %q, renew %d s (want 1800)", code, s, renew)
	}
	// Two hours of play, a screen read every 20 minutes: each answer past
	// half the token's life carries a renewed one.
	for i := 1; i <= 6; i++ {
		w.later(20 * time.Minute)
		code, _, h := w.call("GET", "c/"+tok+"/s/sheets", "Bearer "+s, "")
		if code != 200 {
			t.Fatalf("%d min after the launch the sheets screen answered %d", 20*i, code)
		}
		if n := h.Get("Zaria-Session"); n != "" {
			s = n
		} else {
			t.Fatalf("%d min after the launch no renewed session came with the screen", 20*i)
		}
	}
	// Two hours on, the launch data itself is refused (web.max_age 1 h)…
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", launch, ""); code != 401 {
		t.Fatalf("initData signed 2 h ago answered %d, want 401", code)
	}
	// …and the page still rolls in the chat.
	code, a := w.do("Bearer "+s, tok, map[string]any{"op": "roll", "n": 1, "sides": 20})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("a roll 2 h after the launch: %d %+v", code, a)
	}
	w.waitSent(webGroup, `📱 Ana: /tirar 1d20`)

	// A page left unused longer than the token's life: ended.
	w.later(31 * time.Minute)
	if code, _, _ := w.hello("Bearer " + s); code != 401 {
		t.Fatalf("a session unused for 31 min renewed: %d, want 401", code)
	}

	// Renewed every 25 min without end, a session still ends 12 h
	// (web.session_ttl) after the launch.
	start := w.now()
	_, s, _ = w.hello("tma " + w.initDataFor(webAna, "Ana", tok, start))
	for w.now().Add(25*time.Minute).Sub(start) < 12*time.Hour {
		w.later(25 * time.Minute)
		code, n, _ := w.hello("Bearer " + s)
		if code != 200 || n == "" {
			t.Fatalf("renewal %v after the launch: %d", w.now().Sub(start), code)
		}
		s = n
	}
	// Its last renewal (11 h 40 min) was cut to the 12 h: it works at 11 h
	// 59 min (29 min on, within its 30) and not a second past 12 h.
	w.later(start.Add(12*time.Hour - time.Minute).Sub(w.now()))
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", "Bearer "+s, ""); code != 200 {
		t.Fatalf("a session 11 h 59 min after its launch answered %d, want 200", code)
	}
	w.later(start.Add(12*time.Hour + time.Second).Sub(w.now()))
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", "Bearer "+s, ""); code != 401 {
		t.Fatalf("a session 12 h after its launch answered %d, want 401", code)
	}

	// Beto leaves the group: his session is refused once the membership
	// answer (web.member_ttl, 1 min) is old.
	_, beto, _ := w.hello("tma " + w.initDataFor(webBeto, "Beto", tok, w.now()))
	if code, _, _ := w.call("GET", "c/"+tok+"/s/dice", "Bearer "+beto, ""); code != 200 {
		t.Fatalf("Beto's session: %d", code)
	}
	w.tg.Leave(webGroup, webBeto)
	w.later(61 * time.Second)
	if code, _, _ := w.hello("Bearer " + beto); code != 403 {
		t.Fatalf("Beto, gone from the group, renewed his session: %d, want 403", code)
	}
	if code, _, _ := w.call("GET", "c/"+tok+"/s/dice", "Bearer "+beto, ""); code != 403 {
		t.Fatalf("Beto, gone from the group, read a screen: %d, want 403", code)
	}
	// A session is refused for another chat's path, and a forged one at all.
	other := w.chatToken(webOther, webStranger, "Extraño")
	if code, _, _ := w.call("GET", "c/"+other+"/s/sheets", "Bearer "+s, ""); code != 401 && code != 403 {
		t.Fatalf("a session read another chat: %d", code)
	}
	if code, _, _ := w.call("GET", "c/"+tok+"/s/sheets", "Bearer "+strings.Replace(s, "e", "f", 1), ""); code != 401 {
		t.Fatalf("a forged session: %d", code)
	}
}

// TestWebBrowserSessionLasts: Ana opens the Mini App once; two hours on,
// the same initData long refused, her taps still read screens and her
// roll lands in the chat. Left unused for 31 minutes, the page says its
// session ended without losing what she typed; «Abrir de nuevo» closes
// the app (its launch data too old), and opened again from the chat the
// page gives her back the name she had typed.
func TestWebBrowserSessionLasts(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, w.now()))
	inject(t, ctx, tgChannel("android"))
	do(t, ctx, "open", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="sheets"]`)))
	for i := 1; i <= 6; i++ {
		w.later(20 * time.Minute)
		tab := []string{"sheets", "dice"}[i%2]
		tapTab(t, ctx, fmt.Sprintf("the %s tab %d min after the launch", tab, 20*i), tab)
	}
	tapTab(t, ctx, "the dice", "dice")
	do(t, ctx, "a d20", chromedp.Click(chromedp.CSS(`.die[data-sides="20"]`)))
	waitJS(t, ctx, "the odds", `document.querySelector('#odds').textContent.indexOf('1d20')>=0`)
	do(t, ctx, "roll 2 h after the launch", chromedp.Click(chromedp.CSS(`#roll`)), chromedp.WaitVisible(chromedp.CSS(`#result p`)))
	w.waitSent(webGroup, `📱 Ana: /tirar 1d20`)

	// She types a name and leaves the phone for 31 minutes.
	tapTab(t, ctx, "the sheets", "sheets")
	do(t, ctx, "type a name", chromedp.SetValue(chromedp.CSS(`form.create input[name="name"]`), "Lyra"))
	w.later(31 * time.Minute)
	do(t, ctx, "a tab after 31 min", chromedp.Click(chromedp.CSS(`[data-go="dice"]`)), chromedp.WaitVisible(chromedp.CSS(`#ended`)))
	if got := text(t, ctx, `#ended p`); !strings.Contains(got, "ha caducado") {
		t.Errorf("the ended session's notice says %q", got)
	}
	waitJS(t, ctx, "the typed name still there", `document.querySelector('form.create input[name="name"]').value === 'Lyra'`)
	shot(t, ctx, dir, "session-ended-es")
	do(t, ctx, "reopen", chromedp.Click(chromedp.CSS(`#reopen`)))
	waitJS(t, ctx, "the app closed (its launch data is 2.5 h old)", `window.zariaClosed === true || `+posted("web_app_close", ""))

	// Opened again from the chat: new launch data, the typed name back.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, w.now()))
	do(t, ctx, "open again", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="sheets"]`)))
	waitJS(t, ctx, "the typed name given back", `document.querySelector('form.create input[name="name"]').value === 'Lyra'`)
}

// tapTab taps a tab and waits until its screen is shown and loaded.
func tapTab(t *testing.T, ctx context.Context, what, tab string) {
	t.Helper()
	waitJS(t, ctx, what, `(function(){var b=document.querySelector('[data-go="`+tab+`"]'); if (!b || document.querySelector('#screen[aria-busy]')) return false; b.click(); return true})()`)
	waitJS(t, ctx, what, `!!document.querySelector('.screen[data-screen="`+tab+`"]') && !document.querySelector('#screen[aria-busy]')`)
}
