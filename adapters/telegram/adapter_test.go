package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/storage/memory"
)

var (
	ana   = telegramtest.User{ID: 501, Name: "Ana", Lang: "es"}
	nikos = telegramtest.User{ID: 502, Name: "Νίκος", Lang: "el"}
	bob   = telegramtest.User{ID: 503, Name: "Bob", Lang: "en"}
)

func keyboardOf(t *testing.T, m telegramtest.Sent) [][]tgbotapi.InlineKeyboardButton {
	t.Helper()
	if m.Params["reply_markup"] == "" {
		return nil
	}
	var kb tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(m.Params["reply_markup"]), &kb); err != nil {
		t.Fatal(err)
	}
	return kb.InlineKeyboard
}

func TestGroupRollGetsHTMLReplyWithButtons(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-100)
	id := f.SayIn(g, ana, "/roll 4d6 <b>&")
	got := f.waitSent(g.ID, 1, 5*time.Second)[0]
	if got.Params["parse_mode"] != "HTML" {
		t.Errorf("parse_mode = %q", got.Params["parse_mode"])
	}
	if got.ReplyTo != id {
		t.Errorf("replies to %d (reply_parameters %q), want %d", got.ReplyTo, got.Params["reply_parameters"], id)
	}
	if want := "🎲 Ana: 4d6 <b>& = 1"; got.Visible != want {
		t.Errorf("user sees %q, want %q", got.Visible, want)
	}
	if !strings.Contains(got.Text, "<code>4d6 &lt;b&gt;&amp;</code>") {
		t.Errorf("user text not escaped in %q", got.Text)
	}
	kb := keyboardOf(t, got)
	if len(kb) != 1 || len(kb[0]) != 2 || kb[0][0].Text != "🎲 again" || kb[0][1].Text != "odds" {
		t.Fatalf("keyboard = %+v", kb)
	}
}

func TestButtonsRunAgainForWhoeverPresses(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-101)
	f.SayIn(g, ana, "/roll 2d6")
	first := f.waitSent(g.ID, 1, 5*time.Second)[0]
	kb := keyboardOf(t, first)

	pressed := time.Now()
	f.Press(first, bob, *kb[0][0].CallbackData)
	again := f.waitSent(g.ID, 2, 5*time.Second)[1]
	if ans := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)[0]; ans.At.Sub(pressed) > time.Second {
		t.Errorf("callback answered after %v", ans.At.Sub(pressed))
	}
	if again.Visible != "🎲 Bob tira otra vez\n🎲 Bob: 2d6 = 2" {
		t.Errorf("again: user sees %q", again.Visible)
	}
	if again.ReplyTo != first.ID {
		t.Errorf("again replies to %d, want the button's message %d", again.ReplyTo, first.ID)
	}
	if len(keyboardOf(t, again)) != 1 {
		t.Error("the new roll has no buttons")
	}
	// 📊 shows the odds of THAT roll: its message gains the odds line,
	// nothing is rolled, nothing new is posted.
	f.Press(first, nikos, *kb[0][1].CallbackData)
	answers := f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	if a := answers[0]; a.Params["text"] != "" {
		t.Errorf("again answered with %q", a.Params["text"])
	}
	if got := answers[1].Params["text"]; got != "📊 Probabilidad: 50 % · media 7" {
		t.Errorf("odds toast %q", got)
	}
	edits := waitFor(t, "edits", 1, 5*time.Second, f.Edits)
	if e := edits[0]; e.Chat != g.ID || e.MessageID != first.ID || e.Visible != "🎲 Ana: 2d6 = 1\n📊 Probabilidad: 50 % · media 7" {
		t.Errorf("odds edit %+v", e)
	}
	if e := edits[0]; !strings.Contains(e.Markup, "again") || strings.Contains(e.Markup, "odds") {
		t.Errorf("after the odds the keyboard is %s, want the again button only", e.Markup)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 2 {
		t.Errorf("%d messages after the odds button, want 2 (it rolls nothing)", n)
	}
}

