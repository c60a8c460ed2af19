package telegram

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
)

// TestStoredChoicesDoNotGrowPerPress: a question whose choices are too
// long for the callback data keeps each choice in the state, once: asking
// the same question again (a user pressing the asking button over and
// over, or opening "@Bot" again and again) writes no new records, and
// the choices of every one of those messages still roll.
func TestStoredChoicesDoNotGrowPerPress(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	long := strings.Repeat("armadura de placas ", 4)
	r := testRouterOn(t, db, nil)
	r.Register(command.Command{Name: "elegir", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		rep := reply.Text("¿Contra qué?")
		for _, v := range []string{long, long + "2"} {
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: "x",
				Action: &reply.Action{Kind: reply.ActRun, Button: 7, Values: []string{v}}})
		}
		return rep, nil
	})})
	r.HandleAction(reply.ActRun, func(_ context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
		return reply.Text(req.Msg.From.Name + ": " + a.Values[0]), nil
	})
	start(t, testConfig(f), r, db)
	g := telegramtest.Group(-733)
	const asks = 5
	for i := range asks {
		f.SayIn(g, ana, "/elegir")
		f.waitSent(g.ID, i+1, 5*time.Second)
	}
	recs, err := db.StatesWithPrefix(t.Context(), "telegram.")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k := range recs {
		if strings.Contains(k, ".b.") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d stored records after asking the same 2 choices %d times, want 1", n, asks)
	}
	for i, m := range f.SentTo(g.ID) {
		f.Press(m, bob, *keyboardOf(t, m)[0][0].CallbackData)
		if got := f.waitSent(g.ID, asks+i+1, 5*time.Second)[asks+i]; got.Visible != "Bob: "+long {
			t.Errorf("the first choice of question %d rolled %q", i+1, got.Visible)
		}
	}
}

// TestInlineRecentStoredOnce: a recent roll too long for a result id is
// kept in the state once, however often Ana opens "@Bot".
func TestInlineRecentStoredOnce(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), historyRouter(t, db), db)
	long := "/roll 1d20+1d12+1d10+1d8+1d6+1d4+3 vs 25 # ataque con la espada"
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, long)
	f.waitSent(ana.ID, 1, 5*time.Second)
	records := func() int {
		recs, err := db.StatesWithPrefix(t.Context(), "telegram.")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for k := range recs {
			if strings.Contains(k, ".b.") {
				n++
			}
		}
		return n
	}
	before := records() // the roll's own buttons
	for i := range 4 {
		f.InlineQuery(ana, "")
		f.waitCalls("answerInlineQuery", i+1, 5*time.Second)
	}
	if n := records() - before; n != 1 {
		t.Errorf("%d stored recent rolls after 4 empty queries with one long roll, want 1", n)
	}
}

// TestInlineSecretRoll: Ana's private pad has a secret roll. Posted
// inline into a group, the message shows only that she rolled in secret,
// never the result; the result reaches Ana in her private chat, as the
// same /gmroll typed there answers.
func TestInlineSecretRoll(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), historyRouter(t, db), db)
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, `/pad add "Sigilo" /gmroll /roll d20+3`)
	f.waitSent(ana.ID, 1, 5*time.Second)
	f.InlineQuery(ana, "")
	res := waitFor(t, "inline results", 1, 5*time.Second, f.InlineResults)
	id, err := f.Choose(ana, res[0].ID, "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if got := f.InlineText(id); !strings.Contains(got, "🤫") || strings.Contains(got, " = ") {
		t.Errorf("the secret roll posted inline shows %q", got)
	}
	dm := f.waitSent(ana.ID, 2, 5*time.Second)[1]
	if !strings.Contains(dm.Visible, "🎲 d20+3\n") || !strings.Contains(dm.Visible, " = ") {
		t.Errorf("Ana's private chat got %q, want her secret roll", dm.Visible)
	}
}

