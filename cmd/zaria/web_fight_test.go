package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/fold"
)

// TestWebFightRules: the page's hit points, turn order and tables are the
// chat's commands, so the core's rules hold: a player cannot change
// another's hit points, add to the turn order or write a table; the
// order screen shows an NPC's hit points to GMs only; bad fields are
// refused before any command runs. Nothing refused changes the chat or
// is posted in it.
func TestWebFightRules(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, now)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/pj crear Drake")
	w.waitSent(webGroup, `Drake`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/pj poner pv 10/10")
	w.waitSent(webGroup, `pv = 10/10`)
	w.tg.Say(webGroup, webAna, "Ana", "es", `/init añadir Orco 11 pv 15`)
	w.waitSent(webGroup, `Orco se une`)

	// Beto, a player, on Ana's character, the GM's turn order and tables.
	for _, c := range []struct {
		action map[string]any
		want   string
	}{
		{map[string]any{"op": "hp", "char": "Drake", "name": "pv", "n": -4}, "Drake"},
		{map[string]any{"op": "cond", "char": "Drake", "name": "aturdido", "n": 1}, "Drake"},
		{map[string]any{"op": "add", "name": "Trasgo", "value": "9"}, "máster"},
		{map[string]any{"op": "rows", "name": "Botín", "value": "oro\nplata"}, "máster"},
	} {
		code, a := w.do(beto, tok, c.action)
		if code != 200 || !a.Error || a.Posted || !strings.Contains(a.text(), c.want) {
			t.Errorf("Beto's %v: %d %+v, want the core's refusal naming %q", c.action, code, a, c.want)
		}
		time.Sleep(allowance / 2)
	}
	if v, _ := w.sheetValue(webGroup, "Drake", "pv"); v != "10/10" {
		t.Errorf("Drake's pv %q after Beto's refused change", v)
	}
	if _, ok := w.sheetValue(webGroup, "Drake", "estado"); ok {
		t.Error("Drake has a condition after Beto's refused one")
	}
	if o, err := w.db.Initiative(context.Background(), chat); err != nil || len(o.Combatants) != 1 {
		t.Errorf("the turn order after Beto's refused add: %+v %v", o, err)
	}
	if _, err := w.db.Table(context.Background(), chat, fold.Key("Botín")); err == nil {
		t.Error("a table written by a player")
	}
	for _, m := range w.tg.SentTo(webGroup) {
		if strings.Contains(m.Visible, "📱 Beto") {
			t.Errorf("a refused action posted: %q", m.Visible)
		}
	}

	// The orc's hit points: numbers for the GM, not for Beto.
	_, gm, _ := w.call("GET", "c/"+tok+"/s/order", ana, "")
	_, player, _ := w.call("GET", "c/"+tok+"/s/order", beto, "")
	if !strings.Contains(gm, "15/15") || !strings.Contains(gm, `class="addfoe"`) {
		t.Errorf("the GM's order screen lacks the orc's 15/15 or the GM's form:\n%s", gm)
	}
	if strings.Contains(player, "15") || strings.Contains(player, `class="addfoe"`) || strings.Contains(player, `class="danger remove"`) {
		t.Errorf("the player's order screen shows the orc's hit points or the GM's controls:\n%s", player)
	}

	// Bad fields: 400 before any command.
	for _, body := range []string{
		`{"op":"hp","char":"Drake","name":"pv"}`, `{"op":"hp","char":"Drake","name":"pv","n":1000}`,
		`{"op":"hp","char":"Drake","name":"pv","n":"-3"}`, `{"op":"hp","char":"Drake","name":"pv dc","n":1}`,
		`{"op":"cond","char":"Drake","name":"x","n":100}`, `{"op":"cond","char":"Drake","name":"-x"}`,
		`{"op":"remove","name":"Orco\" \"Drake"}`, `{"op":"remove","name":"Orco\n/init end"}`,
		`{"op":"add","name":"Trasgo","value":"9 pv 3"}`, `{"op":"add","name":"Trasgo","hp":-1}`,
		`{"op":"table","name":"Botín: oro"}`, `{"op":"draw","name":""}`,
		`{"op":"rows","name":"Botín","value":"oro\n/pj borrar Drake"}`, `{"op":"rows","name":"Botín","value":"\n \n"}`,
		`{"op":"rows","name":"Botín","value":"oro","diff":"1d4 x"}`,
	} {
		if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("body %.60q: %d %q, want 400", body, code, got)
		}
	}
	if v, _ := w.sheetValue(webGroup, "Drake", "pv"); v != "10/10" {
		t.Errorf("Drake's pv %q after bad bodies", v)
	}
	if o, err := w.db.Initiative(context.Background(), chat); err != nil || !o.Open || len(o.Combatants) != 1 {
		t.Errorf("the turn order after bad bodies: %+v %v", o, err)
	}
}
