package roll

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
	"zaria/i18n"
	"zaria/storage/memory"
)

// counter is an Observer (the roll history's seat) that counts what it sees.
type counter struct{ n int }

func (c *counter) Observe(context.Context, *command.Request, *reply.Reply, time.Duration) { c.n++ }

// A roll's buttons carry their meaning; pressing 📊 shows the distribution
// of that roll with its result marked, rolls nothing and logs nothing;
// pressing 🎲 runs the command again as the presser and is logged.
func TestPressOddsAndAgain(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	obs := &counter{}
	rolled := 0
	r := command.New(command.Config{DefaultLang: "es", Translator: cat, Settings: memory.New(),
		Observers: []command.Observer{obs},
		NewSource: func() dice.Source { rolled++; return dice.Seeded(3) },
		Limits:    command.Limits{Burst: 1 << 30}})
	Register(r)
	ctx := context.Background()
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: "-5"}, From: core.User{ID: "u1", Name: "Ana"}, LangHint: "es"}
	m := msg
	m.Text = "/roll 2d6+1 vs 8"
	rep, _ := r.DispatchWith(ctx, m, dice.NewScripted([]int{6, 1}))
	if len(rep.Buttons) != 2 || rep.Buttons[0].Action == nil || rep.Buttons[1].Action == nil {
		t.Fatalf("buttons: %+v", rep.Buttons)
	}
	again, odds := *rep.Buttons[0].Action, *rep.Buttons[1].Action
	if again.Kind != reply.ActAgain || again.Command != "/roll 2d6+1 vs 8" {
		t.Errorf("again: %+v", again)
	}
	if odds.Kind != reply.ActOdds || odds.Command != "/roll 2d6+1 vs 8" || odds.Actual == nil || *odds.Actual != 8 {
		t.Errorf("odds: %+v", odds)
	}
	if obs.n != 1 {
		t.Fatalf("observed %d", obs.n)
	}

	bob := msg
	bob.From = core.User{ID: "u2", Name: "Bob"}
	got, ok := r.Press(ctx, bob, odds)
	if !ok || got.Error {
		t.Fatalf("odds press: %v %s", ok, plain(got))
	}
	if rolled != 0 || obs.n != 1 {
		t.Errorf("the odds press rolled %d times, observed %d (want 0, 1)", rolled, obs.n)
	}
	text := plain(reply.WithChartText(got))
	if !strings.Contains(text, "📊 2d6+1") || !strings.Contains(text, "58,33 %") || !strings.Contains(text, "🎯 👈") {
		t.Errorf("odds press text:\n%s", text)
	}
	c := got.Chart
	if c == nil || c.Actual == nil || *c.Actual != 8 || c.Target == nil || *c.Target != 8 || c.Series[0].Min != 3 || len(c.Series[0].P) != 11 {
		t.Fatalf("chart: %+v", c)
	}
	// The same figures as the old path, the command with " ?".
	m.Text = "/roll 2d6+1 vs 8 ?"
	old, _ := r.DispatchWith(ctx, m, dice.NewScripted([]int{6, 1}))
	for i, p := range old.Chart.Series[0].P {
		if c.Series[0].P[i] != p {
			t.Errorf("P[%d] = %g, the ? path says %g", i, c.Series[0].P[i], p)
		}
	}

	got, ok = r.Press(ctx, bob, again)
	if !ok || got.Error || !strings.HasPrefix(plain(got), "🎲 2d6+1") {
		t.Fatalf("again press: %s", plain(got))
	}
	if rolled != 1 || obs.n != 3 {
		t.Errorf("again: rolled %d, observed %d (want 1, 3)", rolled, obs.n)
	}

	// A command without odds, and a kind nobody registered.
	if got, ok := r.Press(ctx, bob, reply.Action{Kind: reply.ActOdds, Command: "/nada 3"}); !ok || !got.Error || !strings.Contains(plain(got), "no tiene probabilidades") {
		t.Errorf("odds of an unknown command: %v %s", ok, plain(got))
	}
	if _, ok := r.Press(ctx, bob, reply.Action{Kind: "nope"}); ok {
		t.Errorf("an unknown kind was answered")
	}
}

// A press counts against the presser's rate limit like a typed command.
func TestPressIsRateLimited(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(0, 0)
	r := command.New(command.Config{DefaultLang: "en", Translator: cat, Settings: memory.New(),
		Now: func() time.Time { return now }, Limits: command.Limits{Burst: 2}})
	Register(r)
	ctx := context.Background()
	msg := core.Message{Chat: core.ChatRef{Platform: "telegram", ID: "-5"}, From: core.User{ID: "u1", Name: "Ana"}}
	odds := reply.Action{Kind: reply.ActOdds, Command: "/roll d20 vs 11"}
	for i := range 2 {
		if rep, ok := r.Press(ctx, msg, odds); !ok || rep.Error {
			t.Fatalf("press %d: %s", i, plain(rep))
		}
	}
	rep, ok := r.Press(ctx, msg, odds)
	if !ok || !rep.Error || !strings.Contains(plain(rep), "Easy there") {
		t.Errorf("third press: %v %s", ok, plain(rep))
	}
	if _, ok := r.Press(ctx, msg, odds); ok {
		t.Errorf("a flood is warned once")
	}
}
