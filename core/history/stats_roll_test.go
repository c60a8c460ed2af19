package history_test

import (
	"context"
	"strings"
	"testing"
	"zaria/core"
	"zaria/core/command"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/internal/chattest"
)

// mixedCmd is "/mixed": a fair d6, then a die the handler marks as not a
// plain draw (Sides 0) whose value is always 6, then a value with no
// Sides entry at all, then a d4 value out of range.
func mixedCmd(_ context.Context, req *command.Request) (*reply.Reply, error) {
	d := req.Rand.IntN(6) + 1
	rep := reply.Text("mixed")
	rep.Check = &reply.Check{System: "test", Dice: []int{d, 6, 6, 9}, Sides: []int{6, 0, 0, 4}[:2]}
	if req.Rand.IntN(2) == 0 {
		rep.Check.Sides = []int{6, 0, 0, 4}
	}
	return rep, nil
}

// The observer honours reply.Check.Sides: a die with Sides 0 (or none, or
// a value its size cannot show) never reaches the fairness report.
func TestStatsHonoursZeroSides(t *testing.T) {
	h := newHarness(t, chattest.Limits{HistoryKeep: 1000})
	h.R.Register(command.Command{Name: "mixed", Handler: command.HandlerFunc(mixedCmd), Roll: true})
	ctx := context.Background()
	for range 300 {
		rep, _ := h.R.Dispatch(ctx, core.Message{Chat: chatA, From: ana, Text: "/mixed"})
		if rep.Error {
			t.Fatal(reply.PlainText(rep))
		}
	}
	out := h.OK(chatA, ana, false, "/stats")
	contains(t, out, "300 rolls", "d6: 300 dice")
	lacks(t, out, "d4", "1200 dice", "600 dice")
}

// /stats tests only dice whose faces are uniform draws. The dice of
// "100d6r1" never show a 1 (a 1 is rolled again), so counting them as d6
// would call fair dice loaded: through the real router with the real /roll
// registered, 300 such rolls must not flag d6, and the d20s rolled in
// between are still tested. (Fails while core/roll fills Sides for the
// final faces of a term with a reroll rule.)
func TestStatsLeavesOutRerolledDice(t *testing.T) {
	h := newHarness(t, chattest.Limits{HistoryKeep: 1000})
	roll.Register(h.R)
	ctx := context.Background()
	send := func(u core.User, text string) {
		t.Helper()
		rep, _ := h.R.Dispatch(ctx, core.Message{Chat: chatA, From: u, Text: text}) // fresh random dice
		if rep.Error {
			t.Fatalf("%q: %s", text, reply.PlainText(rep))
		}
	}
	for i := range 300 {
		send(ana, "/roll 100d6r1")
		if i%3 == 0 {
			send(bob, "/roll 1d20")
		}
	}
	out := h.OK(chatA, ana, false, "/stats")
	contains(t, out, "400 rolls", "d20: 100 dice")
	// d6 may be left out, or tested over draws that are uniform (say, the
	// faces rerolled away counted too); it must not be called unusual.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "d6:") && strings.Contains(line, "unusual") {
			t.Errorf("fair dice flagged: the rerolled d6 of /roll 100d6r1 reach the fairness report as plain draws (core/roll must leave their Sides 0):\n%s", out)
		}
	}
}
