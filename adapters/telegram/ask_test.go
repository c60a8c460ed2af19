package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/gm"
	"zaria/core/roll"
	"zaria/core/sheet"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// askRouter is the real /pedir over db with /roll, /odds and the sheets;
// every command's dice are faces, in order.
func askRouter(t *testing.T, db *sqlite.DB, faces ...int) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	src := dice.NewScripted(faces)
	sheets := sheet.New(db, sheet.Options{})
	r := command.New(command.Config{Translator: cat, Settings: db, GMs: db, Sheets: sheets, DefaultLang: "es",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}, NewSource: func() dice.Source { return src },
		NamedGMs: func(ctx context.Context, chat core.ChatRef) ([]string, error) {
			gms, err := db.ListGMs(ctx, chat)
			ids := make([]string, len(gms))
			for i, g := range gms {
				ids[i] = g.UserID
			}
			return ids, err
		}})
	roll.Register(r)
	roll.RegisterOdds(r)
	sheet.Register(r, sheets)
	general.Register(r, general.Options{Version: "test"})
	ask.Register(r, ask.New(db, db, ask.Options{}))
	return r
}

// seatPlayers gives each player a character with its percepción.
func seatPlayers(t *testing.T, db *sqlite.DB, chat int64, seats ...struct {
	u    telegramtest.User
	name string
	per  string
}) {
	t.Helper()
	ref := core.ChatRef{Platform: "telegram", ID: itoa(chat)}
	for _, s := range seats {
		c := sheet.Character{Owner: itoa(s.u.ID), OwnerName: s.u.Name, Name: s.name, Key: sheet.NameKey(s.name),
			Values: []sheet.Value{{Name: "percepcion", Key: "percepcion", Text: s.per}}}
		if _, err := db.CreateCharacter(context.Background(), ref, c, sheet.Quota{}); err != nil {
			t.Fatal(err)
		}
	}
}

// markup reads an edit's keyboard.
func markup(t *testing.T, s string) [][]tgbotapi.InlineKeyboardButton {
	t.Helper()
	if s == "" {
		return nil
	}
	var kb tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(s), &kb); err != nil {
		t.Fatal(err)
	}
	return kb.InlineKeyboard
}

// button is the callback data of the key whose text holds name.
func button(t *testing.T, kb [][]tgbotapi.InlineKeyboardButton, name string) string {
	t.Helper()
	for _, row := range kb {
		for _, b := range row {
			if strings.Contains(b.Text, name) && b.CallbackData != nil {
				return *b.CallbackData
			}
		}
	}
	t.Fatalf("no key %q in %+v", name, kb)
	return ""
}

