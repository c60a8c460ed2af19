package telegram

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/reply"
)

// A blind roll (/ciega): the group and the roller see that it was made and
// no number; each admin gets the result privately, and one who never
// pressed Start is named in the group. An admin rolling blind gets it as
// a GM.
func TestBlindRollOnlyGMsSeeIt(t *testing.T) {
	f := newFakeAPI(t)
	const group = -602
	f.SetAdmins(group, ana.ID, nikos.ID)
	f.Block(nikos.ID) // never pressed Start
	start(t, testConfig(f), testRouter(t), newMemState())
	g := telegramtest.Group(group)
	f.SayIn(g, bob, "/ciega 1d20")

	toAna := f.waitSent(ana.ID, 1, 5*time.Second)[0]
	inGroup := f.waitSent(group, 2, 5*time.Second)
	if want := "🔒 In “Mesa 602”\n🙈 Blind roll by Bob (who did not see the result):\n🎲 Bob: 1d20 = 1"; toAna.Visible != want {
		t.Errorf("to the GM:\n%q\nwant\n%q", toAna.Visible, want)
	}
	if want := "🙈 Bob made a blind roll.\nOnly the GMs see the result."; inGroup[0].Visible != want {
		t.Errorf("group notice %q, want %q", inGroup[0].Visible, want)
	}
	if !strings.Contains(inGroup[1].Visible, "Admin502") {
		t.Errorf("no hint for the GM who never pressed Start: %q", inGroup[1].Visible)
	}
	for _, m := range f.Sent() {
		if m.Chat != ana.ID && strings.Contains(m.Visible, "= 1") {
			t.Errorf("the result reached chat %d: %q", m.Chat, m.Visible)
		}
	}
	if got := f.SentTo(bob.ID); len(got) != 0 {
		t.Errorf("the roller got %d private messages: %q", len(got), got[0].Visible)
	}

	// An admin rolling blind gets the result, once, as a GM.
	f.SayIn(g, ana, "/blind 1d6")
	if m := f.waitSent(ana.ID, 2, 5*time.Second)[1]; !strings.Contains(m.Visible, "1d6 = 2") {
		t.Errorf("the GM's own blind roll: %q", m.Visible)
	} else if want := "🙈 Blind roll by Ana:\n"; !strings.Contains(m.Visible, want) {
		// She sees it: her copy does not say she did not (issue 36).
		t.Errorf("the GM's own blind roll: %q, want %q", m.Visible, want)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(f.SentTo(ana.ID)); n != 2 {
		t.Errorf("the GM got %d private messages, want 2", n)
	}
}

// A reply with a file for the chat and a file only the GMs may read (a
// session's log and its GMs' copy): the group gets its file, each admin
// the GMs' file privately, the one who asked (no GM) nothing privately.
func TestGMsFileGoesToGMsOnly(t *testing.T) {
	f := newFakeAPI(t)
	const group = -603
	f.SetAdmins(group, ana.ID)
	r := testRouter(t)
	r.Register(command.Command{Name: "log", Handler: command.HandlerFunc(func(context.Context, *command.Request) (*reply.Reply, error) {
		rep := reply.Text("📜 log")
		rep.File = &reply.File{Name: "log.md", Data: []byte("public")}
		rep.Secret = &reply.Reply{Lines: []reply.Line{{reply.T("📜 full log")}}, File: &reply.File{Name: "log-gm.md", Data: []byte("secret")}}
		rep.Blind = true
		return rep, nil
	})})
	start(t, testConfig(f), r, newMemState())
	f.SayIn(telegramtest.Group(group), bob, "/log")
	toAna := f.waitSent(ana.ID, 2, 5*time.Second)
	if toAna[1].Method != "sendDocument" || string(toAna[1].Doc) != "secret" || toAna[1].FileName != "log-gm.md" {
		t.Errorf("to the GM: %+v", toAna[1])
	}
	inGroup := f.waitSent(group, 1, 5*time.Second)
	if inGroup[0].Method != "sendDocument" || string(inGroup[0].Doc) != "public" {
		t.Errorf("in the group: %+v", inGroup[0])
	}
	for _, m := range f.Sent() {
		if string(m.Doc) == "secret" && m.Chat != ana.ID {
			t.Errorf("the GMs' file reached chat %d", m.Chat)
		}
	}
	if n := len(f.SentTo(bob.ID)); n != 0 {
		t.Errorf("the player got %d private messages", n)
	}
}

// A blind roll's notice in the group carries «🙈 GM»: a GM pressing it
// reads the result in a pop-up (show_alert) even if their private chat
// refuses messages, and after a restart; a player pressing it reads that
// only the GM may see it. The roller sees no number anywhere: not in the
// group, not in a pop-up, not in the button's data.
func TestBlindRollGMButton(t *testing.T) {
	f := newFakeAPI(t)
	const group = -604
	f.SetAdmins(group, ana.ID, nikos.ID)
	f.Block(nikos.ID) // never pressed Start
	st := newMemState()
	run := start(t, testConfig(f), testRouter(t), st)
	g := telegramtest.Group(group)
	f.SayIn(g, bob, "/ciega 1d20")
	notice := f.waitSent(group, 1, 5*time.Second)[0]
	kb := keyboardOf(t, notice)
	if len(kb) != 1 || len(kb[0]) != 1 || kb[0][0].Text != "🙈 GM" || kb[0][0].CallbackData == nil {
		t.Fatalf("the notice's buttons: %q", notice.Params["reply_markup"])
	}
	data := *kb[0][0].CallbackData
	if strings.Contains(data, "1d20") || strings.Contains(data, "= 1") || !strings.HasPrefix(data, "b:") {
		t.Errorf("the button's data tells the result: %q", data)
	}
	alerts := func(n int) []telegramtest.Call { return f.waitCalls("answerCallbackQuery", n, 5*time.Second) }

	f.Press(notice, nikos, data)
	if c := alerts(1)[0]; c.Params["show_alert"] != "true" || !strings.Contains(c.Params["text"], "🎲 Bob: 1d20 = 1") {
		t.Errorf("the GM's pop-up: %v", c.Params)
	}
	f.Press(notice, bob, data)
	if c := alerts(2)[1]; c.Params["show_alert"] != "true" || c.Params["text"] != "🙈 Only the GM can see this." {
		t.Errorf("the roller's pop-up: %v", c.Params)
	}

	// After a restart the button still answers, from the stored record.
	if err := run.stop(t); err != nil {
		t.Fatal(err)
	}
	start(t, testConfig(f), testRouter(t), st)
	f.Press(notice, nikos, data)
	if c := alerts(3)[2]; !strings.Contains(c.Params["text"], "🎲 Bob: 1d20 = 1") {
		t.Errorf("the GM's pop-up after a restart: %v", c.Params)
	}
	f.Press(notice, ana, data)
	if c := alerts(4)[3]; !strings.Contains(c.Params["text"], "1d20 = 1") {
		t.Errorf("an admin's pop-up: %v", c.Params)
	}
	time.Sleep(200 * time.Millisecond)
	for _, m := range f.Sent() {
		if m.Chat != ana.ID && strings.Contains(m.Visible, "= 1") {
			t.Errorf("the result reached chat %d: %q", m.Chat, m.Visible)
		}
	}
	if n := len(f.SentTo(bob.ID)); n != 0 {
		t.Errorf("the roller got %d private messages", n)
	}
	if n := len(f.waitSent(group, 2, time.Second)); n != 2 {
		t.Errorf("%d messages in the group, want the notice and the hint to press Start", n)
	}
}
