package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/adapters/internal/actions"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// fullRouter is the router as cmd/zaria assembles it (characters, saved
// rolls, systems, pads naming the active character) on the SQLite game
// database at path.
func fullRouter(t *testing.T, path string) *command.Router {
	t.Helper()
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	chars := chattest.NewServices(db, chattest.Options{Validators: systems.SheetValidators()})
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: db, GMs: db,
		Sheets: chars.Sheets, Aliases: chars.Aliases, Observers: []command.Observer{chars.History},
		Limits: command.Limits{Burst: 1000, Refill: time.Millisecond}})
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	roll.RegisterSystemOdds(r)
	chars.Register(r)
	pad.Register(r, pad.New(db, pad.Options{
		ActiveName: func(ctx context.Context, chat core.ChatRef, userID string) (string, error) {
			c, err := db.ActiveCharacter(ctx, chat, userID)
			if errors.Is(err, core.ErrNotFound) {
				return "", nil
			}
			return c.Name, err
		}}))
	general.Register(r, general.Options{Version: "test"})
	return r
}

// table is a room with the bot, alice (who made it: a GM) and the players
// bob and carol.
type table struct {
	t                 *testing.T
	room              id.RoomID
	encrypted         bool
	alice, bob, carol *user
}

// react sends u's reaction key to evt (encrypted in an encrypted room, as
// Element does) and returns the reaction's id.
func (tb *table) react(u *user, evt id.EventID, key string) id.EventID {
	tb.t.Helper()
	ctx := context.Background()
	c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: evt, Key: key}}
	var err error
	var evtID id.EventID
	if tb.encrypted {
		var enc *event.EncryptedEventContent
		if enc, err = u.cli.Crypto.Encrypt(ctx, tb.room, event.EventReaction, c); err == nil {
			r, e := u.cli.SendMessageEvent(ctx, tb.room, event.EventEncrypted, enc)
			if err = e; e == nil {
				evtID = r.EventID
			}
		}
	} else {
		r, e := u.cli.SendMessageEvent(ctx, tb.room, event.EventReaction, c)
		if err = e; e == nil {
			evtID = r.EventID
		}
	}
	if err != nil {
		tb.t.Fatal(err)
	}
	return evtID
}

// redact takes evt back, as u (Element's second tap on one's reaction).
func (tb *table) redact(u *user, evt id.EventID) {
	tb.t.Helper()
	if _, err := u.cli.RedactEvent(context.Background(), tb.room, evt); err != nil {
		tb.t.Fatal(err)
	}
}

// answer waits for the bot's next answer to evt that mentions who and
// that is not among the answers seen so far, and returns its body.
func (tb *table) answer(what string, evt id.EventID, who *user, seen map[id.EventID]bool) string {
	tb.t.Helper()
	e := tb.alice.waitFor(what, wait, func(e *event.Event) bool {
		return replyTo(botID(), evt)(e) && mentions(e, who.cli.UserID) && !seen[e.ID]
	})
	seen[e.ID] = true
	tb.t.Logf("%s: %q", what, e.Content.AsMessage().Body)
	return e.Content.AsMessage().Body
}

// settle waits behind a marker command: whatever the bot was going to
// answer before it is out.
func (tb *table) settle() {
	tb.t.Helper()
	m := tb.alice.say(tb.room, "!roll 1")
	tb.alice.waitFor("marker", wait, replyTo(botID(), m))
}

// TestPadEveryKind goes through what pads must do on Matrix, in a plain
// and in an encrypted room, against Dendrite with the router cmd/zaria
// assembles. bob (a player, character Drake) builds a personal pad with a
// plain die, a sheet check and a saved roll; alice (the room's creator, a
// GM) builds the table's pad. Keycaps and the typed "!n" press each kind
// of button, answered as "bob (Drake): …"; carol (no GM) pressing bob's
// pad gets the core's notice, alice (GM) may press it. "!n" presses the
// pad replied to, else the newest pad posted for the sender, else the
// newest posted for anyone; past the pad's end it gets a short notice;
// "!1d6" and "! 1" stay what they were (nothing). Taking a keycap back
// presses again (each tap is a press), but alice taking carol's reaction
// away (a moderator) presses nothing. The bot restarts (game database
// and adapter state reopened): a keycap taken back, a keycap and a typed
// "!n" on the same pads still press.
func TestPadEveryKind(t *testing.T) {
	for _, encrypted := range []bool{false, true} {
		name := "plain"
		if encrypted {
			name = "encrypted"
		}
		t.Run(name, func(t *testing.T) { testPadEveryKind(t, encrypted) })
	}
}