// TestAskForARoll: the GM (an admin) asks the group for a roll; she gets
// each character's chance privately first; the group gets one message
// with a key per character; three players press theirs, the GM presses
// for the fourth and ⏹, and that one message is edited into the results
// and the summary, nothing else posted in the group. A stranger's press,
// a second press and a press on the closed request are each a toast.
func TestAskForARoll(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	t.Cleanup(func() { db.Close() })
	const group = -930
	cai := telegramtest.User{ID: 504, Name: "Cai", Lang: "es"}
	dee := telegramtest.User{ID: 505, Name: "Dee", Lang: "es"}
	eve := telegramtest.User{ID: 506, Name: "Eve", Lang: "es"}
	type seat = struct {
		u    telegramtest.User
		name string
		per  string
	}
	seatPlayers(t, db, group, seat{bob, "Lyra", "3"}, seat{nikos, "Drake", "1"}, seat{cai, "Borin", "0"}, seat{dee, "Kael", "5"})
	f.SetAdmins(group, ana.ID)
	start(t, testConfig(f), askRouter(t, db, 15, 4, 11, 10), db)
	g := telegramtest.Group(group)
	if err := db.SetLang(context.Background(), core.ChatRef{Platform: "telegram", ID: itoa(group)}, "es"); err != nil {
		t.Fatal(err)
	}

	f.SayIn(g, ana, "/pedir 1d20+percepcion vs 14")
	chances := f.waitSent(ana.ID, 1, 5*time.Second)[0]
	for _, want := range []string{"Probabilidad de cada personaje", "Lyra · 14 o más: 50 %", "Drake · 14 o más: 40 %", "Borin · 14 o más: 35 %", "Kael · 14 o más: 60 %"} {
		if !strings.Contains(chances.Visible, want) {
			t.Errorf("the GM's chances %q lack %q", chances.Visible, want)
		}
	}
	asked := f.waitSent(group, 1, 5*time.Second)[0]
	if !strings.Contains(asked.Visible, "Ana pide: /roll 1d20+percepcion vs 14") || !strings.Contains(asked.Visible, "Esperando a: Borin, Drake, Kael, Lyra") ||
		strings.Contains(asked.Visible, "%") {
		t.Fatalf("the request in the group: %q", asked.Visible)
	}
	kb := keyboardOf(t, asked)
	answers := 0
	press := func(u telegramtest.User, name string) string {
		t.Helper()
		f.Press(asked, u, button(t, kb, name))
		answers++
		return f.waitCalls("answerCallbackQuery", answers, 5*time.Second)[answers-1].Params["text"]
	}
	edited := func(n int) telegramtest.Edit {
		t.Helper()
		e := waitFor(t, "the request edited", n, 5*time.Second, f.Edits)[n-1]
		if e.MessageID != asked.ID {
			t.Fatalf("edit of message %d, want %d", e.MessageID, asked.ID)
		}
		kb = markup(t, e.Markup)
		return e
	}
	// 📊: the chances in a pop-up, for the GM only (one who never opened
	// a private chat with the bot reads them so).
	if got := press(ana, "📊"); got != "Borin 35 % · Drake 40 % · Kael 60 % · Lyra 50 %" {
		t.Errorf("the GM's 📊: %q", got)
	}
	if got := press(eve, "📊"); !strings.Contains(got, "Solo el máster") {
		t.Errorf("a player's 📊: %q", got)
	}
	if alerts := f.CallsOf("answerCallbackQuery"); alerts[len(alerts)-1].Params["show_alert"] != "true" {
		t.Errorf("📊 answered without a pop-up: %+v", alerts[len(alerts)-1].Params)
	}
	if got := press(bob, "Lyra"); got != "" {
		t.Errorf("Bob's press: toast %q", got)
	}
	if e := edited(1); !strings.Contains(e.Visible, "✅ Lyra: 18 · +4") || !strings.Contains(e.Visible, "Esperando a: Borin, Drake, Kael") {
		t.Errorf("after Bob's press: %q", e.Visible)
	}
	if got := press(eve, "Kael"); !strings.Contains(got, "Kael es de Dee") {
		t.Errorf("a stranger's press: toast %q", got)
	}
	if got := press(bob, "Lyra"); !strings.Contains(got, "Lyra ya ha tirado") {
		t.Errorf("a second press: toast %q", got)
	}
	press(nikos, "Drake")
	edited(2)
	press(cai, "Borin")
	edited(3)
	press(ana, "Kael")
	edited(4)
	press(ana, "⏹")
	final := edited(5)
	for _, want := range []string{"✅ Lyra: 18 · +4", "❌ Drake: 5 · −9", "❌ Borin: 11 · −3", "✅ Kael: 15 · +1 (la tiró el máster)",
		"⏹ Cerrada · 2 de 4 con éxito · mejor margen +4, peor −9"} {
		if !strings.Contains(final.Visible, want) {
			t.Errorf("the final message %q lacks %q", final.Visible, want)
		}
	}
	if final.Markup != "" {
		t.Errorf("the closed request keeps keys: %s", final.Markup)
	}
	kb = keyboardOf(t, asked) // a key kept from before it closed
	if got := press(bob, "Lyra"); !strings.Contains(got, "ya está cerrada") {
		t.Errorf("a press on the closed request: toast %q", got)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(f.SentTo(group)); n != 1 {
		t.Errorf("%d messages in the group, want 1 (the request, edited)", n)
	}
	if n := len(f.Edits()); n != 5 {
		t.Errorf("%d edits, want 5", n)
	}
}

// TestAskBlindAndRestart: a blind request shows the group who rolled and
// no number, the result goes privately to the GM and not to the roller;
// after a restart its keys still work and edit the same message, and ⏹
// sends the GM the summary with the numbers.
func TestAskBlindAndRestart(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	t.Cleanup(func() { db.Close() })
	const group = -931
	type seat = struct {
		u    telegramtest.User
		name string
		per  string
	}
	seatPlayers(t, db, group, seat{bob, "Lyra", "3"}, seat{nikos, "Drake", "1"})
	f.SetAdmins(group, ana.ID)
	run := start(t, testConfig(f), askRouter(t, db, 15, 4), db)
	g := telegramtest.Group(group)
	if err := db.SetLang(context.Background(), core.ChatRef{Platform: "telegram", ID: itoa(group)}, "es"); err != nil {
		t.Fatal(err)
	}
	f.SayIn(g, ana, "/pedir ciega 1d20+percepcion vs 14")
	f.waitSent(ana.ID, 1, 5*time.Second) // the chances
	asked := f.waitSent(group, 1, 5*time.Second)[0]
	if !strings.Contains(asked.Visible, "Ana pide una tirada a ciegas.") || strings.Contains(asked.Visible, "14") {
		t.Fatalf("the blind request in the group: %q", asked.Visible)
	}
	kb := keyboardOf(t, asked)
	f.Press(asked, bob, button(t, kb, "Lyra"))
	if got := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)[0].Params["text"]; got != "" {
		t.Fatalf("Bob's press: toast %q", got)
	}
	e := waitFor(t, "the request edited", 1, 5*time.Second, f.Edits)[0]
	if !strings.Contains(e.Visible, "✔ Lyra · ha tirado") || strings.Contains(e.Visible, "18") {
		t.Errorf("the group reads %q", e.Visible)
	}
	toGM := f.waitSent(ana.ID, 2, 5*time.Second)[1]
	if !strings.Contains(toGM.Visible, "[15] + percepcion (3) = 18") {
		t.Errorf("the GM's copy: %q", toGM.Visible)
	}
	if n := len(f.SentTo(bob.ID)); n != 0 {
		t.Errorf("the roller got %d private messages", n)
	}

	run.stop(t)
	start(t, testConfig(f), askRouter(t, db, 4), db)
	f.Press(asked, nikos, button(t, kb, "Drake"))
	e = waitFor(t, "the request edited after a restart", 2, 5*time.Second, f.Edits)[1]
	if e.MessageID != asked.ID || !strings.Contains(e.Visible, "✔ Drake · ha tirado") {
		t.Errorf("after a restart: edit of %d, %q", e.MessageID, e.Visible)
	}
	f.Press(asked, ana, button(t, kb, "⏹"))
	e = waitFor(t, "the request closed", 3, 5*time.Second, f.Edits)[2]
	if !strings.Contains(e.Visible, "Cerrada · han tirado 2 de 2") || strings.Contains(e.Visible, "éxito") {
		t.Errorf("the group's summary: %q", e.Visible)
	}
	summary := f.waitSent(ana.ID, 4, 5*time.Second)[3]
	if !strings.Contains(summary.Visible, "1 de 2 con éxito · mejor margen +4, peor −9") {
		t.Errorf("the GM's summary: %q", summary.Visible)
	}
	if n := len(f.SentTo(group)); n != 1 {
		t.Errorf("%d messages in the group, want 1", n)
	}
}

