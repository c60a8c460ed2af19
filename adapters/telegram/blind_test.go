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