func testPadEveryKind(t *testing.T, encrypted bool) {
	hs := startServer(t, optsNone)
	tb := &table{t: t, encrypted: encrypted}
	tb.alice = newUser(t, hs, "alice", encrypted)
	tb.bob = newUser(t, hs, "bob", encrypted)
	tb.carol = newUser(t, hs, "carol", encrypted)
	tb.bob.autoJoin.Store(true)
	tb.carol.autoJoin.Store(true)
	dir := t.TempDir()
	gameDB := filepath.Join(dir, "game.db")
	opts := botOpts{dir: dir, crypto: encrypted, cfg: func(c *Config) { c.Reactions = ReactionsOn }}
	b := startBot(t, hs, fullRouter(t, gameDB), opts)
	tb.room = tb.alice.createRoom(encrypted, botID(), tb.bob.cli.UserID, tb.carol.cli.UserID)
	for _, u := range []*user{tb.alice, tb.bob, tb.carol} {
		for _, other := range []*user{tb.alice, tb.bob, tb.carol} {
			if other != u {
				u.waitJoined(tb.room, other.cli.UserID)
			}
		}
		u.waitJoined(tb.room, botID())
	}
	time.Sleep(200 * time.Millisecond) // let the clients' crypto see the members
	room, alice, bob, carol := tb.room, tb.alice, tb.bob, tb.carol
	seen := map[id.EventID]bool{}
	do := func(u *user, text string) string {
		t.Helper()
		cmd := u.say(room, text)
		body := tb.answer(text, cmd, u, seen)
		if strings.Contains(body, "⚠") {
			t.Fatalf("%s answered %q", text, body)
		}
		return body
	}
	for _, c := range []string{"!pj create Drake", "!pj set strength 4", "!pj set athletics 2", "!alias ataque !roll 1d20+5",
		"!pad add d20", `!pad add "Fuerza" !zaria strength+athletics dc15`, "!pad add !ataque"} {
		do(bob, c)
	}
	do(alice, "!pad --chat add 2d6")
	showPad := func(u *user, text string, keys int) *event.Event {
		t.Helper()
		cmd := u.say(room, text)
		e := alice.waitFor(text, wait, replyTo(botID(), cmd))
		seen[e.ID] = true
		for _, k := range keycaps[:keys] {
			alice.waitFor(k+" under "+text, wait, botReaction(e.ID, k))
		}
		if e.Mautrix.WasEncrypted != encrypted {
			t.Errorf("%s: pad encrypted = %v, want %v", text, e.Mautrix.WasEncrypted, encrypted)
		}
		return e
	}
	bobPad := showPad(bob, "!pad", 3)
	if body := bobPad.Content.AsMessage().Body; !strings.Contains(body, "bob (Drake)") || !strings.Contains(body, "1. d20") ||
		!strings.Contains(body, "2. Fuerza") || !strings.Contains(body, "3. ") {
		t.Errorf("bob's pad = %q", body)
	}
	chatPad := showPad(alice, "!pad --chat", 1)

	// Each kind of button, by keycap and typed; attributed to bob (Drake).
	bobTap := tb.react(bob, bobPad.ID, "1️⃣")
	if got := tb.answer("bob's 1️⃣", bobPad.ID, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "d20") {
		t.Errorf("bob's 1️⃣ (d20) answered %q", got)
	}
	tb.react(bob, bobPad.ID, "2️⃣")
	if got := tb.answer("bob's 2️⃣", bobPad.ID, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "15") {
		t.Errorf("bob's 2️⃣ (sheet check dc15) answered %q", got)
	}
	typed := bob.say(room, "!3")
	if got := tb.answer("bob's !3", typed, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "1d20+5") {
		t.Errorf("bob's !3 (the saved roll !ataque) answered %q", got)
	}

	// Who may press: carol gets the notice, alice (GM) rolls.
	carolTap := tb.react(carol, bobPad.ID, "1️⃣")
	want, _, _ := strings.Cut(i18nText(t, "en", "pad.notice.not_yours"), ".")
	if got := tb.answer("carol's 1️⃣ on bob's pad", bobPad.ID, carol, seen); !strings.Contains(got, want) || strings.Contains(got, "d20") {
		t.Errorf("carol's 1️⃣ on bob's pad answered %q, want the notice %q and no roll", got, want)
	}
	tb.react(alice, bobPad.ID, "1️⃣")
	if got := tb.answer("alice's 1️⃣ on bob's pad", bobPad.ID, alice, seen); !strings.HasPrefix(got, "alice: ") || !strings.Contains(got, "d20") {
		t.Errorf("alice (GM) pressing bob's pad answered %q, want her d20", got)
	}

	// The table's pad: anyone presses it.
	tb.react(bob, chatPad.ID, "1️⃣")
	if got := tb.answer("bob's 1️⃣ on the table's pad", chatPad.ID, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "2d6") {
		t.Errorf("bob's 1️⃣ on the table's pad answered %q", got)
	}
	// Which pad "!1" means: carol has none, so the newest of the room
	// (the table's); bob's own; the one bob replies to.
	typed = carol.say(room, "!1")
	if got := tb.answer("carol's !1", typed, carol, seen); !strings.HasPrefix(got, "carol: ") || !strings.Contains(got, "2d6") {
		t.Errorf("carol's !1 answered %q, want the table's 2d6", got)
	}
	typed = bob.say(room, "!1")
	if got := tb.answer("bob's !1", typed, bob, seen); !strings.Contains(got, "d20") || strings.Contains(got, "2d6") {
		t.Errorf("bob's !1 answered %q, want his own pad's d20", got)
	}
	typed = bob.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "!1",
		RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: chatPad.ID}}})
	if got := tb.answer("bob's !1 replying to the table's pad", typed, bob, seen); !strings.Contains(got, "2d6") {
		t.Errorf("bob's !1 replying to the table's pad answered %q, want its 2d6", got)
	}
	typed = bob.say(room, "!9")
	if got := tb.answer("bob's !9", typed, bob, seen); !strings.Contains(got, "This pad has no line 9: type !1 to !3.") || strings.Contains(got, "🎲") {
		t.Errorf("bob's !9 on a pad of 3 answered %q, want the notice (…!1 to !3)", got)
	}
	quiet := []id.EventID{bob.say(room, "!1d6"), bob.say(room, "! 1"), bob.say(room, "!1 2")}
	if got := do(bob, "!pj set strength 3"); !strings.Contains(got, "strength = 3") {
		t.Errorf("a command ending in a number answered %q", got)
	}
	do(bob, "!pj set strength 4")

	// Each tap is a press: bob takes his 1️⃣ back; alice taking carol's
	// reaction away presses nothing.
	tb.redact(bob, bobTap)
	if got := tb.answer("bob's 1️⃣ taken back", bobPad.ID, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "d20") {
		t.Errorf("bob taking 1️⃣ back answered %q, want a d20 roll", got)
	}
	tb.redact(alice, carolTap)
	tb.settle()
	if n := len(alice.matching(replyTo(botID(), bobPad.ID))); n != 5 {
		t.Errorf("bob's pad has %d answers, want 5 (bob's 1️⃣, 2️⃣ and taking 1️⃣ back, carol's, alice's): a moderator's redaction presses nothing", n)
	}
	for _, q := range quiet {
		if n := len(alice.matching(replyTo(botID(), q))); n != 0 {
			t.Errorf("%d answers to a text that is no bare !n", n)
		}
	}

	// Restart: the bot's state and the game database reopened.
	b.stop()
	bobTap = tb.react(bob, bobPad.ID, "1️⃣") // while the bot is away: answered at catch-up
	startBot(t, hs, fullRouter(t, gameDB), opts)
	if got := tb.answer("bob's 1️⃣ after the restart", bobPad.ID, bob, seen); !strings.Contains(got, "d20") {
		t.Errorf("bob's 1️⃣ after the restart answered %q", got)
	}
	tb.redact(bob, bobTap)
	if got := tb.answer("bob's 1️⃣ taken back after the restart", bobPad.ID, bob, seen); !strings.Contains(got, "d20") {
		t.Errorf("bob taking 1️⃣ back after the restart answered %q", got)
	}
	typed = bob.say(room, "!2")
	if got := tb.answer("bob's !2 after the restart", typed, bob, seen); !strings.HasPrefix(got, "bob (Drake): ") || !strings.Contains(got, "15") {
		t.Errorf("bob's !2 after the restart answered %q", got)
	}
	tb.settle()
	if n := len(alice.matching(func(e *event.Event) bool { return replyTo(botID(), bobPad.ID)(e) && mentions(e, bob.cli.UserID) })); n != 5 {
		t.Errorf("bob's pad answered bob %d times, want 5 (one per tap)", n)
	}
}

