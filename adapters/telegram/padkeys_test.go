package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/history"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// sentKeyboard is the reply keyboard (or its removal) a message carries.
type sentKeyboard struct {
	Keyboard     [][]struct{ Text string } `json:"keyboard"`
	IsPersistent bool                      `json:"is_persistent"`
	Resize       bool                      `json:"resize_keyboard"`
	OneTime      bool                      `json:"one_time_keyboard"`
	Placeholder  string                    `json:"input_field_placeholder"`
	Selective    bool                      `json:"selective"`
	Remove       bool                      `json:"remove_keyboard"`
}

func replyKeyboardOf(t *testing.T, m telegramtest.Sent) sentKeyboard {
	t.Helper()
	var k sentKeyboard
	if m.Params["reply_markup"] == "" {
		t.Fatalf("message %q has no reply_markup", m.Visible)
	}
	if err := json.Unmarshal([]byte(m.Params["reply_markup"]), &k); err != nil {
		t.Fatal(err)
	}
	return k
}

func (k sentKeyboard) keys() string {
	var rows []string
	for _, r := range k.Keyboard {
		var l []string
		for _, b := range r {
			l = append(l, b.Text)
		}
		rows = append(rows, strings.Join(l, "+"))
	}
	return strings.Join(rows, " / ")
}

