package telegram

import (
	"context"
	"log/slog"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"zaria/adapters/internal/actions"
	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/storage/sqlite"
)

// padRouter is the test router with the real /pad on db.
func padRouter(t testing.TB, db *sqlite.DB) *command.Router {
	r := testRouterOn(t, db, nil)
	pad.Register(r, pad.New(db, pad.Options{}))
	return r
}

// TestPadIsAnInlineKeyboard: Ana builds a pad (/pad add d20, /pad add
// "Ataque" /roll 1d20+5); /pad posts it as an inline keyboard with those
// labels, callback data "p:<id>". Pressing "Ataque" rolls for Ana in reply
// to the pad's message ("Ana: 🎲 Ana: 1d20+5 = …") with the roll's own
// buttons; Bob pressing Ana's personal pad gets the core's short notice as
// the toast and nothing is posted; after a restart of the adapter the same
// keyboard still rolls.
func TestPadIsAnInlineKeyboard(t *testing.T) {
	f := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "zaria.db")
	db := openDB(t, path)
	r := start(t, testConfig(f), padRouter(t, db), db)
	g := telegramtest.Group(-700)
	f.SayIn(g, ana, "/pad add d20")
	f.waitSent(g.ID, 1, 5*time.Second)
	f.SayIn(g, ana, `/pad add "Ataque" /roll 1d20+5`)
	f.waitSent(g.ID, 2, 5*time.Second)
	padMsg := f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 3, 5*time.Second)[2]
	if shown.ReplyTo != padMsg {
		t.Errorf("the pad replies to %d, want /pad %d", shown.ReplyTo, padMsg)
	}
	kb := keyboardOf(t, shown)
	var labels []string
	for _, row := range kb {
		for _, b := range row {
			labels = append(labels, b.Text)
			if d := *b.CallbackData; !strings.HasPrefix(d, "1r") || len(d) > 64 { // the Action itself: nothing stored
				t.Errorf("callback data %q", d)
			}
		}
	}
	if strings.Join(labels, "|") != "d20|Ataque" {
		t.Fatalf("the pad's keyboard has %q (%+v), want d20|Ataque", labels, kb)
	}
	if len(kb) != 1 {
		t.Errorf("two short labels take %d rows, want 1", len(kb))
	}
	attack := *kb[0][1].CallbackData

	f.Press(shown, ana, attack)
	rolled := f.waitSent(g.ID, 4, 5*time.Second)[3]
	if !strings.HasPrefix(rolled.Visible, "Ana: 🎲 Ana: 1d20+5 = ") {
		t.Errorf("Ana's press shows %q", rolled.Visible)
	}
	if rolled.ReplyTo != shown.ID {
		t.Errorf("the roll replies to %d, want the pad's message %d", rolled.ReplyTo, shown.ID)
	}
	if len(keyboardOf(t, rolled)) == 0 {
		t.Error("the pad's roll has no again/odds buttons")
	}

	f.Press(shown, bob, attack)
	answers := f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	if got := answers[0].Params["text"]; got != "" {
		t.Errorf("Ana's press was toasted %q, want no toast", got)
	}
	if got := answers[1].Params["text"]; !strings.Contains(got, "Estos botones son de otra persona. Los tuyos: /pad") {
		t.Errorf("Bob's press on Ana's pad was answered %q, want the core's notice", got)
	}
	time.Sleep(150 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 4 {
		t.Errorf("%d messages after Bob's press, want 4 (no roll, no notice in the chat)", n)
	}

	r.stop(t)
	db.Close()
	db = openDB(t, path)
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)
	f.Press(shown, ana, *kb[0][0].CallbackData)
	after := f.waitSent(g.ID, 5, 5*time.Second)[4]
	if !strings.HasPrefix(after.Visible, "Ana: 🎲 Ana: d20 = ") {
		t.Errorf("after a restart the pad's d20 shows %q", after.Visible)
	}
}

