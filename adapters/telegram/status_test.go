package telegram

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/sheet"
)

// TestTurnOrderStatusOneSend: a fight command costs one send (issue 36,
// item 6; it was the reply and an edit of the status far up): its reply
// is posted with the turn order under it and the ▶ ⏹ buttons, and that
// message is the live status from then on; a player whose turn it is not
// gets the core's refusal as the press's toast, nothing posted; /init ver
// posts the order again at the bottom (item 3); the end edits the live
// status (its buttons go), also after a restart.
func TestTurnOrderStatusOneSend(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	rt := testRouterOn(t, db, nil)
	chars := sheet.New(db, sheet.Options{})
	initiative.Register(rt, initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName, Fighters: chars}))
	g := telegramtest.Group(-910)
	f.SetAdmins(g.ID, ana.ID)
	run := start(t, testConfig(f), rt, db)

	f.SayIn(g, ana, "/init añadir Orco 12")
	status := f.waitSent(g.ID, 1, 5*time.Second)[0]
	if !strings.Contains(status.Visible, "Orco se une con iniciativa 12") || !strings.Contains(status.Visible, "⚔️ Iniciativa") ||
		!strings.Contains(status.Visible, "12 Orco") {
		t.Fatalf("the join shows %q", status.Visible)
	}
	kb := keyboardOf(t, status)
	if len(kb) != 1 || len(kb[0]) != 2 || !strings.HasPrefix(kb[0][0].Text, "▶") || !strings.HasPrefix(kb[0][1].Text, "⏹") {
		t.Fatalf("the status keyboard: %+v", kb)
	}
	f.SayIn(g, bob, "/init 9")
	status = f.waitSent(g.ID, 2, 5*time.Second)[1] // Bob's join, with the order
	if !strings.Contains(status.Visible, "Bob entra con iniciativa 9") || !strings.Contains(status.Visible, "9 Bob") {
		t.Fatalf("Bob's join shows %q", status.Visible)
	}

	// Bob may not start the fight: a toast, nothing posted.
	next := *keyboardOf(t, status)[0][0].CallbackData
	f.Press(status, bob, next)
	answers := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if got := answers[0].Params["text"]; !strings.Contains(got, "Solo el máster puede empezar el combate") {
		t.Errorf("Bob's press was answered %q", got)
	}
	f.Press(status, ana, next)
	sent := f.waitSent(g.ID, 3, 5*time.Second)
	if v := sent[2].Visible; !strings.Contains(v, "Asalto 1") || !strings.Contains(v, "▶ Orco") || !strings.Contains(v, "▶ 12 Orco") {
		t.Errorf("the next turn is announced as %q", v)
	}
	// Orc's turn passes; Bob's turn is announced with a mention of Bob.
	f.Press(sent[2], ana, next)
	sent = f.waitSent(g.ID, 4, 5*time.Second)
	if !strings.Contains(sent[3].Visible, "▶ Bob") || !strings.Contains(sent[3].Params["text"], `<a href="tg://user?id=503">🔔</a>`) {
		t.Errorf("Bob's turn: %q (%q), want a mention of Bob", sent[3].Visible, sent[3].Params["text"])
	}
	f.SayIn(g, bob, "/init ver")
	shown := f.waitSent(g.ID, 5, 5*time.Second)[4]
	if !strings.Contains(shown.Visible, "▶ 9 Bob") || len(keyboardOf(t, shown)[0]) != 2 {
		t.Errorf("/init ver posted %q", shown.Visible)
	}
	time.Sleep(100 * time.Millisecond)
	if n, e := len(f.SentTo(g.ID)), len(f.Edits()); n != 5 || e != 0 {
		t.Errorf("%d messages and %d edits, want 5 and none: one send a command", n, e)
	}

	// After a restart the end edits the live status: the last one posted.
	run.stop(t)
	start(t, testConfig(f), rt, db)
	f.SayIn(g, ana, "/init fin")
	edits := waitFor(t, "the status edited at the end", 1, 5*time.Second, f.Edits)
	if e := edits[0]; e.MessageID != shown.ID || e.Markup != "" || !strings.Contains(e.Visible, "⏹") || !strings.Contains(e.Visible, "9 Bob") {
		t.Errorf("the end edited %+v, want message %d without its buttons", e, shown.ID)
	}
	if end := f.waitSent(g.ID, 6, 5*time.Second)[5]; !strings.Contains(end.Visible, "Fin del combate tras el asalto 1") {
		t.Errorf("the end says %q", end.Visible)
	}
}

