package telegram

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/initiative"
	"zaria/core/sheet"
)

// TestTurnOrderStatusEditedInPlace: the turn order's status message is
// sent once and then edited in place (editMessageText) as the fight
// changes; its ▶ button passes the turn for the GM, and a player whose
// turn it is not gets the core's refusal as the press's toast, nothing
// posted.
func TestTurnOrderStatusEditedInPlace(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	rt := testRouterOn(t, db, nil)
	chars := sheet.New(db, sheet.Options{})
	initiative.Register(rt, initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName, Fighters: chars}))
	g := telegramtest.Group(-910)
	f.SetAdmins(g.ID, ana.ID)
	run := start(t, testConfig(f), rt, db)

	f.SayIn(g, ana, "/init añadir Orco 12")
	sent := f.waitSent(g.ID, 2, 5*time.Second) // the join, then the status
	status := sent[1]
	if !strings.Contains(status.Visible, "⚔️ Iniciativa") || !strings.Contains(status.Visible, "12 Orco") {
		t.Fatalf("the status message shows %q", status.Visible)
	}
	kb := keyboardOf(t, status)
	if len(kb) != 1 || len(kb[0]) != 2 || !strings.HasPrefix(kb[0][0].Text, "▶") || !strings.HasPrefix(kb[0][1].Text, "⏹") {
		t.Fatalf("the status keyboard: %+v", kb)
	}
	f.SayIn(g, bob, "/init 9")
	f.waitSent(g.ID, 3, 5*time.Second) // Bob's join is a new message…
	edits := waitFor(t, "the status edited", 1, 5*time.Second, f.Edits)
	if edits[0].MessageID != status.ID || !strings.Contains(edits[0].Visible, "9 Bob") {
		t.Fatalf("the edit %+v, want message %d with Bob", edits[0], status.ID)
	}

	// Bob may not start the fight: a toast, nothing posted.
	next := *kb[0][0].CallbackData
	f.Press(status, bob, next)
	answers := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if got := answers[0].Params["text"]; !strings.Contains(got, "Solo el máster puede empezar el combate") {
		t.Errorf("Bob's press was answered %q", got)
	}
	f.Press(status, ana, next)
	sent = f.waitSent(g.ID, 4, 5*time.Second)
	if !strings.Contains(sent[3].Visible, "Asalto 1") || !strings.Contains(sent[3].Visible, "▶ Orco") {
		t.Errorf("the next turn is announced as %q", sent[3].Visible)
	}
	edits = waitFor(t, "the status edited again", 2, 5*time.Second, f.Edits)
	if edits[1].MessageID != status.ID || !strings.Contains(edits[1].Visible, "▶ 12 Orco") {
		t.Fatalf("the second edit %+v", edits[1])
	}
	// Orc's turn passes; Bob's turn is announced with a mention of Bob.
	f.Press(status, ana, next)
	sent = f.waitSent(g.ID, 5, 5*time.Second)
	if !strings.Contains(sent[4].Visible, "▶ Bob") || !strings.Contains(sent[4].Params["text"], `<a href="tg://user?id=503">🔔</a>`) {
		t.Errorf("Bob's turn: %q (%q), want a mention of Bob", sent[4].Visible, sent[4].Params["text"])
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 5 {
		t.Errorf("%d messages sent, want 5 (the status is edited, not sent again)", n)
	}

	// After a restart the same message is edited.
	before := len(f.Edits())
	run.stop(t)
	start(t, testConfig(f), rt, db)
	f.SayIn(g, ana, "/init añadir Trasgo 3")
	edits = waitFor(t, "the status edited after a restart", before+1, 5*time.Second, f.Edits)
	if last := edits[len(edits)-1]; last.MessageID != status.ID || !strings.Contains(last.Visible, "3 Trasgo") {
		t.Errorf("after a restart the status edit %+v, want message %d with Trasgo", last, status.ID)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 6 {
		t.Errorf("%d messages sent after the restart, want 6 (Trasgo's join; the status edited)", n)
	}
}

// TestTrayIsAnInlineKeyboard: /pad for someone with no buttons is the
// tray of dice as an inline keyboard; a press rolls it for the presser in
// the chat.
func TestTrayIsAnInlineKeyboard(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	start(t, testConfig(f), padRouter(t, db), db)
	g := telegramtest.Group(-911)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 1, 5*time.Second)[0]
	kb := keyboardOf(t, shown)
	if len(kb) != 2 || len(kb[0]) != 4 || kb[1][0].Text != "🎲 d12" {
		t.Fatalf("the tray keyboard: %+v", kb)
	}
	f.Press(shown, bob, *kb[1][1].CallbackData) // d20
	rolled := f.waitSent(g.ID, 2, 5*time.Second)[1]
	if !strings.HasPrefix(rolled.Visible, "Bob: 🎲 Bob: d20 = ") {
		t.Errorf("Bob's d20 from the tray shows %q", rolled.Visible)
	}
}

