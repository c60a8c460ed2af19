package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/systems"
)

// These tests pin what the Bot API documentation
// (https://core.telegram.org/bots/api) promises and asks, as the fake
// server implements it: the parameters a send uses, the update kinds the
// bot may receive, forum topics, and the documented limits of toasts and
// of the command menu.

// TestRepliesUseDocumentedParameters: a reply names the message it answers
// with reply_parameters (ReplyParameters) and turns link previews off with
// link_preview_options, the parameters the documentation lists; the ones
// it no longer lists (reply_to_message_id, allow_sending_without_reply,
// disable_web_page_preview) are not sent.
func TestRepliesUseDocumentedParameters(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-280)
	id := f.SayIn(g, ana, "/echo hola")
	got := f.waitSent(g.ID, 1, 5*time.Second)[0]
	if got.Visible != "hola" || got.ReplyTo != id {
		t.Errorf("the group sees %q replying to %d, want \"hola\" replying to %d", got.Visible, got.ReplyTo, id)
	}
	var rp struct {
		MessageID int  `json:"message_id"`
		Allow     bool `json:"allow_sending_without_reply"`
	}
	if err := json.Unmarshal([]byte(got.Params["reply_parameters"]), &rp); err != nil || rp.MessageID != id || !rp.Allow {
		t.Errorf("reply_parameters %q: %+v %v", got.Params["reply_parameters"], rp, err)
	}
	if got.Params["link_preview_options"] != `{"is_disabled":true}` {
		t.Errorf("link_preview_options = %q", got.Params["link_preview_options"])
	}
	for _, k := range []string{"reply_to_message_id", "allow_sending_without_reply", "disable_web_page_preview"} {
		if v, ok := got.Params[k]; ok {
			t.Errorf("undocumented parameter %s=%q sent", k, v)
		}
	}
}

// TestReplyToDeletedMessageInTopic: in a forum topic Telegram ignores
// allow_sending_without_reply ("Always False for replies in another chat
// or forum topic"), so a reply to a command deleted meanwhile is refused
// with "message to be replied not found". The reply is then sent without
// it, in the topic, rather than lost.
func TestReplyToDeletedMessageInTopic(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, testConfig(f), testRouter(t), newMemState())
	const chat, topic = -281, 7
	f.SetForum(chat)
	f.Inject("sendMessage", telegramtest.Fault{Delay: 300 * time.Millisecond})
	id := f.SayInTopic(chat, topic, ana, "/echo sigue")
	f.Delete(chat, id)
	got := f.waitSent(chat, 1, 5*time.Second)
	if len(got) != 1 || got[0].Visible != "sigue" || got[0].Thread != topic || got[0].ReplyTo != 0 {
		t.Fatalf("the topic got %+v, want \"sigue\" in topic %d replying to nothing", got, topic)
	}
	if n := f.Calls("sendMessage"); n != 2 {
		t.Errorf("%d sendMessage calls, want 2 (refused, then without the reply)", n)
	}
	if !strings.Contains(r.logs.String(), "sending without reply_parameters") {
		t.Errorf("the refusal is not logged:\n%s", r.logs)
	}
}