// choiceDispatcher stands for the core asking for a button's missing
// value: pressing its button without values answers with a list of
// choices (run buttons carrying the value, numbered lines); with values,
// it answers which were chosen. It records every Action pressed.
type choiceDispatcher struct {
	*command.Router
	button  int64 // the pad button that needs a value
	pressed chan reply.Action
}

func (d *choiceDispatcher) Press(ctx context.Context, msg core.Message, a reply.Action) (*reply.Reply, bool) {
	if a.Kind != reply.ActRun || a.Button != d.button {
		return d.Router.Press(ctx, msg, a)
	}
	d.pressed <- a
	if len(a.Values) > 0 {
		return &reply.Reply{Lines: []reply.Line{{reply.T(msg.From.Name + " chose " + strings.Join(a.Values, "+"))}}}, true
	}
	rep := &reply.Reply{Lines: []reply.Line{{reply.T("Against what?")}}}
	for i, v := range []string{"leather", "breastplate"} {
		rep.Lines = append(rep.Lines, reply.Line{reply.T(string(rune('1'+i)) + ". " + v)})
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: v,
			Action: &reply.Action{Kind: reply.ActRun, Button: a.Button, Values: []string{v}}})
	}
	return rep, true
}

// TestPadChoices: a pad button that needs a value answers (in the core)
// with a list of choices whose keycaps press the choice: the core gets the
// button with the chosen value. A typed "!1" replying to the list chooses
// too; a "!1" that replies to nothing presses the pad's own line (a list
// of choices is never the newest pad). A pad record written by an earlier
// version (button ids only) still presses.
func TestPadChoices(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := padRouter(t)
	d := &choiceDispatcher{Router: router, pressed: make(chan reply.Action, 10)}
	b := startBot(t, hs, d, botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	ctx := context.Background()
	add := alice.say(room, "!pad add 2d6")
	alice.waitFor("pad add", wait, replyTo(botID(), add))
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	// The bot stores the record right after the pad is sent: it may be
	// a moment behind the message.
	var rec actions.Set
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		v, ok, err := b.st.State(ctx, keyPad(padMsg.ID))
		if err == nil && ok {
			if rec, ok = actions.DecodeSet(v); ok && len(lines(rec)) == 1 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pad record %q %v %v", v, ok, err)
		}
	}
	d.button = lines(rec)[0].Button
	pressed := func(want string) {
		t.Helper()
		select {
		case a := <-d.pressed:
			if got := strings.Join(a.Values, "+"); got != want {
				t.Errorf("the core got values %q, want %q", got, want)
			}
		case <-time.After(wait):
			t.Fatalf("no press reached the core (want values %q)", want)
		}
	}

	if _, err := alice.cli.SendReaction(ctx, room, padMsg.ID, "1️⃣"); err != nil {
		t.Fatal(err)
	}
	pressed("")
	choices := alice.waitFor("the choices", wait, replyTo(botID(), padMsg.ID))
	alice.waitFor("2️⃣ under the choices", wait, botReaction(choices.ID, "2️⃣"))
	if _, err := alice.cli.SendReaction(ctx, room, choices.ID, "2️⃣"); err != nil {
		t.Fatal(err)
	}
	pressed("breastplate")
	if got := alice.waitFor("the choice", wait, replyTo(botID(), choices.ID)).Content.AsMessage().Body; !strings.Contains(got, "chose breastplate") {
		t.Errorf("2️⃣ on the choices answered %q", got)
	}
	typed := alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: "!1",
		RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: choices.ID}}})
	pressed("leather")
	if got := alice.waitFor("the typed choice", wait, replyTo(botID(), typed)).Content.AsMessage().Body; !strings.Contains(got, "chose leather") {
		t.Errorf("!1 replying to the choices answered %q", got)
	}
	alice.say(room, "!1")
	pressed("") // the pad's line, not the list's

	// A record as an earlier version wrote it.
	old, _ := json.Marshal(map[string]any{"buttons": []int64{d.button}})
	if err := b.st.SetState(ctx, keyPad(padMsg.ID), string(old)); err != nil {
		t.Fatal(err)
	}
	d.button = -1 // the real router's press from here on
	typed = alice.say(room, "!1")
	if got := alice.waitFor("!1 on an old record", wait, replyTo(botID(), typed)).Content.AsMessage().Body; !strings.Contains(got, "2d6") {
		t.Errorf("!1 on a pad with an earlier version's record answered %q", got)
	}
}