// TestPadPressLongError: a press whose answer is an error too long for
// the press's toast (Telegram shows at most 200 characters) is posted
// whole in reply to the pad, as the same command typed would be, rather
// than cut short mid-instruction; a short one stays the toast.
func TestPadPressLongError(t *testing.T) {
	f := newFakeAPI(t)
	long := "⚠️ No tengo opciones que ofrecer para {1} en «/dh ataque " + strings.Repeat("x", 150) + "». Escribe el valor en el botón en su lugar, p. ej. /pad añadir /daegon 7 difícil."
	r := testRouterWith(t, nil)
	r.Register(command.Command{Name: "pad", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		rep := reply.Text("pad")
		for i, l := range []string{"largo", "corto"} {
			rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: l, Action: &reply.Action{Kind: reply.ActRun, Button: int64(i + 1)}})
		}
		return rep, nil
	})})
	r.HandleAction(reply.ActRun, func(_ context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
		rep := reply.Text("⚠️ corto")
		if a.Button == 1 {
			rep = reply.Text(long)
		}
		rep.Error = true
		return rep, nil
	})
	start(t, testConfig(f), r, newMemState())
	g := telegramtest.Group(-734)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 1, 5*time.Second)[0]
	kb := keyboardOf(t, shown)
	f.Press(shown, ana, *kb[0][0].CallbackData)
	got := f.waitSent(g.ID, 2, 5*time.Second)[1]
	if got.Visible != long || got.ReplyTo != shown.ID {
		t.Errorf("the long error was posted as %q (reply to %d)", got.Visible, got.ReplyTo)
	}
	f.Press(shown, ana, *kb[0][1].CallbackData)
	answers := f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	if answers[0].Params["text"] != "" || answers[1].Params["text"] != "⚠️ corto" {
		t.Errorf("the toasts were %q and %q", answers[0].Params["text"], answers[1].Params["text"])
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 2 {
		t.Errorf("%d messages, want 2 (the short error is the toast only)", n)
	}
}

// TestInlineListingIsNotARoll: opening "@Bot" again and again lists
// Ana's pad drawing once on her rate limit (a burst of 5), not each time:
// after opening it more often than the burst, the pad is still listed and
// choosing a button still rolls; a button she adds is listed at once.
func TestInlineListingIsNotARoll(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: db, DefaultLang: "es",
		Limits: command.Limits{Burst: 5, Refill: time.Hour}})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	pad.Register(r, pad.New(db, pad.Options{}))
	start(t, testConfig(f), r, db)
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, "/pad add d20")
	f.waitSent(ana.ID, 1, 5*time.Second)
	for i := range 6 {
		f.InlineQuery(ana, "")
		calls := f.waitCalls("answerInlineQuery", i+1, 5*time.Second)
		if !strings.Contains(calls[i].Params["results"], `"1r`) {
			t.Fatalf("opening @Bot the %d. time lists %s, want the pad's d20", i+1, calls[i].Params["results"])
		}
	}
	id, err := f.Choose(ana, "1r1", "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if got := f.InlineText(id); !strings.Contains(got, "Ana: 🎲 d20\n") || !strings.Contains(got, " = ") {
		t.Errorf("the chosen button shows %q", got)
	}
	// What she changes in her private chat is listed at once.
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, "/pad add 2d6")
	f.waitSent(ana.ID, 2, 5*time.Second)
	f.InlineQuery(ana, "")
	calls := f.waitCalls("answerInlineQuery", 7, 5*time.Second)
	if !strings.Contains(calls[6].Params["results"], `"1r2"`) {
		t.Errorf("after adding 2d6 @Bot lists %s", calls[6].Params["results"])
	}
}

