package main

import (
	"context"
	"strings"
	"testing"

	"zaria/core"
	"zaria/core/dice"
	"zaria/core/reply"
)

// The 📊 of a system check (issue 16) shows the picture of that check with
// its result marked, and rolls and logs nothing: /zaria 4+2 dc15 with the
// dice 3 and 8 (Z = 5, total 11) gives a chart of the total with the
// target 15 and the result 11 marked; the history still holds one roll.
func TestSystemCheckOddsButton(t *testing.T) {
	ctx := context.Background()
	r := testRouter(t, "en", nil)
	msg := core.Message{Chat: core.ChatRef{Platform: "cli", ID: "sys"}, From: core.User{ID: "u1", Name: "Ana"}, LangHint: "en"}
	msg.Text = "/zaria 4+2 dc15"
	rep, ok := r.DispatchWith(ctx, msg, dice.NewScripted([]int{3, 8}))
	if !ok || rep.Error {
		t.Fatalf("%s", reply.PlainText(rep))
	}
	var odds *reply.Action
	for _, b := range rep.Buttons {
		if b.Kind == reply.ButtonOdds {
			odds = b.Action
		}
	}
	if odds == nil || odds.Actual == nil || *odds.Actual != 11 {
		t.Fatalf("no 📊 button with the result 11: %+v", rep.Buttons)
	}
	press, ok := r.Press(ctx, msg, *odds)
	if !ok || press.Error || press.Chart == nil {
		t.Fatalf("press: %v %s", ok, reply.PlainText(press))
	}
	c := press.Chart
	if c.Actual == nil || *c.Actual != 11 || c.Target == nil || *c.Target != 15 {
		t.Errorf("chart marks: actual %v target %v", c.Actual, c.Target)
	}
	if text := reply.PlainText(press); !strings.Contains(text, "DC 15") {
		t.Errorf("the press shows:\n%s", text)
	}
	hist, _ := r.DispatchWith(ctx, core.Message{Chat: msg.Chat, From: msg.From, Text: "/history"}, nil)
	if n := strings.Count(reply.PlainText(hist), "/zaria"); n != 1 {
		t.Errorf("history after the press has %d rolls of /zaria, want 1:\n%s", n, reply.PlainText(hist))
	}
}
