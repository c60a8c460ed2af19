package web

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOrderToolsAreChatCommands: the order screen's moves, an NPC's
// conditions, joining and the undo of an end are /init as typed; a field
// that could become another word, sub-command or line is refused.
func TestOrderToolsAreChatCommands(t *testing.T) {
	for _, c := range []struct {
		q    doReq
		want string
	}{
		{doReq{Op: "move", Name: "Orco 2", N: 1}, `/init move "Orco 2" 1`},
		{doReq{Op: "move", Name: "Δάφνη", N: 30}, `/init move "Δάφνη" 30`},
		{doReq{Op: "npccond", Name: "Orco", Value: "aturdido", N: 2}, `/init condition "Orco" +aturdido 2`},
		{doReq{Op: "npccond", Name: "Orco", Value: "ζαλισμένος"}, `/init condition "Orco" +ζαλισμένος`},
		{doReq{Op: "npcuncond", Name: "Orco", Value: "aturdido"}, `/init condition "Orco" -aturdido`},
		{doReq{Op: "join"}, "/init"},
		{doReq{Op: "join", Value: "14"}, "/init 14"},
		{doReq{Op: "join", Value: "2d6+1"}, "/init 2d6+1"},
		{doReq{Op: "reopen"}, "/init undo"},
		// Refused.
		{doReq{Op: "move", Name: "Orco", N: 0}, ""},
		{doReq{Op: "move", Name: "Orco", N: 31}, ""},
		{doReq{Op: "move", Name: `Orco" "Lyra`, N: 1}, ""},
		{doReq{Op: "move", Name: "Orco\n/init end", N: 1}, ""},
		{doReq{Op: "npccond", Name: "Orco", Value: "+x"}, ""},
		{doReq{Op: "npccond", Name: "Orco", Value: "−x"}, ""},
		{doReq{Op: "npccond", Name: "Orco", Value: "a b"}, ""},
		{doReq{Op: "npccond", Name: "Orco", Value: "x", N: 100}, ""},
		{doReq{Op: "npccond", Name: "Orco", Value: "x", N: -1}, ""},
		{doReq{Op: "npcuncond", Name: "Orco", Value: ""}, ""},
		{doReq{Op: "join", Value: "fin"}, ""},
		{doReq{Op: "join", Value: "quitar"}, ""},
		{doReq{Op: "join", Value: "1 2"}, ""},
		{doReq{Op: "join", Value: "/init"}, ""},
	} {
		c.q.lim = coreLimits
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.q, got, c.want)
		}
		if c.want != "" && !posts(c.q.Op) {
			t.Errorf("%s is not posted in the chat", c.q.Op)
		}
	}
}

// TestOrderView: the GM's moves name the places a row goes to, the
// conditions kept by the order are the NPCs', and an ended order counts
// the minutes its undo has left, rounded up.
func TestOrderView(t *testing.T) {
	o := Order{Round: 1, Combatants: []Combatant{
		{Name: "Lyra", Mine: true, Character: true}, {Name: "Orco"}, {Name: "Trasgo"},
	}}
	v := orderOf(o)
	var got []string
	for _, c := range v.Combatants {
		got = append(got, strings.Join([]string{c.Name, strconv.Itoa(c.Up), strconv.Itoa(c.Down), map[bool]string{true: "npc", false: "pj"}[c.OwnConds]}, " "))
	}
	if want := "Lyra 0 2 pj|Orco 1 3 npc|Trasgo 2 0 npc"; strings.Join(got, "|") != want || !v.Joined {
		t.Errorf("order view %q joined %v, want %q and joined", strings.Join(got, "|"), v.Joined, want)
	}
	o.Combatants[0].Mine = false // as user 44 sees it
	if v := orderOf(o); v.Joined {
		t.Error("a user with no place in the order is joined")
	}
	now := time.Now()
	if m := endedOf(Order{UndoUntil: now.Add(14*time.Minute + time.Second)}, now).UndoMinutes; m != 15 {
		t.Errorf("14 min 1 s left: %d minutes shown, want 15", m)
	}
}

// TestNextTurnAndLastFight: issue 36. «▶ Siguiente turno» is offered to
// whoever the core lets pass the turn (core/initiative's TestViewByViewer:
// a GM; the player whose character's turn it is, once the fight has
// started); an ended fight is kept for everyone as it ended (no ▶, no
// tools), its undo only while it lasts.
func TestNextTurnAndLastFight(t *testing.T) {
	o := Order{Round: 2, Combatants: []Combatant{
		{Name: "Lyra", Character: true}, {Name: "Orco", Mark: "💀"}, {Name: "Drake", Mine: true, Character: true},
	}}
	for _, can := range []bool{true, false} {
		o.CanNext = can
		if got := orderOf(o).CanNext; got != can {
			t.Errorf("the core offers ▶ %v, the page %v", can, got)
		}
	}
	now := time.Now()
	o.Round, o.UndoUntil, o.CanNext = 3, now.Add(-time.Minute), false
	v := endedOf(o, now)
	if !v.Ended || v.Open || v.CanNext || v.UndoMinutes != 0 || v.Round != 3 || len(v.Combatants) != 3 || v.Combatants[0].Current || v.Combatants[1].Mark != "💀" {
		t.Errorf("the last fight for a player: %+v", v)
	}
}
