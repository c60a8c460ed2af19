package web

import (
	"strings"
	"testing"

	"zaria/core/reply"
)

func TestTablesScreenActionsAreChatCommands(t *testing.T) {
	for _, c := range []struct {
		q    doReq
		want string
	}{
		{doReq{Op: "tablerename", Name: "Botín", Value: "Botín de Encuentros"}, "/table rename Botín: Botín de Encuentros"},
		{doReq{Op: "tabledelete", Name: "Encuentros raros"}, "/table delete Encuentros raros"},
		{doReq{Op: "deckcreate", Name: "Premios", Value: "Espada\r\n\n • Poción \n"}, "/deck create Premios\nEspada\n• Poción"},
		{doReq{Op: "shuffle", Name: "tarot"}, "/deck shuffle tarot"},
		{doReq{Op: "deckdelete", Name: "Premios"}, "/deck delete Premios"},
		// Refused: nothing becomes a second word, line or command.
		{doReq{Op: "tablerename", Name: "Botín"}, ""},
		{doReq{Op: "tablerename", Name: "Botín", Value: "a: b"}, ""},
		{doReq{Op: "tablerename", Name: "Botín: x", Value: "y"}, ""},
		{doReq{Op: "tablerename", Name: "Botín", Value: "x\n/pj delete Drake"}, ""},
		{doReq{Op: "tabledelete", Name: "/pj delete Drake"}, ""},
		{doReq{Op: "deckcreate", Name: "Premios", Value: "a\n/pj delete Drake"}, ""},
		{doReq{Op: "deckcreate", Name: "Premios", Value: "\n \n"}, ""},
		{doReq{Op: "deckcreate", Name: "Premios", Value: strings.Repeat("x\n", coreLimits.Cards+1)}, ""},
		{doReq{Op: "deckcreate", Name: "", Value: "a\nb"}, ""},
		{doReq{Op: "shuffle", Name: "tarot\u202e"}, ""},
		{doReq{Op: "deckdelete", Name: "«Premios»"}, ""},
	} {
		c.q.lim = coreLimits
		if got := c.q.command(); got != c.want {
			t.Errorf("%+v → %q, want %q", c.q, got, c.want)
		}
	}
	if got := (doReq{Op: "deckcreate", Name: "Premios", Value: strings.Repeat("x\n", coreLimits.Cards), lim: coreLimits}).command(); strings.Count(got, "\n") != coreLimits.Cards {
		t.Errorf("a deck of %d cards refused", coreLimits.Cards)
	}
	if !posts("shuffle") || posts("deckcreate") || posts("tablerename") || posts("tabledelete") || posts("deckdelete") {
		t.Error("a shuffle is posted in the chat, an edit is not")
	}
}

func TestHistoryCommands(t *testing.T) {
	rep := &reply.Reply{Lines: []reply.Line{{reply.B("Últimas 3 tiradas")}, {reply.T("a")}, {reply.T("b")}, {reply.T("c")}},
		Rolls: []reply.Logged{{Command: "/roll 2d6+1", Total: ptr(9)}, {Command: "roll 1d6", Total: ptr(3)}, {Command: "/table Botín", Total: ptr(2_000_000_000)}}}
	cmds, totals := historyCommands(rep)
	if got := strings.Join(cmds, "|"); got != "|/roll 2d6+1||/table Botín" {
		t.Errorf("commands %q", got)
	}
	if len(totals) != 4 || totals[0] != nil || totals[1] == nil || *totals[1] != 9 || totals[2] != nil || totals[3] != nil {
		t.Errorf("totals %v", totals)
	}
	rep.Lines = rep.Lines[:3] // not one roll a line: none
	if cmds, totals := historyCommands(rep); cmds != nil || totals != nil {
		t.Errorf("commands %q of lines that are not the rolls", cmds)
	}
	for c, ok := range map[string]bool{
		"/roll 2d6+1": true, "!roll 1d20": true, "/zaria fuerza+atletismo dc15": true,
		"": false, "roll 1d6": false, " /roll 1d6": false, "/roll 1d6\n/pj delete Drake": false,
		"/roll " + strings.Repeat("1+", 97) + "1": false,
	} {
		if chartCommand(c) != ok {
			t.Errorf("chartCommand(%.40q) = %v", c, !ok)
		}
	}
}

// TestScriptKeepsWindowHistory: the script's own names do not hide the
// browser's history, which the Matrix one-time link needs
// (history.replaceState takes the link out of the address bar): a
// function named history made that page throw before it redeemed the
// link.
func TestScriptKeepsWindowHistory(t *testing.T) {
	js, err := assets.ReadFile("assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	if !strings.Contains(s, "history.replaceState(") {
		t.Skip("the script no longer uses history.replaceState")
	}
	for _, decl := range []string{"function history(", "var history ", "var history=", "let history", "const history"} {
		if strings.Contains(s, decl) {
			t.Errorf("app.js declares %q, which hides window.history", decl)
		}
	}
}