// TestTurnOrderStatusPerTopic: in a forum each topic where the turn order
// is used gets its own status message, sent in that topic; a change made
// from a topic (a command, or ▶ on that topic's status) edits that
// topic's status message, also after a restart, and never the other
// topic's.
func TestTurnOrderStatusPerTopic(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	rt := testRouterOn(t, db, nil)
	initiative.Register(rt, initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName}))
	const chat, fight, tavern = -912, 4, 9
	f.SetForum(chat)
	f.SetAdmins(chat, ana.ID)
	run := start(t, testConfig(f), rt, db)

	f.SayInTopic(chat, fight, ana, "/init añadir Orco 12")
	sent := f.waitSent(chat, 2, 5*time.Second)
	inFight := sent[1]
	if inFight.Thread != fight || !strings.Contains(inFight.Visible, "12 Orco") {
		t.Fatalf("the first status: %q in topic %d, want topic %d", inFight.Visible, inFight.Thread, fight)
	}
	f.SayInTopic(chat, tavern, ana, "/init añadir Trasgo 3")
	sent = f.waitSent(chat, 4, 5*time.Second)
	inTavern := sent[3]
	if inTavern.Thread != tavern || !strings.Contains(inTavern.Visible, "3 Trasgo") || !strings.Contains(inTavern.Visible, "12 Orco") {
		t.Fatalf("the other topic's status: %q in topic %d, want a new one in topic %d", inTavern.Visible, inTavern.Thread, tavern)
	}
	if n := len(f.Edits()); n != 0 {
		t.Errorf("%d edits, want none: the other topic gets its own status message", n)
	}

	f.PressInTopic(inFight, ana, *keyboardOf(t, inFight)[0][0].CallbackData)
	sent = f.waitSent(chat, 5, 5*time.Second)
	if sent[4].Thread != fight || !strings.Contains(sent[4].Visible, "▶ Orco") {
		t.Errorf("the turn is announced as %q in topic %d, want Orco's in topic %d", sent[4].Visible, sent[4].Thread, fight)
	}
	edits := waitFor(t, "the fight topic's status edited", 1, 5*time.Second, f.Edits)
	if edits[0].MessageID != inFight.ID || !strings.Contains(edits[0].Visible, "▶ 12 Orco") {
		t.Errorf("▶ in the fight topic edited %+v, want message %d", edits[0], inFight.ID)
	}

	run.stop(t)
	start(t, testConfig(f), rt, db)
	f.SayInTopic(chat, tavern, ana, "/init añadir Lobo 5")
	edits = waitFor(t, "the tavern topic's status edited after a restart", 2, 5*time.Second, f.Edits)
	if edits[1].MessageID != inTavern.ID || !strings.Contains(edits[1].Visible, "5 Lobo") {
		t.Errorf("after a restart the tavern's change edited %+v, want message %d", edits[1], inTavern.ID)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.SentTo(chat)); n != 6 {
		t.Errorf("%d messages sent, want 6 (two status messages, then edits)", n)
	}
}