// TestAskEditsBatched: six players pressing at once, with a chat's one
// message a second, cost at most two edits of the request (the sender
// sends only the newest queued edit of a message), and the last shows
// all six results.
func TestAskEditsBatched(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	t.Cleanup(func() { db.Close() })
	const group = -932
	type seat = struct {
		u    telegramtest.User
		name string
		per  string
	}
	var seats []seat
	for i := range 6 {
		seats = append(seats, seat{telegramtest.User{ID: int64(600 + i), Name: "P" + itoa(int64(i)), Lang: "es"}, "Pj" + itoa(int64(i)), "1"})
	}
	seatPlayers(t, db, group, seats...)
	f.SetAdmins(group, ana.ID)
	cfg := testConfig(f)
	cfg.Limits.ChatInterval = time.Second
	start(t, cfg, askRouter(t, db, 1, 2, 3, 4, 5, 6), db)
	g := telegramtest.Group(group)
	f.SayIn(g, ana, "/pedir 1d20+percepcion vs 14")
	asked := f.waitSent(group, 1, 5*time.Second)[0]
	kb := keyboardOf(t, asked)
	for _, s := range seats {
		f.Press(asked, s.u, button(t, kb, s.name))
	}
	final := waitFor(t, "the edit with six results", 1, 10*time.Second, func() []telegramtest.Edit {
		for _, e := range f.Edits() {
			if !strings.Contains(e.Visible, "⏳") {
				return []telegramtest.Edit{e}
			}
		}
		return nil
	})[0]
	for _, s := range seats {
		if !strings.Contains(final.Visible, s.name+":") {
			t.Errorf("the last edit %q lacks %s", final.Visible, s.name)
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if n := len(f.Edits()); n > 2 {
		t.Errorf("%d edits for six presses at once, want at most 2", n)
	}
}

// htmlTag is a tag of a message's HTML text, which the emulator keeps.
var htmlTag = regexp.MustCompile(`<[^>]+>`)

// TestEmulatorAskForARoll, against the third-party emulator: the GM (named
// with /gm) asks; three players press their keys and the GM presses the
// absent fourth's and ⏹: the group has one message, edited into the
// results and the summary; the GM's chances went to her private chat.
func TestEmulatorAskForARoll(t *testing.T) {
	emu := startEmulator(t)
	token := "7004:emu-ask"
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	t.Cleanup(func() { db.Close() })
	const chat = -4001236666
	ref := core.ChatRef{Platform: "telegram", ID: itoa(chat)}
	ctx := context.Background()
	gmUser := telegramtest.User{ID: 9100, Name: "Gema", Lang: "en"}
	if _, err := db.AddGM(ctx, ref, gm.GM{UserID: itoa(gmUser.ID), Name: gmUser.Name}, 0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLang(ctx, ref, "en"); err != nil {
		t.Fatal(err)
	}
	p := []telegramtest.User{{ID: 9101, Name: "Ana"}, {ID: 9102, Name: "Bob"}, {ID: 9103, Name: "Cai"}, {ID: 9104, Name: "Dee"}}
	type seat = struct {
		u    telegramtest.User
		name string
		per  string
	}
	seatPlayers(t, db, chat, seat{p[0], "Lyra", "3"}, seat{p[1], "Drake", "1"}, seat{p[2], "Borin", "0"}, seat{p[3], "Kael", "5"})
	cfg := Config{Token: token, APIURL: emu.base, PollTimeout: time.Second, RequestTimeout: 5 * time.Second,
		Limits: Limits{ChatInterval: time.Millisecond, GroupLimit: 100, GroupWindow: time.Millisecond}}
	start(t, cfg, askRouter(t, db, 15, 4, 11, 10), db)
	group := map[string]any{"id": chat, "type": "supergroup", "title": "Mesa"}
	from := func(u telegramtest.User) map[string]any {
		return map[string]any{"id": u.ID, "first_name": u.Name, "language_code": "en", "is_bot": false}
	}
	emu.post("/sendCommand", map[string]any{"botToken": token, "from": from(gmUser), "chat": group, "date": time.Now().Unix(),
		"text": "/ask 1d20+percepcion vs 14", "entities": []map[string]any{{"type": "bot_command", "offset": 0, "length": 4}}}, nil)
	asked := emu.waitBot(token, chat)
	if !strings.Contains(asked.Message.Text, "Gema asks for:") {
		t.Fatalf("the request: %q", asked.Message.Text)
	}
	keys := map[string]string{}
	for _, row := range asked.keyboard(t) {
		for _, k := range row {
			keys[strings.TrimPrefix(k.Text, "🎲 ")] = k.CallbackData
		}
	}
	inGroup := func() []botMessage {
		var out []botMessage
		for _, m := range emu.history(token) {
			if fmt.Sprint(m.Message.ChatID) == fmt.Sprint(chat) {
				out = append(out, m)
			}
		}
		return out
	}
	press := func(u telegramtest.User, key, want string) {
		t.Helper()
		emu.post("/sendCallback", map[string]any{"botToken": token, "from": from(u), "data": keys[key],
			"message": map[string]any{"message_id": asked.MessageID, "chat": group, "date": time.Now().Unix()}}, nil)
		for deadline := time.Now().Add(minWait); ; time.Sleep(20 * time.Millisecond) {
			h := inGroup()
			if len(h) == 1 && strings.Contains(htmlTag.ReplaceAllString(h[0].Message.Text, ""), want) {
				return
			}
			if len(h) > 1 || time.Now().After(deadline) {
				t.Fatalf("after %s's press, want one message with %q: %+v", u.Name, want, h)
			}
		}
	}
	press(p[0], "Lyra", "✅ Lyra: 18 · +4")
	press(p[1], "Drake", "❌ Drake: 5 · −9")
	press(p[2], "Borin", "❌ Borin: 11 · −3")
	press(gmUser, "Kael", "✅ Kael: 15 · +1 (rolled by the GM)")
	press(gmUser, "⏹ Close", "⏹ Closed · 2 of 4 succeeded · best margin +4, worst −9")
	var chances bool
	for _, m := range emu.history(token) {
		if fmt.Sprint(m.Message.ChatID) == itoa(gmUser.ID) && strings.Contains(htmlTag.ReplaceAllString(m.Message.Text, ""), "Lyra · 14 or more: 50%") {
			chances = true
		}
	}
	if !chances {
		t.Errorf("the GM's private chat has no chances: %+v", emu.history(token))
	}
}