// TestPadButtonShowingKeyboardInGroup: a pad button that runs /pad
// teclado, pressed in a group, cannot give the presser the keyboard (a
// selective keyboard reaches the author of the message it replies to, and
// a press has none): the press's toast says to type the command instead
// and nothing is posted. In the private chat the press shows it.
func TestPadButtonShowingKeyboardInGroup(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)
	g := telegramtest.Group(-735)
	f.SayIn(g, ana, "/pad add d20")
	f.SayIn(g, ana, `/pad add "Teclado" /pad teclado`)
	f.waitSent(g.ID, 2, 5*time.Second)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 3, 5*time.Second)[2]
	f.Press(shown, ana, *keyboardOf(t, shown)[0][1].CallbackData)
	answers := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if got := answers[0].Params["text"]; got != "Para tener el teclado, escribe /botones teclado: Telegram solo se lo da a quien lo pide con un mensaje, no con un botón." {
		t.Errorf("the press was toasted %q", got)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 3 {
		t.Errorf("%d messages after the press, want 3 (nothing posted)", n)
	}

	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, `/pad add "Teclado" /pad teclado`)
	f.waitSent(ana.ID, 1, 5*time.Second)
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, "/pad")
	mine := f.waitSent(ana.ID, 2, 5*time.Second)[1]
	f.Press(mine, ana, *keyboardOf(t, mine)[0][0].CallbackData)
	got := f.waitSent(ana.ID, 3, 5*time.Second)[2]
	if !strings.Contains(got.Params["reply_markup"], `"keyboard"`) {
		t.Errorf("in the private chat the press gave %q with %s", got.Visible, got.Params["reply_markup"])
	}
}

// TestPadNextQuestionEditsInPlace: a button asking a weapon by group
// posts one question; choosing the group turns that same message into the
// weapons of the group (nothing new posted); choosing a weapon rolls, in
// reply to it. The pad's own message is never edited.
func TestPadNextQuestionEditsInPlace(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	r := padRouter(t, db)
	systems.Register(r)
	start(t, testConfig(f), r, db)
	g := telegramtest.Group(-736)
	f.SayIn(g, ana, `/pad add "Tajo" /dh ataque {arma} vs coraza`)
	f.waitSent(g.ID, 1, 5*time.Second)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 2, 5*time.Second)[1]
	f.Press(shown, ana, *keyboardOf(t, shown)[0][0].CallbackData)
	asked := f.waitSent(g.ID, 3, 5*time.Second)[2]
	if !strings.Contains(asked.Visible, "¿qué clase de arma?") {
		t.Fatalf("the press asked %q", asked.Visible)
	}
	f.Press(asked, ana, *keyboardOf(t, asked)[0][0].CallbackData) // ligeras
	edits := f.waitCalls("editMessageText", 1, 5*time.Second)
	if got := edits[0].Params; got["message_id"] != strconv.Itoa(asked.ID) || !strings.Contains(got["text"], "¿con qué arma?") || !strings.Contains(got["reply_markup"], "daga") {
		t.Fatalf("the group's choice edited %v", got)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 3 {
		t.Errorf("%d messages after choosing the group, want 3 (the question edited)", n)
	}
	var kb tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(edits[0].Params["reply_markup"]), &kb); err != nil {
		t.Fatal(err)
	}
	var daga string
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.Text == "daga" {
				daga = *b.CallbackData
			}
		}
	}
	f.Press(asked, ana, daga)
	rolled := f.waitSent(g.ID, 4, 5*time.Second)[3]
	if !strings.HasPrefix(rolled.Visible, "Ana: ") || !strings.Contains(rolled.Visible, "Daga") || rolled.ReplyTo != asked.ID {
		t.Errorf("the weapon rolled %q replying to %d", rolled.Visible, rolled.ReplyTo)
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
	// A question Telegram will not edit (deleted meanwhile): the next one
	// is posted in reply to it instead.
	f.Press(shown, ana, *keyboardOf(t, shown)[0][0].CallbackData)
	again := f.waitSent(g.ID, 5, 5*time.Second)[4]
	f.Inject("editMessageText", telegramtest.Fault{Code: 400, Description: "Bad Request: message to edit not found"})
	f.Press(again, ana, *keyboardOf(t, again)[0][0].CallbackData)
	if got := f.waitSent(g.ID, 6, 5*time.Second)[5]; !strings.Contains(got.Visible, "¿con qué arma?") || got.ReplyTo != again.ID {
		t.Errorf("after a refused edit the next question is %q replying to %d", got.Visible, got.ReplyTo)
	}
}