// TestReplyKeyboardPrivateAndGroup: in her private chat Ana asks for her
// pad as a keyboard (/pad teclado): the phone keyboard is replaced by the
// pad's commands (resize, persistent, not one-time, not selective), and a
// key pressed (its text sent as her message) rolls like a typed command.
// In a group, /botones teclado answers her command with a selective
// keyboard (only she gets it); her key press is her own message in the
// group, so everyone sees "/roll 1d20+5" and the roll that answers it.
// /botones ocultar removes it, selective too. Telegram refused nothing.
func TestReplyKeyboardPrivateAndGroup(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)

	me := ana.ID
	f.Say(me, me, ana.Name, ana.Lang, "/pad add d20")
	f.Say(me, me, ana.Name, ana.Lang, `/pad add "Ataque con espada larga" /roll 1d20+5 vs 15`)
	f.waitSent(me, 2, 5*time.Second)
	ask := f.Say(me, me, ana.Name, ana.Lang, "/pad teclado")
	shown := f.waitSent(me, 3, 5*time.Second)[2]
	k := replyKeyboardOf(t, shown)
	if got := k.keys(); got != "/roll d20 / /roll 1d20+5 vs 15" {
		t.Errorf("private keys %q", got)
	}
	if !k.IsPersistent || !k.Resize || k.OneTime || k.Selective || k.Remove || k.Placeholder != "Pulsa una tirada o escribe" {
		t.Errorf("private keyboard %+v", k)
	}
	if shown.ReplyTo != ask || !strings.Contains(shown.Visible, "1. d20 · /roll d20") || !strings.Contains(shown.Visible, "/pad ocultar") {
		t.Errorf("the keyboard's message (reply to %d, want %d): %q", shown.ReplyTo, ask, shown.Visible)
	}
	key := f.Say(me, me, ana.Name, ana.Lang, k.Keyboard[0][0].Text)
	rolled := f.waitSent(me, 4, 5*time.Second)[3]
	if rolled.ReplyTo != key || !strings.HasPrefix(rolled.Visible, "🎲 Ana: d20 = ") {
		t.Errorf("the key's roll %q replies to %d, want %d", rolled.Visible, rolled.ReplyTo, key)
	}

	g := telegramtest.Group(-730)
	f.SayIn(g, ana, "/botones añadir d20")
	f.SayIn(g, ana, `/botones añadir "Ataque" /roll 1d20+5`)
	f.waitSent(g.ID, 2, 5*time.Second)
	ask = f.SayIn(g, ana, "/botones teclado")
	shown = f.waitSent(g.ID, 3, 5*time.Second)[2]
	k = replyKeyboardOf(t, shown)
	if got := k.keys(); got != "/roll d20+/roll 1d20+5" {
		t.Errorf("group keys %q (two short keys share a row)", got)
	}
	if !k.Selective || !k.IsPersistent || shown.ReplyTo != ask {
		t.Errorf("the group keyboard %+v replies to %d, want selective, a reply to Ana's %d", k, shown.ReplyTo, ask)
	}
	key = f.SayIn(g, ana, k.Keyboard[0][1].Text)
	rolled = f.waitSent(g.ID, 4, 5*time.Second)[3]
	if rolled.ReplyTo != key || !strings.HasPrefix(rolled.Visible, "🎲 Ana: 1d20+5 = ") {
		t.Errorf("the group sees %q replying to %d, want Ana's roll replying to her key %d", rolled.Visible, rolled.ReplyTo, key)
	}
	hide := f.SayIn(g, ana, "/botones ocultar")
	hidden := f.waitSent(g.ID, 5, 5*time.Second)[4]
	if k := replyKeyboardOf(t, hidden); !k.Remove || !k.Selective || len(k.Keyboard) != 0 || hidden.ReplyTo != hide {
		t.Errorf("hide sent %s replying to %d, want a selective removal replying to %d", hidden.Params["reply_markup"], hidden.ReplyTo, hide)
	}
	if !strings.Contains(hidden.Visible, "Teclado de tiradas oculto") {
		t.Errorf("hide says %q", hidden.Visible)
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// TestReplyKeyboardLayout pins the reply keyboard's markup: two short keys
// (≤ 14 characters) share a row, a long one takes its own; at most 100
// keys; empty keys are left off; the placeholder is cut to Telegram's 64
// characters; a keyboard without keys is no markup; hide is a removal.
func TestReplyKeyboardLayout(t *testing.T) {
	var k sentKeyboard
	mk := replyKeyboard(&reply.Keyboard{Keys: []string{"/roll d20", "/roll d6", "/zaria fuerza+atletismo dc15", " ", "/roll d8"},
		Placeholder: strings.Repeat("ζ", 80), Selective: true}, false)
	if err := json.Unmarshal([]byte(mk), &k); err != nil {
		t.Fatal(err)
	}
	if got := k.keys(); got != "/roll d20+/roll d6 / /zaria fuerza+atletismo dc15 / /roll d8" {
		t.Errorf("layout %q", got)
	}
	if n := len([]rune(k.Placeholder)); n != maxPlaceholder || !k.Selective {
		t.Errorf("placeholder of %d characters, selective %v", n, k.Selective)
	}
	var many []string
	for i := range 130 {
		many = append(many, "/roll d"+strconv.Itoa(i+2))
	}
	n := 0
	for _, r := range keyRows(many) {
		if len(r) > maxRowButtons {
			t.Errorf("a row of %d keys", len(r))
		}
		n += len(r)
	}
	if n != maxKeyboardButtons {
		t.Errorf("130 keys draw %d, want %d", n, maxKeyboardButtons)
	}
	if mk := replyKeyboard(&reply.Keyboard{Keys: []string{"", " "}}, false); mk != "" {
		t.Errorf("no keys gave %s", mk)
	}
	if mk := replyKeyboard(&reply.Keyboard{Hide: true}, true); mk != `{"remove_keyboard":true}` {
		t.Errorf("hide gave %s", mk)
	}
	// In a group a "!" key is sent as "/": privacy mode lets only those through.
	for group, want := range map[bool]string{false: "!tiro 3+/roll d6", true: "/tiro 3+/roll d6"} {
		k = sentKeyboard{}
		if err := json.Unmarshal([]byte(replyKeyboard(&reply.Keyboard{Keys: []string{"!tiro 3", "/roll d6"}}, group)), &k); err != nil {
			t.Fatal(err)
		}
		if got := k.keys(); got != want {
			t.Errorf("group=%v: keys %q, want %q", group, got, want)
		}
	}
}

// historyRouter is the real router on db with the real /roll, /pad and
// the roll history (so Recent has rolls to read).
func historyRouter(t *testing.T, db *sqlite.DB) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	hist := history.New(db, history.Options{Limits: history.Limits{Keep: 100, Show: 10, ShowMax: 20}})
	r := command.New(command.Config{Translator: cat, Settings: db, DefaultLang: "es", Observers: []command.Observer{hist},
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	history.Register(r, hist)
	pad.Register(r, pad.New(db, pad.Options{}))
	return r
}

// TestInlineRecentRolls: "@Bot" alone lists Ana's private pad and then
// her recent rolls there, newest first, each once (5 at most), nothing
// rolled yet; her group rolls are not among them. Chosen, a recent roll
// is rolled once posted; one whose command does not fit a result id is
// kept in the state and rolls too; Bob pressing its placeholder rolls
// nothing. The inline rolls are logged, so the next list starts with the
// last one chosen.
func TestInlineRecentRolls(t *testing.T) {
	recent4d6 := reply.Action{Kind: reply.ActAgain, Command: "/roll 4d6kh3"}.Encode() // its result id
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), historyRouter(t, db), db)
	me := ana.ID
	long := "/roll 1d20+1d12+1d10+1d8+1d6+1d4+3 vs 25 # ataque con la espada"
	say := func(text string, n int) {
		f.Say(me, me, ana.Name, ana.Lang, text)
		f.waitSent(me, n, 5*time.Second)
	}
	say("/pad add d20", 1)
	for i, c := range []string{"/roll 2d6", "/roll 4d6kh3", "/roll 2d6", long, "/roll 2d"} {
		say(c, i+2)
	}
	f.SayIn(telegramtest.Group(-731), ana, "/roll d100")
	f.waitSent(-731, 1, 5*time.Second)

	f.InlineQuery(ana, "")
	calls := f.waitCalls("answerInlineQuery", 1, 5*time.Second)
	res := waitFor(t, "inline results", 4, 5*time.Second, f.InlineResults)
	byID := map[string]telegramtest.InlineResult{}
	for _, r := range res {
		byID[r.ID] = r
	}
	var order []string
	var raw []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(calls[0].Params["results"]), &raw); err != nil {
		t.Fatal(err)
	}
	longID := ""
	for _, r := range raw {
		order = append(order, r.Title)
		if strings.HasPrefix(r.ID, "b:") {
			longID = r.ID
		}
	}
	want := "🎲 Tirar d20|🎲 Tirar " + long + "|🎲 Tirar /roll 2d6|🎲 Tirar /roll 4d6kh3"
	if got := strings.Join(order, "|"); got != want {
		t.Fatalf("the empty query lists\n%s\nwant\n%s", got, want)
	}
	for _, r := range res {
		if strings.Contains(r.Text, "=") || !r.HasKeyboard {
			t.Errorf("result %+v: want a placeholder with a button, nothing rolled", r)
		}
	}
	if r := byID[recent4d6]; r.Description != "Una tirada reciente tuya · se tira al enviarla" {
		t.Errorf("a recent roll's result %+v", r)
	}
	if longID == "" {
		t.Fatalf("the long command has no stored result id: %+v", raw)
	}

	id, err := f.Choose(ana, recent4d6, "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if got := f.InlineText(id); !strings.Contains(got, "4d6kh3") || !strings.Contains(got, "Ana tiró el ") {
		t.Errorf("the chosen recent roll shows %q", got)
	}
	lid, err := f.Choose(ana, longID, "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "inline edits", 2, 5*time.Second, f.Edits)
	if got := f.InlineText(lid); !strings.Contains(got, "Ana tiró el ") || !strings.Contains(got, "1d20+1d12") {
		t.Errorf("the chosen long recent roll shows %q", got)
	}
	f.PressInline(lid, bob, "i:"+strconv.FormatInt(ana.ID, 10)+":"+longID)
	f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	if n := len(f.Edits()); n != 2 {
		t.Errorf("%d inline edits after Bob's press, want 2", n)
	}

	f.InlineQuery(ana, "")
	calls = f.waitCalls("answerInlineQuery", 2, 5*time.Second)
	raw = nil
	if err := json.Unmarshal([]byte(calls[1].Params["results"]), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) < 2 || raw[1].Title != "🎲 Tirar "+long {
		t.Errorf("after rolling it inline, the list is %+v, want the long roll first after the pad", raw)
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// TestPadValuesRoundTrip: a reply whose pad buttons carry chosen values
// (reply.Action.Values, as the core asks for a missing value) draws them
// with callback data within 64 bytes: the values inline when they fit,
// else a stored key; each press hands the core back the same action, also
// after a restart.
func TestPadValuesRoundTrip(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "zaria.db")
	db := openDB(t, path)
	longArmour := strings.Repeat("armadura de placas ", 4)
	choices := []reply.Action{
		{Kind: reply.ActRun, Button: 7, Values: []string{"fácil"}},
		{Kind: reply.ActRun, Button: 7, Values: []string{"difícil", longArmour}},
		{Kind: reply.ActRun, Button: 7, Values: []string{"a|b"}},
		{Kind: reply.ActRun, Button: 7, Values: []string{""}},
	}
	router := func(db *sqlite.DB) *command.Router {
		r := testRouterOn(t, db, nil)
		r.Register(command.Command{Name: "elegir", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
			rep := reply.Text("¿Contra qué?")
			for i := range choices {
				rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: "opción " + strconv.Itoa(i+1), Action: &choices[i]})
			}
			return rep, nil
		})})
		r.HandleAction(reply.ActRun, func(_ context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
			return reply.Text(fmt.Sprintf("%s: botón %d con %q", req.Msg.From.Name, a.Button, a.Values)), nil
		})
		return r
	}
	run := start(t, testConfig(f), router(db), db)
	g := telegramtest.Group(-732)
	f.SayIn(g, ana, "/elegir")
	shown := f.waitSent(g.ID, 1, 5*time.Second)[0]
	var data []string
	for _, row := range keyboardOf(t, shown) {
		for _, b := range row {
			data = append(data, *b.CallbackData)
		}
	}
	for _, d := range data {
		if !strings.HasPrefix(d, "b:") || len(d) > 64 {
			t.Errorf("callback data %q: a choice too long for its data keeps the question's choices in one record", d)
		}
	}
	if len(data) != 4 {
		t.Fatalf("callback data %q", data)
	}
	want := []string{`Ana: botón 7 con ["fácil"]`, fmt.Sprintf(`Ana: botón 7 con ["difícil" %q]`, longArmour), `Ana: botón 7 con ["a|b"]`, `Ana: botón 7 con [""]`}
	for i, d := range data {
		f.Press(shown, ana, d)
		got := f.waitSent(g.ID, 2+i, 5*time.Second)[1+i]
		if got.Visible != want[i] {
			t.Errorf("press %d (%s) gave %q, want %q", i+1, d, got.Visible, want[i])
		}
	}
	run.stop(t)
	db.Close()
	db = openDB(t, path)
	defer db.Close()
	start(t, testConfig(f), router(db), db)
	f.Press(shown, ana, data[1])
	if got := f.waitSent(g.ID, 6, 5*time.Second)[5]; got.Visible != want[1] {
		t.Errorf("after a restart the stored choice gave %q", got.Visible)
	}
	f.Press(shown, ana, "P:0123456789abcdef")
	answers := f.waitCalls("answerCallbackQuery", 6, 5*time.Second)
	if got := answers[5].Params["text"]; got == "" {
		t.Error("an unknown stored choice was not answered as stale")
	}
	// The data the release before drew on such a question still presses
	// its choice.
	f.Press(shown, ana, "p:7:fácil")
	if got := f.waitSent(g.ID, 7, 5*time.Second)[6]; got.Visible != want[0] {
		t.Errorf("an earlier version's choice data gave %q, want %q", got.Visible, want[0])
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// A pad press through the adapter costs about what the same command typed
// costs: one round trip each through the fake Bot API over HTTP on the
// real SQLite store (the press also answers its callback query).
//
//	go test -tags goolm -run '^$' -bench TypedVsPressed ./adapters/telegram/
func BenchmarkTypedVsPressedOverHTTP(b *testing.B) {
	f := newFakeAPI(b)
	db := openDB(b, filepath.Join(b.TempDir(), "zaria.db"))
	defer db.Close()
	cfg := testConfig(f)
	cfg.ChatInterval, cfg.GroupWindow, cfg.GlobalWindow = time.Nanosecond, time.Nanosecond, time.Nanosecond
	start(b, cfg, padRouter(b, db), db)
	g := telegramtest.Group(-740)
	f.SetAdmins(g.ID, ana.ID)
	f.SayIn(g, ana, "/pad --chat add 4d6kh3")
	f.SayIn(g, ana, "/pad --chat")
	f.waitCount(2)
	shown := f.SentTo(g.ID)[1]
	var kb tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(shown.Params["reply_markup"]), &kb); err != nil || len(kb.InlineKeyboard) == 0 {
		b.Fatalf("no pad keyboard on %q: %v", shown.Visible, err)
	}
	data := *kb.InlineKeyboard[0][0].CallbackData
	n := 2
	b.Run("typed", func(b *testing.B) {
		for b.Loop() {
			f.SayIn(g, ana, "/roll 4d6kh3")
			n++
			f.waitCount(n)
		}
	})
	b.Run("pressed", func(b *testing.B) {
		for b.Loop() {
			f.Press(shown, ana, data)
			n++
			f.waitCount(n)
		}
	})
}

