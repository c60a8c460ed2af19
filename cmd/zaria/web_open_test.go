package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// TestWebOpenButtons: /ficha in a group answers with a url button to the
// Mini App's direct link (Telegram refuses web_app buttons there); in a
// private chat with a web_app button that opens the page itself; and the
// bot's menu button in private chats opens it too. The fake Bot API
// refuses a web_app button anywhere but a private chat, as Telegram does.
func TestWebOpenButtons(t *testing.T) {
	const public = "https://zaria.example/app/"
	w := newWebTableAt(t, public)

	tok := w.chatToken(webGroup, webAna, "Ana")
	if len(tok) != 22 {
		t.Fatalf("token %q", tok)
	}
	g := w.waitSent(webGroup, `Tu ficha y tus dados en el móvil`)
	if strings.Contains(g.Visible, "t.me") || appButtonOf(t, g).Text != "📱 Abrir la ficha" {
		t.Errorf("group: %q with %q", g.Visible, g.Params["reply_markup"])
	}

	ana := telegramtest.User{ID: webAna, Name: "Ana", Lang: "es"}
	time.Sleep(2100 * time.Millisecond) // Ana's allowance, shared with the group's
	w.tg.SayIn(telegramtest.Private(ana), ana, "/ficha")
	p := w.waitSent(webAna, `Tu ficha y tus dados en el móvil`)
	b := appButtonOf(t, p)
	if b.WebApp == nil || b.WebApp.URL != public || b.URL != "" || b.Text != "📱 Abrir la ficha" {
		t.Errorf("private chat: the button %+v (%q), want a web_app button to %s", b, p.Params["reply_markup"], public)
	}

	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && w.tg.MenuButtons()[0].Type == "" {
		time.Sleep(20 * time.Millisecond)
	}
	if got, want := w.tg.MenuButtons()[0], (telegramtest.MenuButton{Type: "web_app", Text: "🎲 Zaria", URL: public}); got != want {
		t.Errorf("the default menu button is %+v, want %+v", got, want)
	}
	if bad := w.tg.BadRequests(); len(bad) > 0 {
		t.Errorf("the Bot API refused %q", bad)
	}

	// The fake's own rule, as Telegram's: a web_app button in a group is
	// refused, a url button to a page that is not a web address too.
	for chat, markup := range map[string]string{
		"-100123": `{"inline_keyboard":[[{"text":"x","web_app":{"url":"` + public + `"}}]]}`,
		"42":      `{"inline_keyboard":[[{"text":"x","web_app":{"url":"http://zaria.example/app/"}}]]}`,
		"43":      `{"inline_keyboard":[[{"text":"x","url":"javascript:alert(1)"}]]}`,
		"44":      `{"inline_keyboard":[[{"text":"x","url":"https://t.me/a","callback_data":"b"}]]}`,
	} {
		r, err := http.PostForm(w.tg.URL()+"/bot"+w.token+"/sendMessage", url.Values{"chat_id": {chat}, "text": {"x"}, "reply_markup": {markup}})
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != 400 {
			t.Errorf("the fake Bot API took %s in %s", markup, chat)
		}
	}
	r, err := http.PostForm(w.tg.URL()+"/bot"+w.token+"/setChatMenuButton", url.Values{"chat_id": {"-100123"},
		"menu_button": {`{"type":"web_app","text":"x","web_app":{"url":"` + public + `"}}`}})
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 400 {
		t.Errorf("the fake Bot API set a group's menu button")
	}
}