func TestStaleOrForgedButtonGetsPoliteAnswer(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-102)
	f.SayIn(g, ana, "/roll 1d20")
	first := f.waitSent(g.ID, 1, 5*time.Second)[0]
	for _, data := range []string{"A:999999", "zz", "a:no-slash", "O:x", "a:", "\xff\xfe", strings.Repeat("a", 64)} {
		f.Press(first, bob, data)
	}
	answers := f.waitCalls("answerCallbackQuery", 7, 5*time.Second)
	for _, a := range answers {
		if a.Params["text"] != "Este botón ya no funciona. Escribe la orden de nuevo." {
			t.Errorf("answer = %q", a.Params["text"])
		}
	}
	// Still alive and nothing else said.
	f.SayIn(g, ana, "/echo vivo")
	got := f.waitSent(g.ID, 2, 5*time.Second)
	if len(got) != 2 || got[1].Visible != "vivo" {
		t.Fatalf("after forged buttons: %+v", got)
	}
}

func TestLongCommandButtonIsRemembered(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-103)
	long := "/roll " + strings.Repeat("1d6+", 30) + "1"
	f.SayIn(g, ana, long)
	first := f.waitSent(g.ID, 1, 5*time.Second)[0]
	data := *keyboardOf(t, first)[0][0].CallbackData
	if len(data) > 64 {
		t.Fatalf("callback data %d bytes", len(data))
	}
	f.Press(first, bob, data)
	again := f.waitSent(g.ID, 2, 5*time.Second)[1]
	if !strings.Contains(again.Visible, strings.Repeat("1d6+", 30)) {
		t.Errorf("again ran %q", again.Visible)
	}
}

func TestCommandsForOtherBotsIgnored(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-104)
	f.SayIn(g, ana, "/echo uno@OtherBot")
	f.SayIn(g, ana, "/echo@OtherBot dos")
	f.SayIn(g, ana, "hola a todos")
	f.SayIn(g, ana, "/echo@ZariaTestBot tres")
	got := f.waitSent(g.ID, 2, 5*time.Second)
	time.Sleep(50 * time.Millisecond)
	got = f.SentTo(g.ID)
	if len(got) != 2 || got[0].Visible != "uno@OtherBot" || got[1].Visible != "tres" {
		t.Fatalf("got %+v", got)
	}
}

func TestPrivateStartWelcomesInUserLanguage(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Private(nikos), nikos, "/start")
	got := f.waitSent(nikos.ID, 1, 5*time.Second)[0]
	// Νίκος is greeted as one calls him: «Γεια σου, Νίκο!» (issue 36).
	if !strings.Contains(got.Visible, "Γεια σου, Νίκο!") {
		t.Errorf("welcome = %q", got.Visible)
	}
}

func TestNewChatLanguageFromFirstUser(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-105)
	f.SayIn(g, nikos, "/nosuchcommand")
	f.waitSent(g.ID, 1, 5*time.Second)
	f.SayIn(g, bob, "/nosuchcommand") // an English client later does not change it
	got := f.waitSent(g.ID, 2, 5*time.Second)
	for _, m := range got {
		if !strings.Contains(m.Visible, "Δεν ξέρω") {
			t.Errorf("reply not in Greek: %q", m.Visible)
		}
	}
	g2 := telegramtest.Group(-106)
	f.SayIn(g2, bob, "/whoami") // issue 12: an English client gets English (it got the default)
	if m := f.waitSent(g2.ID, 1, 5*time.Second)[0]; !strings.HasSuffix(m.Visible, "lang=en") {
		t.Errorf("English client in a new chat: %q", m.Visible)
	}
}