// TestPadRecordOld: a record of an earlier version (button ids only)
// reads as those buttons' Actions; a new one keeps the chosen values and
// the thread.
func TestPadRecordOld(t *testing.T) {
	old, ok := actions.DecodeSet(`{"buttons":[7,9],"thread":"$t"}`)
	acts := lines(old)
	if !ok || len(acts) != 2 || acts[0].Kind != reply.ActRun || acts[0].Button != 7 || acts[0].Values != nil || acts[1].Button != 9 || old.View != "$t" {
		t.Errorf("old record reads as %+v", old)
	}
	rep := &reply.Reply{Lines: []reply.Line{{reply.T("x")}}, Buttons: []reply.Button{
		{Kind: reply.ButtonRun, Action: &reply.Action{Kind: reply.ActRun, Button: 3, Values: []string{"hard"}}},
	}}
	set, offer := buttonsOf(rep, target{thread: "$t"})
	cur, ok := actions.DecodeSet(actions.EncodeSet(set))
	if acts := lines(cur); !ok || len(acts) != 1 || acts[0].Button != 3 || strings.Join(acts[0].Values, ",") != "hard" || cur.View != "$t" || len(offer) != 1 || offer[0] != keycaps[0] {
		t.Errorf("set %+v (offer %q) reads as %+v", set, offer, acts)
	}
}

