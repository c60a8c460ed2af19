package telegram

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/i18n"
	"zaria/storage/memory"
)

// rollCounter counts the answered commands (the router's observers are
// what writes the roll history).
type rollCounter struct {
	mu sync.Mutex
	n  int
}

func (c *rollCounter) Observe(context.Context, *command.Request, *reply.Reply, time.Duration) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *rollCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestOddsButtonSendsThatRollsPicture: /roll 3d6 vs 12, then 📊: a photo
// arrives in reply to the roll's message, a PNG with bars, its caption
// the odds of that roll (the exact chance of 3d6 ≥ 12 is 81/216 = 37.5%),
// the chart marking the total the roll gave; the presser gets the odds
// line as a toast; nothing is rolled (no command observed, so nothing in
// the history) and nothing else is posted. A second press only toasts.
func TestOddsButtonSendsThatRollsPicture(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	obs := &rollCounter{}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), DefaultLang: "en",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}, Observers: []command.Observer{obs}})
	roll.Register(r)
	roll.RegisterOdds(r)

	var mu sync.Mutex
	var marked []*int64
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.Charts = ChartFunc(func(ctx context.Context, c *reply.Chart, lang string) ([]byte, error) {
		mu.Lock()
		marked = append(marked, c.Actual)
		mu.Unlock()
		return pngCharts.PNG(ctx, c, lang)
	})
	start(t, cfg, r, newMemState())
	g := telegramtest.Group(-710)
	f.SayIn(g, bob, "/roll 3d6 vs 12")
	first := f.waitSent(g.ID, 1, 10*time.Second)[0]
	var odds string
	for _, row := range keyboardOf(t, first) {
		for _, b := range row {
			if strings.HasPrefix(b.Text, "📊") {
				odds = *b.CallbackData
			}
		}
	}
	if odds == "" {
		t.Fatalf("the roll has no odds button: %+v", keyboardOf(t, first))
	}
	rolls := obs.count()

	f.Press(first, ana, odds)
	got := f.waitSent(g.ID, 2, 10*time.Second)
	photo := got[1]
	if photo.Method != "sendPhoto" || photo.ReplyTo != first.ID || photo.Params["parse_mode"] != "HTML" {
		t.Fatalf("after 📊 the chat got %s replying to %d (parse_mode %q), want a photo replying to the roll %d",
			photo.Method, photo.ReplyTo, photo.Params["parse_mode"], first.ID)
	}
	if _, bars := decodePhoto(t, photo); bars < 100 {
		t.Errorf("%d bar pixels in the picture", bars)
	}
	if !strings.Contains(photo.Visible, "37.5") {
		t.Errorf("the caption %q lacks the chance of 3d6 ≥ 12 (37.5%%)", photo.Visible)
	}
	mu.Lock()
	if len(marked) != 1 || marked[0] == nil || !strings.Contains(first.Visible, strconv.FormatInt(*marked[0], 10)) {
		t.Errorf("the chart marks %v, want the roll's total from %q", marked, first.Visible)
	}
	mu.Unlock()
	answers := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)
	if !strings.Contains(answers[0].Params["text"], "37.5") {
		t.Errorf("the toast is %q, want the odds", answers[0].Params["text"])
	}

	f.Press(first, ana, odds)
	f.waitCalls("answerCallbackQuery", 2, 5*time.Second)
	time.Sleep(150 * time.Millisecond)
	if n := len(f.SentTo(g.ID)); n != 2 {
		t.Errorf("%d messages after two presses of 📊, want 2 (one roll, one picture)", n)
	}
	if n := obs.count(); n != rolls {
		t.Errorf("the odds button was observed %d times (a roll in the history?)", n-rolls)
	}
	if len(f.Edits()) != 0 {
		t.Errorf("the roll's message was edited too: %+v", f.Edits())
	}
}

// TestOddsPhotoRefusedEditsTheLine: where Telegram refuses the photo, the
// odds line is added to the roll's message, as without charts.
func TestOddsPhotoRefusedEditsTheLine(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), DefaultLang: "en",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}})
	roll.Register(r)
	f := newFakeAPI(t)
	cfg := testConfig(f)
	cfg.Charts = pngCharts
	start(t, cfg, r, newMemState())
	g := telegramtest.Group(-711)
	f.SayIn(g, bob, "/roll 3d6 vs 12")
	first := f.waitSent(g.ID, 1, 10*time.Second)[0]
	kb := keyboardOf(t, first)
	f.Inject("sendPhoto", telegramtest.Fault{Code: 400, Description: "Bad Request: not enough rights to send photos to the chat"})
	f.Press(first, ana, *kb[0][len(kb[0])-1].CallbackData)
	edits := waitFor(t, "edits", 1, 10*time.Second, f.Edits)
	if e := edits[0]; e.MessageID != first.ID || !strings.Contains(e.Visible, "37.5") {
		t.Errorf("after the refused photo the edit is %+v", e)
	}
	if n := len(f.SentTo(g.ID)); n != 1 {
		t.Errorf("%d messages, want only the roll", n)
	}
}

// TestOddsPressInGreekChat: in a chat that speaks Greek (its first user's
// language), 📊 under /roll 3d6 vs 12 adds the core's odds line of that
// roll in Greek to the roll's message (no charts here) and toasts it,
// whoever presses it (Ana's client speaks Spanish): the exact chance
// 81/216 and the mean 10.5, written the Greek way.
func TestOddsPressInGreekChat(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := command.New(command.Config{Translator: cat, Settings: memory.New(), DefaultLang: "en",
		Limits: command.Limits{Burst: 1_000_000, Refill: time.Millisecond}})
	roll.Register(r)
	f := newFakeAPI(t)
	start(t, testConfig(f), r, newMemState())
	g := telegramtest.Group(-712)
	f.SayIn(g, nikos, "/roll 3d6 vs 12")
	first := f.waitSent(g.ID, 1, 10*time.Second)[0]
	kb := keyboardOf(t, first)
	f.Press(first, ana, *kb[0][len(kb[0])-1].CallbackData)
	const line = "📊 Πιθανότητα: 37,5 % · μέσος όρος 10,5"
	edits := waitFor(t, "edits", 1, 10*time.Second, f.Edits)
	if e := edits[0]; e.MessageID != first.ID || e.Visible != first.Visible+"\n"+line {
		t.Errorf("after 📊 the roll reads %q, want it with %q", e.Visible, line)
	}
	if got := f.waitCalls("answerCallbackQuery", 1, 5*time.Second)[0].Params["text"]; got != line {
		t.Errorf("the toast is %q, want %q", got, line)
	}
	if n := len(f.SentTo(g.ID)); n != 1 {
		t.Errorf("%d messages, want only the roll", n)
	}
}
