package matrix

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"zaria/core"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/roll"
	"zaria/core/sheet"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// TestAskForARollReactions, on Dendrite: the GM (bob, the room's creator)
// asks the room for a roll; the GMs' room gets each character's chance;
// the room gets one notice with a numbered line per character and the
// bot's keycaps and ⏹ under it. Three players react with their
// character's keycap, the GM with the absent fourth's and then ⏹: the one
// notice is edited (m.replace) into the results and the summary. A
// reaction on another's character and a second tap (a reaction taken
// back) are answered with a notice and change nothing.
func TestAskForARollReactions(t *testing.T) {
	hs := startServer(t, optsNone)
	bob := newUser(t, hs, "bob", false) // the GM
	alice := newUser(t, hs, "alice", false)
	carol := newUser(t, hs, "carol", false)
	dave := newUser(t, hs, "dave", false)
	for _, u := range []*user{bob, alice, carol, dave} {
		u.autoJoin.Store(true)
	}
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "game.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	sheets := sheet.New(db, sheet.Options{})
	faces := dice.NewScripted([]int{15, 4, 11, 10})
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: db, GMs: db, Sheets: sheets,
		Limits: command.Limits{Burst: 1000, Refill: time.Millisecond}, NewSource: func() dice.Source { return faces }})
	general.Register(r, general.Options{Version: "test"})
	roll.Register(r)
	roll.RegisterOdds(r)
	sheet.Register(r, sheets)
	ask.Register(r, ask.New(db, db, ask.Options{}))
	startBot(t, hs, r, botOpts{cfg: func(c *Config) { c.Reactions = ReactionsOn }})
	room := bob.createRoom(false, botID(), alice.cli.UserID, carol.cli.UserID, dave.cli.UserID)
	for _, u := range []*user{alice, carol, dave} {
		bob.waitJoined(room, u.cli.UserID)
	}
	bob.waitJoined(room, botID())
	ctx := context.Background()
	ref := core.ChatRef{Platform: "matrix", ID: string(room)}
	for _, s := range []struct {
		owner id.UserID
		owned string
		name  string
		per   string
	}{{dave.cli.UserID, "dave", "Borin", "0"}, {carol.cli.UserID, "carol", "Drake", "1"}, {"@erin:localhost", "erin", "Kael", "5"}, {alice.cli.UserID, "alice", "Lyra", "3"}} {
		c := sheet.Character{Owner: string(s.owner), OwnerName: s.owned, Name: s.name, Key: sheet.NameKey(s.name),
			Values: []sheet.Value{{Name: "percepcion", Key: "percepcion", Text: s.per}}}
		if _, err := db.CreateCharacter(ctx, ref, c, sheet.Quota{}); err != nil {
			t.Fatal(err)
		}
	}

	bob.say(room, "!ask 1d20+percepcion vs 14")
	chances := bob.waitFor("the chances in the GMs' room", wait, func(e *event.Event) bool {
		return e.Sender == botID() && e.RoomID != room && e.Type == event.EventMessage &&
			strings.Contains(e.Content.AsMessage().Body, "Each character's chance")
	})
	for _, want := range []string{"Lyra · 14 or more: 50%", "Drake · 14 or more: 40%", "Borin · 14 or more: 35%", "Kael · 14 or more: 60%"} {
		if !strings.Contains(chances.Content.AsMessage().Body, want) {
			t.Errorf("the chances %q lack %q", chances.Content.AsMessage().Body, want)
		}
	}
	isAsk := func(e *event.Event) bool {
		if e.Sender != botID() || e.Type != event.EventMessage || e.RoomID != room {
			return false
		}
		c := e.Content.AsMessage()
		return strings.Contains(c.Body, "bob asks for:") && (c.RelatesTo == nil || c.RelatesTo.Type != event.RelReplace)
	}
	asked := alice.waitFor("the request", wait, isAsk)
	if body := asked.Content.AsMessage().Body; !strings.Contains(body, "1. ⏳ Borin") || !strings.Contains(body, "4. ⏳ Lyra") || strings.Contains(body, "%") {
		t.Fatalf("the request reads %q", body)
	}
	for _, key := range []string{keycaps[0], keycaps[3], "⏹\ufe0f"} {
		alice.waitFor("the bot's "+key, wait, botReaction(asked.ID, key))
	}
	react := func(u *user, key string) id.EventID {
		t.Helper()
		c := &event.ReactionEventContent{RelatesTo: event.RelatesTo{Type: event.RelAnnotation, EventID: asked.ID, Key: key}}
		resp, err := u.cli.SendMessageEvent(ctx, room, event.EventReaction, c)
		if err != nil {
			t.Fatal(err)
		}
		return resp.EventID
	}
	tap := react(alice, keycaps[3])
	alice.waitFor("Lyra's result", wait, statusEdit(asked.ID, "✅ Lyra: 18 · +4"))
	react(alice, keycaps[1]) // Drake is carol's
	refused := alice.waitFor("alice's tap on Drake refused", wait, func(e *event.Event) bool {
		return e.Sender == botID() && strings.Contains(e.Content.AsMessage().Body, "Drake is carol's")
	})
	if strings.Contains(refused.Content.AsMessage().Body, "Drake:") {
		t.Errorf("the refusal rolled: %q", refused.Content.AsMessage().Body)
	}
	if _, err := alice.cli.RedactEvent(ctx, room, tap); err != nil { // Element's second tap
		t.Fatal(err)
	}
	alice.waitFor("the second tap answered", wait, func(e *event.Event) bool {
		return e.Sender == botID() && strings.Contains(e.Content.AsMessage().Body, "Lyra has rolled already")
	})
	react(carol, keycaps[1])
	alice.waitFor("Drake's result", wait, statusEdit(asked.ID, "❌ Drake: 5 · −9"))
	react(dave, keycaps[0])
	alice.waitFor("Borin's result", wait, statusEdit(asked.ID, "❌ Borin: 11 · −3"))
	react(bob, keycaps[2])
	alice.waitFor("Kael's result, by the GM", wait, statusEdit(asked.ID, "✅ Kael: 15 · +1 (rolled by the GM)"))
	react(bob, "⏹\ufe0f")
	final := alice.waitFor("the summary", wait, statusEdit(asked.ID, "⏹ Closed · 2 of 4 succeeded · best margin +4, worst −9"))
	body := final.Content.AsMessage().NewContent.Body
	for _, want := range []string{"✅ Lyra: 18 · +4", "❌ Drake: 5 · −9", "❌ Borin: 11 · −3", "✅ Kael: 15 · +1"} {
		if !strings.Contains(body, want) {
			t.Errorf("the final message %q lacks %q", body, want)
		}
	}
	react(carol, keycaps[3])
	alice.waitFor("a tap on the closed request", wait, func(e *event.Event) bool {
		return e.Sender == botID() && strings.Contains(e.Content.AsMessage().Body, "This request for a roll is closed.")
	})
	if n := len(alice.matching(isAsk)); n != 1 {
		t.Errorf("%d request messages, want 1 (then edits)", n)
	}
}