func TestGroupAdminsAreGMs(t *testing.T) {
	f := newFakeAPI(t)
	f.SetAdmins(-107, ana.ID)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-107)
	f.SayIn(g, ana, "/whoami")
	f.SayIn(g, bob, "/whoami")
	got := f.waitSent(g.ID, 2, 5*time.Second)
	if !strings.Contains(got[0].Visible, "gm=true") || !strings.Contains(got[1].Visible, "gm=false") {
		t.Errorf("got %q / %q", got[0].Visible, got[1].Visible)
	}
	// Anonymous admin: posts as the group itself.
	f.Push(tgbotapi.Update{Message: &tgbotapi.Message{MessageID: 9, Chat: g, SenderChat: g,
		From: &tgbotapi.User{ID: 1087968824, IsBot: true, FirstName: "Group"}, Text: "/whoami"}})
	if m := f.waitSent(g.ID, 3, 5*time.Second)[2]; !strings.Contains(m.Visible, "gm=true") {
		t.Errorf("anonymous admin: %q", m.Visible)
	}
	if n := len(f.CallsOf("getChatAdministrators")); n != 1 {
		t.Errorf("getChatAdministrators called %d times, want 1 (cached)", n)
	}
}

// dispatchFunc is the test router whose Dispatch is a function, for
// replies the router would never give (longer than its own
// 3,500-character cap).
type dispatchFunc struct {
	*command.Router
	f func(ctx context.Context, msg core.Message) (*reply.Reply, bool)
}

func (d dispatchFunc) Dispatch(ctx context.Context, msg core.Message) (*reply.Reply, bool) {
	return d.f(ctx, msg)
}

func TestLongReplySplitAtLineBreaks(t *testing.T) {
	f := newFakeAPI(t)
	long := &reply.Reply{Command: "/long", Buttons: []reply.Button{{Kind: reply.ButtonAgain, Label: "again", Action: &reply.Action{Kind: reply.ActAgain, Command: "/long"}}}}
	for i := range 150 {
		long.Add(reply.B(fmt.Sprintf("%03d", i)), reply.T(` <a&b> "ζαριά" 🎲 `), reply.C(strings.Repeat("x", 40)))
	}
	start(t, testConfig(f), dispatchFunc{testRouter(t), func(context.Context, core.Message) (*reply.Reply, bool) { return long, true }}, newMemState())
	f.SayIn(telegramtest.Private(ana), ana, "/long")
	f.waitSent(ana.ID, 3, 5*time.Second)
	time.Sleep(50 * time.Millisecond)
	got := f.SentTo(ana.ID)
	var all []string
	for i, m := range got {
		if n := utf16Len(m.Visible); n > 4096 {
			t.Errorf("message %d: %d characters", i, n)
		}
		if (i == len(got)-1) != (m.Params["reply_markup"] != "") {
			t.Errorf("message %d: buttons %q (only the last one has them)", i, m.Params["reply_markup"])
		}
		all = append(all, m.Visible)
	}
	lines := strings.Split(strings.Join(all, "\n"), "\n")
	if len(lines) != 150 {
		t.Fatalf("%d lines arrived in %d messages, want 150", len(lines), len(got))
	}
	for i, l := range lines {
		if want := fmt.Sprintf(`%03d <a&b> "ζαριά" 🎲 %s`, i, strings.Repeat("x", 40)); l != want {
			t.Fatalf("line %d = %q, want %q", i, l, want)
		}
	}
}

func TestSplitHTMLInsideOneHugeSpan(t *testing.T) {
	text := strings.Repeat("ab&<c> ", 2000) // 14,000 characters, no line break
	chunks := splitHTML([]reply.Line{{reply.B(text)}}, 4096)
	var b strings.Builder
	for _, c := range chunks {
		v, err := telegramtest.Visible(c)
		if err != nil {
			t.Fatalf("chunk is not valid Telegram HTML: %v", err)
		}
		if utf16Len(v) > 4096 {
			t.Fatalf("chunk of %d", utf16Len(v))
		}
		if !strings.HasPrefix(c, "<b>") || !strings.HasSuffix(c, "</b>") {
			t.Fatalf("chunk not closed: %.20q…%.20q", c, c[len(c)-20:])
		}
		b.WriteString(v)
	}
	if b.String() != text {
		t.Fatal("text changed by splitting")
	}
	if len(chunks) != 4 {
		t.Errorf("%d chunks, want 4", len(chunks))
	}
}