// TestRerollTapAgain: 🎲 is a press on every tap, as a pad's keycap:
// alice's 🎲 under a roll re-rolls it, taking it back re-rolls again. 📊
// shows the odds once; taking it back shows nothing more (the same odds
// again would tell nothing new).
func TestRerollTapAgain(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, newRouter(t), botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	tb := &table{t: t, room: room, alice: alice}
	seen := map[id.EventID]bool{}
	cmd := alice.say(room, "!roll 3d6 vs 12")
	rolled := alice.waitFor("roll", wait, replyTo(botID(), cmd))
	alice.waitFor("📊 offered", wait, botReaction(rolled.ID, oddsKey))
	again := tb.react(alice, rolled.ID, againKey)
	if got := tb.answer("🎲", rolled.ID, alice, seen); !strings.Contains(got, "3d6") {
		t.Errorf("🎲 answered %q, want a roll of 3d6", got)
	}
	tb.redact(alice, again)
	if got := tb.answer("🎲 taken back", rolled.ID, alice, seen); !strings.Contains(got, "3d6") {
		t.Errorf("taking 🎲 back answered %q, want a roll of 3d6", got)
	}
	odds := tb.react(alice, rolled.ID, oddsKey)
	if got := tb.answer("📊", rolled.ID, alice, seen); !strings.Contains(got, "37.5%") {
		t.Errorf("📊 answered %q, want the odds", got)
	}
	tb.redact(alice, odds)
	tb.settle()
	if n := len(alice.matching(replyTo(botID(), rolled.ID))); n != 3 {
		t.Errorf("%d answers to the roll, want 3 (🎲, 🎲 taken back, 📊)", n)
	}
}