// TestTopicMessagesOfAForum: a message's topic is its message_thread_id
// when it is a topic message (is_topic_message) or, in a forum (the
// chat's is_forum), even without that flag; the reply goes to that topic.
// Outside forums a message_thread_id is a reply thread and is not used.
// When Telegram does not know the topic (it was deleted, the chat left
// forum mode), the reply is sent to the chat instead of being lost.
func TestTopicMessagesOfAForum(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	const forum, plain, gone = -282, -283, -284
	f.SetForum(forum)
	if _, err := f.PushRaw(fmt.Sprintf(`{"message":{"message_id":11,"date":%d,"text":"/echo tema","message_thread_id":5,
		"from":{"id":501,"is_bot":false,"first_name":"Ana"},
		"chat":{"id":%d,"type":"supergroup","title":"Foro","is_forum":true},
		"entities":[{"type":"bot_command","offset":0,"length":5}]}}`, time.Now().Unix(), forum)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.PushRaw(fmt.Sprintf(`{"message":{"message_id":12,"date":%d,"text":"/echo hilo","message_thread_id":3,
		"from":{"id":501,"is_bot":false,"first_name":"Ana"},
		"chat":{"id":%d,"type":"supergroup","title":"Mesa"},
		"entities":[{"type":"bot_command","offset":0,"length":5}]}}`, time.Now().Unix(), plain)); err != nil {
		t.Fatal(err)
	}
	id := f.SayInTopic(gone, 9, ana, "/echo perdido") // a topic the server does not know
	if got := f.waitSent(forum, 1, 5*time.Second)[0]; got.Visible != "tema" || got.Thread != 5 || got.ReplyTo != 11 {
		t.Errorf("the forum got %q in topic %d replying to %d, want \"tema\" in topic 5 replying to 11", got.Visible, got.Thread, got.ReplyTo)
	}
	if got := f.waitSent(plain, 1, 5*time.Second)[0]; got.Visible != "hilo" || got.Params["message_thread_id"] != "" || got.ReplyTo != 12 {
		t.Errorf("the plain supergroup got %q with message_thread_id %q replying to %d", got.Visible, got.Params["message_thread_id"], got.ReplyTo)
	}
	if got := f.waitSent(gone, 1, 5*time.Second)[0]; got.Visible != "perdido" || got.Thread != 0 || got.ReplyTo != id {
		t.Errorf("with its topic unknown the chat got %q in topic %d replying to %d, want \"perdido\" replying to %d", got.Visible, got.Thread, got.ReplyTo, id)
	}
}

// TestEveryUpdateKindIgnoredOrHandled: whatever kinds of update Telegram
// sends (allowed_updates does not apply to updates created before it was
// set, and new kinds appear with new Bot API versions), each is either
// handled or ignored without an error, the offset moves past all of them,
// and every callback query is answered. Only the command in a message is
// answered: edits, channel posts, business messages, member changes and
// reactions get nothing.
func TestEveryUpdateKindIgnoredOrHandled(t *testing.T) {
	f := newFakeAPI(t)
	r := start(t, testConfig(f), testRouter(t), newMemState())
	const chat = -285
	now := time.Now().Unix()
	from := `{"id":501,"is_bot":false,"first_name":"Ana","language_code":"es"}`
	group := fmt.Sprintf(`{"id":%d,"type":"supergroup","title":"Mesa"}`, chat)
	msg := func(id int, text string) string {
		return fmt.Sprintf(`{"message_id":%d,"date":%d,"chat":%s,"from":%s,"text":%q,"entities":[{"type":"bot_command","offset":0,"length":5}]}`, id, now, group, from, text)
	}
	member := fmt.Sprintf(`{"chat":%s,"from":%s,"date":%d,"old_chat_member":{"user":%s,"status":"left"},"new_chat_member":{"user":%s,"status":"member"}}`, group, from, now, from, from)
	raws := []string{
		`{"edited_message":` + msg(21, "/echo editado") + `}`,
		`{"channel_post":` + strings.Replace(msg(22, "/echo canal"), `"type":"supergroup"`, `"type":"channel"`, 1) + `}`,
		`{"edited_channel_post":` + strings.Replace(msg(23, "/echo canal2"), `"type":"supergroup"`, `"type":"channel"`, 1) + `}`,
		`{"business_connection":{"id":"bc1","user":` + from + `,"user_chat_id":501,"date":1,"is_enabled":true}}`,
		`{"business_message":` + strings.Replace(msg(24, "/echo negocio"), `"date"`, `"business_connection_id":"bc1","date"`, 1) + `}`,
		`{"edited_business_message":` + msg(25, "/echo negocio2") + `}`,
		`{"my_chat_member":` + member + `}`,
		`{"chat_member":` + member + `}`,
		`{"chat_join_request":{"chat":` + group + `,"from":` + from + `,"user_chat_id":501,"date":1}}`,
		fmt.Sprintf(`{"message_reaction":{"chat":%s,"message_id":21,"user":%s,"date":%d,"old_reaction":[],"new_reaction":[{"type":"emoji","emoji":"👍"}]}}`, group, from, now),
		fmt.Sprintf(`{"message_reaction_count":{"chat":%s,"message_id":21,"date":%d,"reactions":[{"type":{"type":"emoji","emoji":"👍"},"total_count":2}]}}`, group, now),
		`{"poll_answer":{"poll_id":"p1","user":` + from + `,"option_ids":[0]}}`,
		`{"some_future_update":{"id":"x","nested":{"a":[1,2,3]}}}`,
		// A service message (no text), and a message whose chat was deleted.
		fmt.Sprintf(`{"message":{"message_id":26,"date":%d,"chat":%s,"from":%s,"new_chat_members":[%s]}}`, now, group, from, from),
		// A button on a message the bot can no longer access
		// (InaccessibleMessage: date 0), with data it does not know.
		fmt.Sprintf(`{"callback_query":{"id":"cbA","from":%s,"chat_instance":"ci","data":"b:0123456789abcdef:a","message":{"chat":%s,"message_id":27,"date":0}}}`, from, group),
		// A button of an inline message: no message, an inline_message_id.
		fmt.Sprintf(`{"callback_query":{"id":"cbB","from":%s,"chat_instance":"ci","inline_message_id":"AAAB","data":"zz"}}`, from),
		// A game button: no data.
		fmt.Sprintf(`{"callback_query":{"id":"cbC","from":%s,"chat_instance":"ci","game_short_name":"dados","message":{"chat":%s,"message_id":28,"date":%d}}}`, from, group, now),
	}
	for _, raw := range raws {
		if _, err := f.PushRaw(raw); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
	f.SayIn(telegramtest.Group(chat), ana, "/echo fin")
	got := f.waitSent(chat, 1, 5*time.Second)
	answered := map[string]bool{}
	for _, c := range f.waitCalls("answerCallbackQuery", 3, 5*time.Second) {
		answered[c.Params["callback_query_id"]] = true
	}
	for _, id := range []string{"cbA", "cbB", "cbC"} {
		if !answered[id] {
			t.Errorf("callback query %s not answered (its button keeps spinning)", id)
		}
	}
	waitFor(t, "updates confirmed by the offset", 1, 5*time.Second, func() []bool {
		if f.Pending() == 0 {
			return []bool{true}
		}
		return nil
	})
	time.Sleep(100 * time.Millisecond)
	got = f.SentTo(chat)
	if len(got) != 1 || got[0].Visible != "fin" {
		var seen []string
		for _, m := range got {
			seen = append(seen, m.Visible)
		}
		t.Errorf("the group sees %q, want only \"fin\"", seen)
	}
	if n := f.SentCount(); n != 1 {
		t.Errorf("%d messages sent in all, want 1", n)
	}
	if logs := r.logs.String(); strings.Contains(logs, "level=ERROR") || strings.Contains(logs, "not understood") {
		t.Errorf("errors logged:\n%s", logs)
	}
}

// TestDoubleTapEditsOnce: a choice pressed twice before the question
// changes edits the question once; Telegram answers the second, identical
// edit with "message is not modified", which is not a failure: nothing is
// posted instead, nothing is logged as undeliverable.
func TestDoubleTapEditsOnce(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	rt := padRouter(t, db)
	systems.Register(rt)
	r := start(t, testConfig(f), rt, db)
	g := telegramtest.Group(-286)
	f.SayIn(g, ana, `/pad add "Tajo" /dh ataque {arma} vs coraza`)
	f.waitSent(g.ID, 1, 5*time.Second)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 2, 5*time.Second)[1]
	f.Press(shown, ana, *keyboardOf(t, shown)[0][0].CallbackData)
	asked := f.waitSent(g.ID, 3, 5*time.Second)[2]
	choice := *keyboardOf(t, asked)[0][0].CallbackData
	f.Press(asked, ana, choice)
	f.Press(asked, ana, choice)
	f.waitCalls("editMessageText", 2, 5*time.Second)
	f.waitCalls("answerCallbackQuery", 3, 5*time.Second)
	// A call is recorded when it arrives, an edit once accepted: wait for
	// the accepted one, then give the second its chance to be accepted too.
	waitFor(t, "accepted edits", 1, 5*time.Second, f.Edits)
	time.Sleep(200 * time.Millisecond)
	if edits := f.Edits(); len(edits) != 1 || !strings.Contains(edits[0].Visible, "¿con qué arma?") {
		t.Errorf("accepted edits %+v, want the one turning the question into the weapons", edits)
	}
	if got := f.SentTo(g.ID); len(got) != 3 {
		t.Errorf("%d messages, want 3: the second tap posted %q", len(got), got[len(got)-1].Visible)
	}
	if strings.Contains(r.logs.String(), "not deliverable") {
		t.Errorf("the unchanged edit was logged as a failure:\n%s", r.logs)
	}
	// Its refusal names the reply markup: it is not taken for a refused
	// keyboard, the edit is not sent again without it.
	if n := f.Calls("editMessageText"); n != 2 || strings.Contains(r.logs.String(), "without reply_markup") {
		t.Errorf("%d edits, want 2; logs:\n%s", n, r.logs)
	}
}

// TestToastCutToTelegramsLimit: answerCallbackQuery's text has "0-200
// characters" (UTF-16 units); a longer toast is cut to fit, with "…",
// rather than refused (the button would then show nothing).
func TestToastCutToTelegramsLimit(t *testing.T) {
	f := newFakeAPI(t)
	a, err := New(testConfig(f), testRouter(t), newMemState(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in := &inbound{cfg: a.cfg, c: a.c, log: a.log}
	exact := strings.Repeat("x", maxToast)
	in.answerCallback(ctx, "cb1", exact)
	in.answerCallback(ctx, "cb2", strings.Repeat("🎲", 150)) // 300 UTF-16 units
	in.answerCallback(ctx, "cb3", strings.Repeat("ζ", 250))
	calls := f.waitCalls("answerCallbackQuery", 3, 5*time.Second)
	if calls[0].Params["text"] != exact {
		t.Errorf("a toast of exactly %d characters was changed to %q", maxToast, calls[0].Params["text"])
	}
	for _, c := range calls[1:] {
		text := c.Params["text"]
		if n := len(utf16.Encode([]rune(text))); n > maxToast || n < maxToast-1 || !strings.HasSuffix(text, "…") {
			t.Errorf("toast %s: %d UTF-16 units %q, want at most %d ending in …", c.Params["callback_query_id"], n, text, maxToast)
		}
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// menuOf is a router whose command menu is given.
type menuOf struct {
	*command.Router
	items []core.MenuItem
}

func (m menuOf) Menu(string) []core.MenuItem { return m.items }

// TestCommandMenuWithinTelegramsLimits: setMyCommands takes at most 100
// commands, each 1-32 of a-z 0-9 _ with a description of 1-256
// characters. Names Telegram cannot show are left out, an empty
// description becomes the command itself, a long one is cut, and past
// 100 the rest is left out; the menu is published in every language.
func TestCommandMenuWithinTelegramsLimits(t *testing.T) {
	f := newFakeAPI(t)
	items := []core.MenuItem{
		{Name: "roll", Description: "any dice"},
		{Name: "sin_texto", Description: "  "},
		{Name: "largo", Description: strings.Repeat("ζ", 300)},
		{Name: "κουμπιά", Description: "greek name"},
		{Name: "Mayus", Description: "capitals"},
		{Name: strings.Repeat("a", 33), Description: "too long a name"},
	}
	for i := range 120 {
		items = append(items, core.MenuItem{Name: fmt.Sprintf("c%03d", i), Description: "extra"})
	}
	start(t, testConfig(f), menuOf{testRouter(t), items}, newMemState())
	waitFor(t, "menus published", 4, 5*time.Second, func() []string {
		var out []string
		for _, v := range f.Commands() {
			out = append(out, v)
		}
		return out
	})
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Fatalf("Telegram refused %q", bad)
	}
	for lang, raw := range f.Commands() {
		var cmds []struct{ Command, Description string }
		if err := json.Unmarshal([]byte(raw), &cmds); err != nil {
			t.Fatal(err)
		}
		if len(cmds) != 100 {
			t.Errorf("%q: %d commands, want 100", lang, len(cmds))
		}
		byName := map[string]string{}
		for _, c := range cmds {
			byName[c.Command] = c.Description
		}
		if byName["roll"] != "any dice" || byName["sin_texto"] != "/sin_texto" {
			t.Errorf("%q: roll %q, sin_texto %q", lang, byName["roll"], byName["sin_texto"])
		}
		if d := byName["largo"]; len(utf16.Encode([]rune(d))) != 256 || !strings.HasSuffix(d, "…") {
			t.Errorf("%q: the long description is %d characters", lang, len([]rune(d)))
		}
		for _, name := range []string{"κουμπιά", "Mayus", strings.Repeat("a", 33)} {
			if _, ok := byName[name]; ok {
				t.Errorf("%q: %q published", lang, name)
			}
		}
		_, last := byName["c096"]
		_, over := byName["c097"]
		if !last || over || len(byName) != 100 {
			t.Errorf("%q: the first 100 valid commands are not the ones kept (c096 %v, c097 %v, %d)", lang, last, over, len(byName))
		}
	}
}

// TestDocumentKeepsItsFileName: sendDocument is a multipart/form-data
// upload; the document's file name, which the chat shows, arrives as it
// is, in UTF-8, with quotes and backslashes escaped as multipart does.
func TestDocumentKeepsItsFileName(t *testing.T) {
	f := newFakeAPI(t)
	r := testRouter(t)
	const name = `Δράκος "el \ rojo".json`
	r.Register(command.Command{Name: "ficha", Handler: command.HandlerFunc(
		func(context.Context, *command.Request) (*reply.Reply, error) {
			rep := reply.Text("tu ficha")
			rep.File = &reply.File{Name: name, MIME: "application/json", Data: []byte(`{"name":"Drake"}`)}
			return rep, nil
		})})
	start(t, testConfig(f), r, newMemState())
	g := telegramtest.Group(-287)
	f.SayIn(g, ana, "/ficha")
	got := f.waitSent(g.ID, 1, 5*time.Second)[0]
	if got.Method != "sendDocument" || got.FileName != name || string(got.Doc) != `{"name":"Drake"}` || got.Visible != "tu ficha" {
		t.Errorf("the chat got %s %q (%q) captioned %q, want the document %q", got.Method, got.FileName, got.Doc, got.Visible, name)
	}
}

// TestWebhookUnreadableUpdateAcknowledged: a delivery whose fields the
// Bot API library cannot read (a type changed in a newer Bot API) is
// still an update: it is acknowledged with 200 and skipped, as when
// polling, rather than refused, which would make Telegram deliver it again
// and again. A body that is not an update at all gets 400.
func TestWebhookUnreadableUpdateAcknowledged(t *testing.T) {
	f := newFakeAPI(t)
	w := startWebhook(t, f, newMemState(), nil)
	post := func(body string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", w.cfg.WebhookURL, strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", w.cfg.WebhookSecret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(`{"update_id":7001,"message":{"message_id":"not a number","chat":{"id":-288,"type":"supergroup"},"text":"/echo roto"}}`); code != http.StatusOK {
		t.Errorf("an unreadable update was answered %d, want 200", code)
	}
	if code := post(`{"update_id":7002,"some_future_update":{"x":1}}`); code != http.StatusOK {
		t.Errorf("an update of an unknown kind was answered %d, want 200", code)
	}
	if code := post(`[1,2,3]`); code != http.StatusBadRequest {
		t.Errorf("a body that is no update was answered %d, want 400", code)
	}
	if code := w.post(7003, -288, "/echo sano"); code != http.StatusOK {
		t.Fatalf("a command was answered %d", code)
	}
	if got := f.waitSent(-288, 1, 5*time.Second); len(got) != 1 || got[0].Visible != "sano" {
		t.Errorf("the group got %+v, want only \"sano\"", got)
	}
}

// TestEditInTopicHasNoThread: editMessageText takes no message_thread_id
// (the message stays in its topic); the 📊 button's edit of a roll in a
// topic is sent without one, while the roll itself went to the topic.
func TestEditInTopicHasNoThread(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	const chat, topic = -289, 4
	f.SetForum(chat)
	f.SayInTopic(chat, topic, ana, "/roll 2d6")
	first := f.waitSent(chat, 1, 5*time.Second)[0]
	if first.Thread != topic {
		t.Fatalf("the roll went to topic %d, want %d", first.Thread, topic)
	}
	f.PressInTopic(first, bob, *keyboardOf(t, first)[0][1].CallbackData)
	edit := f.waitCalls("editMessageText", 1, 5*time.Second)[0]
	if v, ok := edit.Params["message_thread_id"]; ok {
		t.Errorf("the edit names topic %q", v)
	}
	// The call is recorded when it arrives, the edit once the fake has
	// accepted it: wait for the edit itself.
	if e := waitFor(t, "accepted edits", 1, 5*time.Second, f.Edits); len(e) != 1 || !strings.Contains(e[0].Visible, "🎲 Ana: 2d6 = ") {
		t.Errorf("accepted edits %+v, want the roll with its odds", e)
	}
}

// TestAnswersThatAreNotBotAPIJSON: a 502 page from a proxy in front of
// the Bot API (HTML, not JSON), a cut-off JSON body and a 500 with a Bot
// API error are passing failures: polling and sending go on, and the
// reply arrives once.
func TestAnswersThatAreNotBotAPIJSON(t *testing.T) {
	f := newFakeAPI(t)
	page := "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
	f.Inject("getUpdates",
		telegramtest.Fault{Code: 502, Body: page},
		telegramtest.Fault{Code: 200, Body: `{"ok":true,"result":[{"update_id":`},
	)
	f.Inject("sendMessage",
		telegramtest.Fault{Code: 502, Body: page},
		telegramtest.Fault{Code: 500, Description: "Internal Server Error"},
	)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-290)
	f.SayIn(g, ana, "/echo hola")
	f.waitSent(g.ID, 1, 10*time.Second)
	time.Sleep(200 * time.Millisecond)
	if got := f.SentTo(g.ID); len(got) != 1 || got[0].Visible != "hola" {
		t.Errorf("the group got %+v, want \"hola\" once", got)
	}
	if n := f.Calls("sendMessage"); n != 3 {
		t.Errorf("%d sendMessage calls, want 3 (two failures, then delivered)", n)
	}
}

// TestPhotoCaptionCommand: a photo whose caption is a command (with its
// bot_command entity in caption_entities, as Telegram sends it) is
// answered like the same command typed; a photo without a caption and a
// caption addressed to another bot are not.
func TestPhotoCaptionCommand(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	const chat = -291
	now := time.Now().Unix()
	photo := `"photo":[{"file_id":"ph1","file_unique_id":"u1","width":90,"height":90}]`
	for i, caption := range []string{"", "/echo@OtherBot no", "/echo@ZariaTestBot foto"} {
		c := ""
		if caption != "" {
			word, _, _ := strings.Cut(caption, " ")
			c = fmt.Sprintf(`,"caption":%q,"caption_entities":[{"type":"bot_command","offset":0,"length":%d}]`, caption, len(utf16.Encode([]rune(word))))
		}
		if _, err := f.PushRaw(fmt.Sprintf(`{"message":{"message_id":%d,"date":%d,"from":{"id":501,"is_bot":false,"first_name":"Ana"},"chat":{"id":%d,"type":"supergroup","title":"Mesa"},%s%s}}`,
			31+i, now, chat, photo, c)); err != nil {
			t.Fatal(err)
		}
	}
	got := f.waitSent(chat, 1, 5*time.Second)
	time.Sleep(150 * time.Millisecond)
	got = f.SentTo(chat)
	if len(got) != 1 || got[0].Visible != "foto" || got[0].ReplyTo != 33 {
		t.Errorf("the group got %+v, want only \"foto\" replying to the photo 33", got)
	}
}

// TestPoisonedButtonPressIsAnswered: a button press that was being handled
// each time the bot died is skipped with the apology, and its callback
// query is still answered, so the button stops spinning.
func TestPoisonedButtonPressIsAnswered(t *testing.T) {
	f := newFakeAPI(t)
	st := newMemState()
	const first = 1001 // the fake numbers updates from 1001
	st.m[fmt.Sprintf("telegram.%d.work", f.Bot().ID)] = fmt.Sprintf(`{"c":{"%d":2}}`, first)
	start(t, testConfig(f), testRouter(t), st)
	g := telegramtest.Group(-292)
	if id := f.Press(telegramtest.Sent{ID: 41, Chat: g.ID}, ana, "b:0123456789abcdef:a"); id != first {
		t.Fatalf("the press is update %d, want %d", id, first)
	}
	ans := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if ans[0].Params["callback_query_id"] == "" {
		t.Errorf("answered %v", ans[0].Params)
	}
	if got := f.waitSent(g.ID, 1, 5*time.Second)[0]; got.ReplyTo != 41 {
		t.Errorf("the apology %q replies to %d, want the pressed message 41", got.Visible, got.ReplyTo)
	}
}

// TestFakeHTMLEntitiesAsDocumented: the fake reads Telegram HTML as the
// documentation says: the named entities &lt; &gt; &amp; &quot; and all
// numeric ones; any other named entity is refused.
func TestFakeHTMLEntitiesAsDocumented(t *testing.T) {
	if v, err := telegramtest.Visible("<b>a</b> &#39;b&#x27; &lt;&amp;&gt; &quot;"); err != nil || v != `a 'b' <&> "` {
		t.Errorf("Visible = %q, %v", v, err)
	}
	for _, bad := range []string{"&nbsp;", "&#;", "&#xD800;", "a & b", "<b>x"} {
		if v, err := telegramtest.Visible(bad); err == nil {
			t.Errorf("Visible(%q) = %q, want refused", bad, v)
		}
	}
}
