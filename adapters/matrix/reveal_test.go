package matrix

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

// A blind roll's «🙈 GM» is not drawn on Matrix: its result would be in
// the message's content, which every member of the room reads; the GMs
// have it in their secret room.
func TestBlindRollHasNoGMButton(t *testing.T) {
	rep := &reply.Reply{Lines: []reply.Line{{reply.T("🙈 Bob made a blind roll.")}}, Buttons: []reply.Button{
		{Kind: string(reply.ActReveal), Label: "🙈 GM", Action: &reply.Action{Kind: reply.ActReveal, Secret: "🎲 Bob: 1d20 = 17", Chat: "matrix:!r"}},
	}}
	set, offer := buttonsOf(rep, target{thread: "$t"})
	if len(set.Actions) != 0 || len(offer) != 0 {
		t.Errorf("drawn: %+v, offer %q", set, offer)
	}
	if strings.Contains(string(set.View), "17") {
		t.Errorf("the result in the view: %q", set.View)
	}
}
