package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
)

// TestWebOpenButtons: /ficha in a group answers, replying to it, with a url button to the
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
	if g.ReplyTo == 0 {
		t.Error("/ficha in a group is not answered as a reply to it") // issue 36
	}

	ana := telegramtest.User{ID: webAna, Name: "Ana", Lang: "es"}
	time.Sleep(afterPage) // Ana's allowance, as the chat dates her message
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

// TestWebForumTopic: /ficha typed in topic 7 of a forum answers in that
// topic, with a token of its own; the page opened from it shows the
// group's characters, and its rolls are posted in topic 7. /ficha in the
// General topic (no message_thread_id, as Telegram sends it) gives the
// group's token, whose rolls go to the General topic.
func TestWebForumTopic(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetForum(webGroup)
	ana := telegramtest.User{ID: webAna, Name: "Ana", Lang: "es"}

	w.tg.SayInTopic(webGroup, 7, ana, "/ficha")
	m := w.waitSent(webGroup, `Tu ficha y tus dados en el móvil`)
	if m.Thread != 7 {
		t.Fatalf("/ficha in topic 7 was answered in topic %d", m.Thread)
	}
	startapp := regexp.MustCompile(`startapp=([A-Za-z0-9_-]{22})$`)
	sub := startapp.FindStringSubmatch(appButtonOf(t, m).URL)
	if sub == nil {
		t.Fatalf("the button %q has no startapp token", m.Params["reply_markup"])
	}
	topic := sub[1]
	auth := "tma " + w.initDataFor(webAna, "Ana", topic, time.Now())

	// The same chat: a character made from the topic's page is the
	// group's.
	if code, a := w.do(auth, topic, map[string]any{"op": "create", "name": "Drake"}); code != 200 || a.Error {
		t.Fatalf("create: %d %+v", code, a)
	}
	if list, _ := w.db.ListCharacters(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}); len(list) != 1 || list[0].Name != "Drake" {
		t.Fatalf("the group's characters: %+v", list)
	}
	code, a := w.do(auth, topic, map[string]any{"op": "roll", "n": 1, "sides": 20, "mod": 2})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("roll: %d %+v", code, a)
	}
	r := w.waitSent(webGroup, `📱 Ana: /tirar 1d20\+2`)
	if r.Thread != 7 {
		t.Errorf("the page's roll went to topic %d, want 7: %q", r.Thread, r.Visible)
	}

	// The General topic: the group's own token, rolls without a thread.
	time.Sleep(2100 * time.Millisecond) // Ana's allowance
	w.tg.Say(webGroup, webAna, "Ana", "es", "/ficha")
	var general string
	for deadline := time.Now().Add(15 * time.Second); general == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, m := range w.tg.SentTo(webGroup) {
			if m.Thread == 0 && strings.Contains(m.Visible, "Tu ficha y tus dados en el móvil") {
				general = startapp.FindStringSubmatch(appButtonOf(t, m).URL)[1]
			}
		}
	}
	if general == "" || general == topic {
		t.Fatalf("/ficha in the General topic: the token %q (topic 7's: %q)", general, topic)
	}
	time.Sleep(2100 * time.Millisecond)
	auth = "tma " + w.initDataFor(webAna, "Ana", general, time.Now())
	code, a = w.do(auth, general, map[string]any{"op": "roll", "n": 2, "sides": 6})
	if code != 200 || a.Error || !a.Posted {
		t.Fatalf("roll in General: %d %+v", code, a)
	}
	if r := w.waitSent(webGroup, `📱 Ana: /tirar 2d6`); r.Thread != 0 {
		t.Errorf("the General topic's roll went to topic %d", r.Thread)
	}
	// Topic 7's page stays in topic 7 after the General one was made.
	time.Sleep(2100 * time.Millisecond)
	auth = "tma " + w.initDataFor(webAna, "Ana", topic, time.Now())
	if code, a := w.do(auth, topic, map[string]any{"op": "roll", "n": 3, "sides": 4}); code != 200 || !a.Posted {
		t.Fatalf("roll: %d %+v", code, a)
	}
	if r := w.waitSent(webGroup, `📱 Ana: /tirar 3d4`); r.Thread != 7 {
		t.Errorf("topic 7's roll went to topic %d", r.Thread)
	}
	if bad := w.tg.BadRequests(); len(bad) > 0 {
		t.Errorf("the Bot API refused %q", bad)
	}
}