// TestInlinePadAsksValue: Ana's private pad has a button that asks a value
// when pressed. Chosen inline, the message shows the question with a
// button per choice (nothing rolled, the message not yet marked rolled);
// a choice whose values fit rolls it, with those values; a later press
// rolls nothing more. A choice too long for the data is kept in the state
// and rolls too; Bob's press of Ana's choices does nothing.
func TestInlinePadAsksValue(t *testing.T) {
	f := newFakeAPI(t)
	long := strings.Repeat("armadura completa ", 4)
	r := testRouterWith(t, nil)
	r.Register(command.Command{Name: "pad", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		rep := reply.Text("pad")
		rep.Buttons = []reply.Button{{Kind: reply.ButtonRun, Label: "Tajo", Action: &reply.Action{Kind: reply.ActRun, Button: 9}}}
		return rep, nil
	})})
	r.HandleAction(reply.ActRun, func(_ context.Context, req *command.Request, a reply.Action) (*reply.Reply, error) {
		if len(a.Values) == 0 {
			rep := reply.Text("«Tajo»: ¿contra qué armadura?")
			for _, v := range []string{"cuero", long} {
				rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: v,
					Action: &reply.Action{Kind: reply.ActRun, Button: 9, Values: []string{v}}})
			}
			return rep, nil
		}
		rep := reply.Text(fmt.Sprintf("%s: Tajo contra %s = 7", req.Msg.From.Name, a.Values[0]))
		rep.Check = &reply.Check{}
		return rep, nil
	})
	start(t, testConfig(f), r, newMemState())

	f.InlineQuery(ana, "")
	res := waitFor(t, "inline results", 1, 5*time.Second, f.InlineResults)
	author := "i:" + strconv.FormatInt(ana.ID, 10) + ":"
	for _, c := range []struct{ value, rolled string }{{"cuero", "Ana: Tajo contra cuero = 7"}, {long, "Ana: Tajo contra " + long + " = 7"}} {
		before := len(f.Edits())
		id, err := f.Choose(ana, res[0].ID, "")
		if err != nil {
			t.Fatal(err)
		}
		edits := waitFor(t, "inline edits", before+1, 5*time.Second, f.Edits)
		asked := edits[before]
		if !strings.Contains(asked.Visible, "¿contra qué armadura?") || strings.Contains(asked.Visible, "= 7") {
			t.Fatalf("the chosen asking button shows %q", asked.Visible)
		}
		var kb tgbotapi.InlineKeyboardMarkup
		if err := json.Unmarshal([]byte(asked.Markup), &kb); err != nil || len(kb.InlineKeyboard) != 2 {
			t.Fatalf("the question's keyboard %s (%v)", asked.Markup, err)
		}
		var data string
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				if d := *b.CallbackData; !strings.HasPrefix(d, author) || len(d) > 64 {
					t.Errorf("choice data %q", d)
				}
				if b.Text == c.value {
					data = *b.CallbackData
				}
			}
		}
		if !strings.HasPrefix(data, author+"b:") { // one choice does not fit: one record for both
			t.Errorf("the data of %q is %q", c.value, data)
		}
		f.PressInline(id, bob, data)
		f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
		f.PressInline(id, ana, data)
		edits = waitFor(t, "inline edits", before+2, 5*time.Second, f.Edits)
		if got := f.InlineText(id); !strings.Contains(got, c.rolled) || !strings.Contains(got, "Ana tiró el ") {
			t.Errorf("the choice %q rolled %q", c.value, got)
		}
		f.PressInline(id, ana, data)
		time.Sleep(100 * time.Millisecond)
		if n := len(f.Edits()); n != before+2 {
			t.Errorf("%d edits after pressing the choice again, want %d (rolled once)", n, before+2)
		}
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// TestPadAsksValueInGroup: with the real /pad and systems, Ana's button
// "/daegon 7 {dificultad}" pressed in a group answers with the
// difficulties as buttons (in reply to the pad); pressing one rolls Daegon
// against it, for Ana, there; Telegram refused nothing.
func TestPadAsksValueInGroup(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	r := padRouter(t, db)
	systems.Register(r)
	start(t, testConfig(f), r, db)
	g := telegramtest.Group(-741)
	f.SayIn(g, ana, `/pad add "Tirada" /daegon 7 {dificultad}`)
	f.waitSent(g.ID, 1, 5*time.Second)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 2, 5*time.Second)[1]
	f.Press(shown, ana, *keyboardOf(t, shown)[0][0].CallbackData)
	asked := f.waitSent(g.ID, 3, 5*time.Second)[2]
	kb := keyboardOf(t, asked)
	if !strings.Contains(asked.Visible, "¿qué dificultad?") || len(kb) == 0 || asked.ReplyTo != shown.ID {
		t.Fatalf("the asking press shows %q with %+v (reply to %d)", asked.Visible, kb, asked.ReplyTo)
	}
	var labels []string
	var data string
	for _, row := range kb {
		for _, b := range row {
			labels = append(labels, b.Text)
			if d := *b.CallbackData; len(d) > 64 || !strings.HasPrefix(d, "1r") {
				t.Errorf("choice %q has data %q", b.Text, d)
			}
			if data == "" {
				data = *b.CallbackData
			}
		}
	}
	f.Press(asked, ana, data)
	rolled := f.waitSent(g.ID, 4, 5*time.Second)[3]
	if !strings.HasPrefix(rolled.Visible, "Ana: ") || !strings.Contains(rolled.Visible, "🎲") || rolled.ReplyTo != asked.ID {
		t.Errorf("the choice %q (%s; of %q) rolled %q replying to %d", labels[0], data, labels, rolled.Visible, rolled.ReplyTo)
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}