// TestPadPressInTopic: a pad button pressed in a forum topic rolls in that
// topic.
func TestPadPressInTopic(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)
	f.SetForum(-701)
	f.SayInTopic(-701, 9, ana, "/pad add 2d6")
	f.waitSent(-701, 1, 5*time.Second)
	f.SayInTopic(-701, 9, ana, "/pad")
	shown := f.waitSent(-701, 2, 5*time.Second)[1]
	kb := keyboardOf(t, shown)
	if len(kb) != 1 {
		t.Fatalf("pad keyboard %+v", kb)
	}
	f.PressInTopic(shown, ana, *kb[0][0].CallbackData)
	rolled := f.waitSent(-701, 3, 5*time.Second)[2]
	if rolled.Thread != 9 || !strings.Contains(rolled.Visible, "2d6") {
		t.Errorf("the press in topic 9 gave %q in thread %d", rolled.Visible, rolled.Thread)
	}
}

// TestPadKeyboardLayout pins the layout and Telegram's limits: two short
// labels (≤ 12 characters) share a row, a long one takes its own; a full
// pad (25 buttons) fits one keyboard; more than 100 buttons (Telegram's
// most) are cut to 100; callback data stays within 64 bytes; other data
// is no button.
func TestPadKeyboardLayout(t *testing.T) {
	ctx := context.Background()
	st := newMemState()
	a := &outbox{log: slog.New(slog.DiscardHandler), acts: actions.New(st, "t.b.", "t.", 100, slog.New(slog.DiscardHandler))}
	padRows := func(bs []reply.Button) [][]tgbotapi.InlineKeyboardButton {
		return a.buttonRows(ctx, bs, "", "", "")
	}
	btn := func(id int64, label string) reply.Button {
		return reply.Button{Kind: reply.ButtonRun, Label: label, Action: &reply.Action{Kind: reply.ActRun, Button: id}}
	}
	rows := padRows([]reply.Button{btn(1, "d20"), btn(2, "Ataque"), btn(3, "Ataque con espada larga"), btn(4, "d6"), btn(5, "d8"), btn(6, "d10")})
	var got []string
	for _, r := range rows {
		var l []string
		for _, b := range r {
			l = append(l, b.Text)
		}
		got = append(got, strings.Join(l, "+"))
	}
	if strings.Join(got, " / ") != "d20+Ataque / Ataque con espada larga / d6+d8 / d10" {
		t.Errorf("layout %q", got)
	}
	count := func(rows [][]tgbotapi.InlineKeyboardButton) (n int) {
		for _, r := range rows {
			if len(r) > maxRowButtons {
				t.Errorf("a row of %d buttons", len(r))
			}
			n += len(r)
		}
		return n
	}
	var full, many []reply.Button
	for i := range int64(25) {
		full = append(full, btn(1<<62+i, "d"+strconv.Itoa(int(i))))
	}
	for i := range int64(130) {
		many = append(many, btn(i+1, "x"))
	}
	if n := count(padRows(full)); n != 25 {
		t.Errorf("a full pad draws %d buttons, want 25", n)
	}
	for _, r := range padRows(full) {
		for _, b := range r {
			if len(*b.CallbackData) > 64 {
				t.Errorf("callback data of %d bytes", len(*b.CallbackData))
			}
		}
	}
	if n := count(padRows(many)); n != maxKeyboardButtons {
		t.Errorf("130 buttons draw %d, want %d", n, maxKeyboardButtons)
	}
	if len(st.m) != 0 {
		t.Errorf("pads wrote %d records; their buttons carry their Actions", len(st.m))
	}
	for _, d := range []string{"p:", "p:0", "p:-3", "p:01", "p:x", "p:99999999999999999999", "b:1", "1r0", "1r", "1rx"} {
		if p, ok := a.acts.Resolve(ctx, d); ok {
			t.Errorf("%q read as a button: %+v", d, p.Action)
		}
	}
	for _, d := range []string{"p:42", "1r42"} {
		if p, ok := a.acts.Resolve(ctx, d); !ok || p.Action.Kind != reply.ActRun || p.Action.Button != 42 {
			t.Errorf("%s → %+v %v", d, p.Action, ok)
		}
	}
}