// TestPadRedactionOnce: the bot dies after answering bob's keycap taken
// back, before saving the sync token; the restarted bot gets the same
// redaction again and does not answer it twice.
func TestPadRedactionOnce(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	router := padRouter(t)
	dir := t.TempDir()
	var cs *crashStore
	crashed := make(chan struct{})
	b := startBot(t, hs, router, botOpts{dir: dir, wrap: func(st StateStore) StateStore {
		cs = &crashStore{StateStore: st, crash: func() { close(crashed) }}
		return cs
	}})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	tb := &table{t: t, room: room, alice: alice}
	seen := map[id.EventID]bool{}
	add := alice.say(room, "!pad add 2d6")
	alice.waitFor("pad add", wait, replyTo(botID(), add))
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	tap := tb.react(alice, padMsg.ID, "1️⃣")
	tb.answer("1️⃣", padMsg.ID, alice, seen)
	time.Sleep(300 * time.Millisecond) // let the bot's own echoes pass

	cs.armed.Store(true)
	tb.redact(alice, tap)
	tb.answer("1️⃣ taken back", padMsg.ID, alice, seen)
	select {
	case <-crashed:
	case <-time.After(wait):
		t.Fatal("the bot never tried to save the token after answering")
	}
	b.stop()
	startBot(t, hs, router, botOpts{dir: dir})
	tb.settle()
	if n := len(alice.matching(replyTo(botID(), padMsg.ID))); n != 2 {
		t.Errorf("%d answers to the pad, want 2 (the keycap, then taking it back, once)", n)
	}
}

// TestPadTypedLines: a pad of 12 lines gets keycaps for its first 10; "!12"
// presses the 12th, "!13" and "!0" get the notice with the pad's range,
// in the room's own prefix too (".12" once /settings prefix is "."). A pad
// posted in a thread is the one "!1" presses in that thread; the main
// timeline keeps its own.
func TestPadTypedLines(t *testing.T) {
	hs := startServer(t, optsNone)
	alice := newUser(t, hs, "alice", false)
	startBot(t, hs, padRouter(t), botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := alice.createRoom(false, botID())
	alice.waitJoined(room, botID())
	tb := &table{t: t, room: room, alice: alice}
	seen := map[id.EventID]bool{}
	do := func(text string) string {
		t.Helper()
		return tb.answer(text, alice.say(room, text), alice, seen)
	}
	for i := 2; i <= 13; i++ {
		do(fmt.Sprintf("!pad add d%d", i))
	}
	show := alice.say(room, "!pad")
	padMsg := alice.waitFor("the pad", wait, replyTo(botID(), show))
	alice.waitFor("🔟 under the pad", wait, botReaction(padMsg.ID, keycaps[9]))
	if got := do("!12"); !strings.Contains(got, "d13") {
		t.Errorf("!12 answered %q, want the 12th line's d13", got)
	}
	for _, text := range []string{"!13", "!0"} {
		if got := do(text); !strings.Contains(got, "type !1 to !12") {
			t.Errorf("%s answered %q, want the notice with !1 to !12", text, got)
		}
	}
	do("!settings prefix .")
	if got := do(".12"); !strings.Contains(got, "d13") {
		t.Errorf(".12 answered %q, want the 12th line's d13", got)
	}
	if got := do(".99"); !strings.Contains(got, "type .1 to .12") {
		t.Errorf(".99 answered %q, want the notice in the room's prefix", got)
	}

	do("!pad --chat add 2d6")
	inThread := func(text string) id.EventID {
		return alice.send(room, &event.MessageEventContent{MsgType: event.MsgText, Body: text,
			RelatesTo: &event.RelatesTo{Type: event.RelThread, EventID: padMsg.ID, IsFallingBack: true, InReplyTo: &event.InReplyTo{EventID: padMsg.ID}}})
	}
	tb.answer("the table's pad in the thread", inThread("!pad --chat"), alice, seen)
	if got := tb.answer("!1 in the thread", inThread("!1"), alice, seen); !strings.Contains(got, "2d6") {
		t.Errorf("!1 in the thread answered %q, want the thread's pad (2d6)", got)
	}
	if got := do("!1"); !strings.Contains(got, "d2") || strings.Contains(got, "2d6") {
		t.Errorf("!1 in the main timeline answered %q, want its own pad (d2)", got)
	}
	tb.settle()
	if n := len(alice.matching(botReaction(padMsg.ID, "11"))); n != 0 {
		t.Error("a keycap past 🔟")
	}
	var offered int
	for _, k := range keycaps {
		offered += len(alice.matching(botReaction(padMsg.ID, k)))
	}
	if offered != 10 {
		t.Errorf("%d keycaps under a pad of 12, want 10", offered)
	}
}