// TestOneLiveStatusWhateverArrivesAtOnce (issue 36, item 4): two joins,
// the start and the end arrive in one batch (a Greek table saw two status
// messages of one fight, and only the second was ever updated): each
// command is one message, and the end edits the last of them, the live
// one, never an older one, and sends no status message of its own.
func TestOneLiveStatusWhateverArrivesAtOnce(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	rt := testRouterOn(t, db, nil)
	initiative.Register(rt, initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName}))
	g := telegramtest.Group(-913)
	f.SetAdmins(g.ID, ana.ID)
	cfg := testConfig(f)
	cfg.ChatInterval = 50 * time.Millisecond // the replies queue up behind each other
	start(t, cfg, rt, db)

	f.SayIn(g, bob, "/init 9")
	f.SayIn(g, ana, "/init añadir Orco 12")
	f.SayIn(g, ana, "/init siguiente")
	f.SayIn(g, ana, "/init fin")
	edits := waitFor(t, "the end's edit", 1, 5*time.Second, f.Edits)
	sent := f.waitSent(g.ID, 4, 5*time.Second)
	time.Sleep(200 * time.Millisecond)
	sent, edits = f.SentTo(g.ID), f.Edits()
	if len(sent) != 4 || len(edits) != 1 {
		t.Fatalf("%d messages and %d edits, want 4 and 1:\n%+v\n%+v", len(sent), len(edits), sent, edits)
	}
	if !strings.Contains(sent[2].Visible, "▶ 12 Orco") || edits[0].MessageID != sent[2].ID {
		t.Errorf("the end edited message %d, want the live status %d (%q)", edits[0].MessageID, sent[2].ID, sent[2].Visible)
	}
	if !strings.HasPrefix(sent[3].Visible, "⏹") || strings.Contains(sent[3].Visible, "⚔️") {
		t.Errorf("the end's message: %q", sent[3].Visible)
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
// is used has its own live status message, in that topic; a change made
// from a topic (a command, or ▶ on that topic's status) is posted there
// with the order, and the end made from a topic edits that topic's live
// status, also after a restart, never the other topic's.
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
	inFight := f.waitSent(chat, 1, 5*time.Second)[0]
	if inFight.Thread != fight || !strings.Contains(inFight.Visible, "12 Orco") {
		t.Fatalf("the first status: %q in topic %d, want topic %d", inFight.Visible, inFight.Thread, fight)
	}
	f.SayInTopic(chat, tavern, ana, "/init añadir Trasgo 3")
	inTavern := f.waitSent(chat, 2, 5*time.Second)[1]
	if inTavern.Thread != tavern || !strings.Contains(inTavern.Visible, "3 Trasgo") || !strings.Contains(inTavern.Visible, "12 Orco") {
		t.Fatalf("the other topic's status: %q in topic %d, want a new one in topic %d", inTavern.Visible, inTavern.Thread, tavern)
	}

	f.PressInTopic(inFight, ana, *keyboardOf(t, inFight)[0][0].CallbackData)
	sent := f.waitSent(chat, 3, 5*time.Second)
	if sent[2].Thread != fight || !strings.Contains(sent[2].Visible, "▶ Orco") || !strings.Contains(sent[2].Visible, "▶ 12 Orco") {
		t.Errorf("the turn is announced as %q in topic %d, want Orco's in topic %d", sent[2].Visible, sent[2].Thread, fight)
	}
	if n := len(f.Edits()); n != 0 {
		t.Errorf("%d edits, want none: a command is one message", n)
	}

	run.stop(t)
	start(t, testConfig(f), rt, db)
	f.SayInTopic(chat, tavern, ana, "/init fin")
	edits := waitFor(t, "the tavern topic's status edited after a restart", 1, 5*time.Second, f.Edits)
	if edits[0].MessageID != inTavern.ID || !strings.Contains(edits[0].Visible, "▶ 12 Orco") {
		t.Errorf("after a restart the tavern's end edited %+v, want message %d", edits[0], inTavern.ID)
	}
	time.Sleep(100 * time.Millisecond)
	if n, e := len(f.SentTo(chat)), len(f.Edits()); n != 4 || e != 1 {
		t.Errorf("%d messages and %d edits, want 4 and 1", n, e)
	}
}

// TestStatusEditsBatched (issue 36, items 4 and 6): statuses of one slot
// that wait in a chat's queue behind each other cost one send, the
// newest: three status changes at once (the end of a fight is one, a
// status too long to ride on its reply another) make one status message
// that shows the last, never three messages, and at most one edit.
func TestStatusEditsBatched(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	rt := testRouterOn(t, db, nil)
	rt.Register(command.Command{Name: "marcador", Handler: command.HandlerFunc(func(_ context.Context, req *command.Request) (*reply.Reply, error) {
		return &reply.Reply{Status: &reply.Reply{Slot: "marcador", Lines: []reply.Line{{reply.T("marcador " + req.Args)}}}}, nil
	})})
	g := telegramtest.Group(-914)
	cfg := testConfig(f)
	cfg.ChatInterval = 500 * time.Millisecond // the statuses queue up behind each other
	start(t, cfg, rt, db)

	for _, n := range []string{"1", "2", "3"} {
		f.SayIn(g, ana, "/marcador "+n)
	}
	waitFor(t, "the status", 1, 5*time.Second, func() []telegramtest.Sent { return f.SentTo(g.ID) })
	shows := func() string {
		if e := f.Edits(); len(e) > 0 {
			return e[len(e)-1].Visible
		}
		return f.SentTo(g.ID)[0].Visible
	}
	for deadline := time.Now().Add(minWait); shows() != "marcador 3" && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if n, e := len(f.SentTo(g.ID)), len(f.Edits()); n != 1 || e > 1 || shows() != "marcador 3" {
		t.Fatalf("%d messages and %d edits showing %q, want one message and at most one edit showing «marcador 3»", n, e, shows())
	}
}
