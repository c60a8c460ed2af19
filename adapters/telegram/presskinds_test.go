package telegram

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
)

// TestEachPressKind: every kind of button pressed in a group gives what it
// gives on Matrix and the console: 🎲 rolls again for whoever presses it,
// 📊 shows the odds of the roll already made (added to its message) and
// rolls nothing, a pad button rolls as its owner typed it and is refused
// to someone else.
func TestEachPressKind(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	start(t, testConfig(f), padRouter(t, db), db)
	g := telegramtest.Group(-760)
	f.SayIn(g, ana, "/roll 3d6")
	first := f.waitSent(g.ID, 1, 5*time.Second)[0]
	kb := keyboardOf(t, first)
	if len(kb) != 1 || len(kb[0]) != 2 {
		t.Fatalf("the roll's keyboard %+v", kb)
	}
	f.Press(first, bob, *kb[0][0].CallbackData)
	if again := f.waitSent(g.ID, 2, 5*time.Second)[1]; !strings.Contains(again.Visible, "Bob tira otra vez") || !strings.Contains(again.Visible, "🎲 Bob: 3d6 = 2") {
		t.Errorf("🎲 by Bob: %q", again.Visible)
	}
	f.Press(first, bob, *kb[0][1].CallbackData)
	edits := waitFor(t, "edits", 1, 5*time.Second, f.Edits)
	if !strings.Contains(edits[0].Visible, "🎲 Ana: 3d6 = 1") || !strings.Contains(edits[0].Visible, "50") {
		t.Errorf("📊 edited the roll into %q, want it with its odds", edits[0].Visible)
	}

	f.SayIn(g, ana, "/pad add 3d6")
	f.waitSent(g.ID, 3, 5*time.Second)
	f.SayIn(g, ana, "/pad")
	shown := f.waitSent(g.ID, 4, 5*time.Second)[3]
	button := *keyboardOf(t, shown)[0][0].CallbackData
	f.Press(shown, bob, button)
	f.waitCalls("answerCallbackQuery", 3, 5*time.Second)
	f.Press(shown, ana, button)
	// Nothing was rolled by 📊 nor by Bob's press: this roll is the third.
	if got := f.waitSent(g.ID, 5, 5*time.Second)[4]; !strings.Contains(got.Visible, "Ana: 3d6 = 3") {
		t.Errorf("Ana's pad button rolled %q, want her 3d6, the third roll", got.Visible)
	}
	if bad := f.BadRequests(); len(bad) > 0 {
		t.Errorf("Telegram refused %q", bad)
	}
}

// TestOldButtonsAfterUpgrade: the buttons the release before drew keep
// working: a roll's stored record (b:<id>:a and :o, as it wrote it) rolls
// again and adds the odds to the message; its inline odds data (o:<command>,
// which then ran the command again) now shows the odds and rolls nothing;
// a pad button's data (p:<id>) rolls the pad's button.
func TestOldButtonsAfterUpgrade(t *testing.T) {
	f := newFakeAPI(t)
	db := openDB(t, filepath.Join(t.TempDir(), "zaria.db"))
	defer db.Close()
	key := fmt.Sprintf("telegram.%d.b.0123456789abcdef", f.Bot().ID)
	if err := db.SetState(t.Context(), key, `{"c":"/roll 2d6","w":"Ana","t":"🎲 Ana: \u003ccode\u003e2d6\u003c/code\u003e = 7","al":"🎲 Otra vez","o":{"c":0.5,"e":"1/2","m":7}}`); err != nil {
		t.Fatal(err)
	}
	start(t, testConfig(f), padRouter(t, db), db)
	g := telegramtest.Group(-761)
	f.SayIn(g, ana, "/roll 2d6") // a message for the old buttons to be on
	old := f.waitSent(g.ID, 1, 5*time.Second)[0]
	f.Press(old, bob, "b:0123456789abcdef:a")
	if got := f.waitSent(g.ID, 2, 5*time.Second)[1]; !strings.Contains(got.Visible, "Bob") || !strings.Contains(got.Visible, "Bob: 2d6 = 2") {
		t.Errorf("an old 🎲 rolled %q", got.Visible)
	}
	f.Press(old, bob, "b:0123456789abcdef:o")
	edits := waitFor(t, "edits", 1, 5*time.Second, f.Edits)
	if !strings.Contains(edits[0].Visible, "Ana: 2d6 = 7") || !strings.Contains(edits[0].Visible, "50") || !strings.Contains(edits[0].Markup, "Otra vez") {
		t.Errorf("an old 📊 edited the message into %+v", edits[0])
	}
	f.Press(old, bob, "o:/roll 2d6")
	// This router's roll has no odds of its own: the core says so.
	if got := f.waitSent(g.ID, 3, 5*time.Second)[2]; strings.Contains(got.Visible, "2d6 =") {
		t.Errorf("an old odds button without a record answered %q", got.Visible)
	}
	f.SayIn(g, ana, "/pad add 2d6")
	f.waitSent(g.ID, 4, 5*time.Second)
	f.Press(old, ana, "p:1")
	// o:/roll 2d6 rolled nothing: the pad's roll is the third.
	sent := f.waitSent(g.ID, 5, 5*time.Second)
	if got := sent[len(sent)-1]; !strings.Contains(got.Visible, "Ana: 2d6 = 3") {
		t.Errorf("an old pad button rolled %q (sent %d), want the third roll", got.Visible, len(sent))
	}
}