func TestDocumentCaptionImport(t *testing.T) {
	f := newFakeAPI(t)
	f.AddFile("sheet-1", []byte("\ufeffDrake\nfuerza 4\natletismo 2\n"))
	f.AddFile("bin", []byte{0xff, 0xfe, 0x00})
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-109)
	doc := func(fileID, caption string, size int) {
		f.Push(tgbotapi.Update{Message: &tgbotapi.Message{MessageID: 77, Chat: g, From: ana.API(), Caption: caption,
			Document: &tgbotapi.Document{FileID: fileID, FileName: "drake.txt", FileSize: size}}})
	}
	doc("sheet-1", "/importar", 30)
	doc("bin", "/import", 3)
	doc("sheet-1", "/importar", 10<<20)
	got := f.waitSent(g.ID, 3, 5*time.Second)
	want := []string{"lines=3 first=Drake", "⚠️ El archivo debe ser de texto (UTF-8).", "⚠️ El archivo es demasiado grande (máximo 256 KB)."}
	for i := range want {
		if got[i].Visible != want[i] {
			t.Errorf("reply %d = %q, want %q", i, got[i].Visible, want[i])
		}
	}
}

func TestFileReplyIsADocument(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	f.SayIn(telegramtest.Private(ana), ana, "/export")
	got := f.waitSent(ana.ID, 1, 5*time.Second)[0]
	if got.Method != "sendDocument" || string(got.Doc) != `{"name":"Drake"}` || got.Visible != "your sheet" {
		t.Errorf("got %s %q caption %q", got.Method, got.Doc, got.Visible)
	}
}

func TestChatLanguageSettingWins(t *testing.T) {
	f := newFakeAPI(t)
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(-110)
	f.SayIn(g, nikos, "/idioma en")
	f.SayIn(g, nikos, "/nosuchcommand")
	got := f.waitSent(g.ID, 2, 5*time.Second)
	if !strings.Contains(got[0].Visible, "From now on I speak English") || got[1].Visible != "⚠️ I don't know /nosuchcommand. Type /help to see what I can do." {
		t.Errorf("got %q / %q", got[0].Visible, got[1].Visible)
	}
}

// TestDocumentCaptionImportChatPrefix: a caption is a file command when
// the core says so for that chat: with the chat's own prefix it is read
// (the adapter does not parse the command itself), addressed to another
// bot it is not even downloaded.
func TestDocumentCaptionImportChatPrefix(t *testing.T) {
	f := newFakeAPI(t)
	f.AddFile("sheet-1", []byte("Drake\nfuerza 4\n"))
	settings := memory.New()
	g := telegramtest.Group(-110)
	if err := settings.SetOption(context.Background(), core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(g.ID, 10)}, "prefix", "."); err != nil {
		t.Fatal(err)
	}
	start(t, testConfig(f), testRouterOn(t, settings, nil), newMemState())
	doc := func(id int, caption string) {
		f.Push(tgbotapi.Update{Message: &tgbotapi.Message{MessageID: id, Chat: g, From: ana.API(), Caption: caption,
			Document: &tgbotapi.Document{FileID: "sheet-1", FileName: "drake.txt", FileSize: 15}}})
	}
	doc(1, "/importar@OtherBot")
	doc(2, ".importar")
	got := f.waitSent(g.ID, 1, 5*time.Second)
	if got[0].Visible != "lines=2 first=Drake" {
		t.Errorf("reply %q, want the file's two lines", got[0].Visible)
	}
	if n := len(f.CallsOf("getFile")); n != 1 {
		t.Errorf("getFile called %d times, want 1 (not for /importar@OtherBot)", n)
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 1 {
		t.Errorf("%d replies, want 1: /importar@OtherBot is not for us", n)
	}
}