// TestInlinePadRolledWhenChosen: "@Bot" alone lists the pad Ana keeps in
// her private chat with the bot, one result per button, nothing rolled
// yet; the chosen one is rolled once posted, as her pad button ("Ana: …"),
// and its placeholder's button by someone else rolls nothing. Bob, with
// no pad, gets no results.
func TestInlinePadRolledWhenChosen(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, "/pad add d20")
	f.waitSent(ana.ID, 1, 5*time.Second)
	f.Say(ana.ID, ana.ID, ana.Name, ana.Lang, `/pad add "Ataque" /roll 1d20+5`)
	f.waitSent(ana.ID, 2, 5*time.Second)

	f.InlineQuery(ana, "")
	// The fake counts the call before it stores the results: wait for them.
	res := waitFor(t, "inline results", 1, 5*time.Second, f.InlineResults)
	// The fake keeps results in a map: their order is not the answer's.
	sort.Slice(res, func(i, j int) bool { return res[i].ID < res[j].ID })
	if len(res) != 2 || res[0].Title != "🎲 Tirar d20" || res[1].Title != "🎲 Tirar Ataque" {
		t.Fatalf("Ana's empty inline query lists %+v, want her two pad buttons", res)
	}
	if r := f.CallsOf("answerInlineQuery")[0].Params["results"]; strings.Index(r, "d20") > strings.Index(r, "Ataque") {
		t.Errorf("the results are not in the pad's order: %s", r)
	}
	for _, r := range res {
		if strings.Contains(r.Text, "=") || !r.HasKeyboard || !strings.HasPrefix(r.ID, "1r") {
			t.Errorf("result %+v: want a placeholder with a button, id the button's Action", r)
		}
	}
	id, err := f.Choose(ana, res[1].ID, "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "inline edits", 1, 5*time.Second, f.Edits)
	if got := f.InlineText(id); !strings.Contains(got, "Ana: 🎲 Ana: 1d20+5 = ") || !strings.Contains(got, "Ana tiró el ") {
		t.Errorf("the chosen pad button shows %q", got)
	}
	f.PressInline(id, bob, "i:"+strconv.FormatInt(ana.ID, 10)+":"+res[1].ID)
	f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	if n := len(f.Edits()); n != 1 {
		t.Errorf("%d inline edits, want 1", n)
	}

	f.InlineQuery(bob, "")
	calls := f.waitCalls("answerInlineQuery", 2, 5*time.Second)
	if r := calls[1].Params["results"]; r != "[]" {
		t.Errorf("Bob (no pad) got results %s", r)
	}
}

// TestPadAfterGroupUpgrade: a basic group with Ana's pad becomes a
// supergroup; the pad moved with the chat, so her keyboard, pressed in the
// supergroup, still rolls there.
func TestPadAfterGroupUpgrade(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	r := start(t, testConfig(f), padRouter(t, db), db)
	old, super := int64(-720), int64(-1000720)
	f.SayIn(telegramtest.BasicGroup(old), ana, "/pad add 3d6")
	f.waitSent(old, 1, 5*time.Second)
	f.SayIn(telegramtest.BasicGroup(old), ana, "/pad")
	shown := f.waitSent(old, 2, 5*time.Second)[1]
	kb := keyboardOf(t, shown)
	if len(kb) != 1 {
		t.Fatalf("pad keyboard %+v", kb)
	}
	f.MigrateTo(old, super, ana)
	f.MigrateFrom(old, super, ana)
	// The move is logged once the data moved and the adapter knows the
	// new chat (the press in the supergroup may be handled in parallel).
	r.waitLog(t, "its characters, settings and history moved with it", "new_chat=-1000720")
	moved := shown
	moved.Chat = super
	f.Press(moved, ana, *kb[0][0].CallbackData)
	rolled := f.waitSent(super, 1, 5*time.Second)[0]
	if !strings.HasPrefix(rolled.Visible, "Ana: 🎲 Ana: 3d6 = ") {
		t.Errorf("after the upgrade the pad shows %q", rolled.Visible)
	}
}
