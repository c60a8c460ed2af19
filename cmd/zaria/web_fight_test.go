package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/fold"
	"zaria/core/initiative"
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

// TestWebFightOrderTools: the turn order's moves, an NPC's conditions,
// joining and the undo of an ended fight are the chat's /init commands,
// posted in the chat as typed ones; a player's move, NPC condition or
// undo gets the core's refusal and changes nothing; bad fields are
// refused before any command runs. The ended fight stays on the GM's
// page, with its undo, for as long as the core reopens it.
func TestWebFightOrderTools(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, now)
	w.tg.Say(webGroup, webBeto, "Beto", "es", "/pj crear Lyra")
	w.waitSent(webGroup, `Lyra`)
	w.tg.Say(webGroup, webAna, "Ana", "es", `/init añadir Orco 11 pv 15`)
	w.waitSent(webGroup, `Orco se une`)
	w.tg.Say(webGroup, webAna, "Ana", "es", `/init añadir Trasgo 9`)
	w.waitSent(webGroup, `Trasgo se une`)
	order := func() initiative.Order {
		t.Helper()
		o, err := w.db.Initiative(context.Background(), chat)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	names := func(o initiative.Order) string {
		var s []string
		for _, c := range o.Combatants {
			s = append(s, c.Name)
		}
		return strings.Join(s, ",")
	}
	screen := func(auth string) string {
		t.Helper()
		code, body, _ := w.call("GET", "c/"+tok+"/s/order", auth, "")
		if code != 200 {
			t.Fatalf("order screen: %d %s", code, body)
		}
		return body
	}
	posted := func(re string) { t.Helper(); w.waitSent(webGroup, re) }

	// Beto, a player with a character: a join form, none of the GM's tools.
	page := screen(beto)
	if !strings.Contains(page, `class="join row"`) || !strings.Contains(page, "Entrar con Lyra") {
		t.Errorf("Beto's order screen has no join for Lyra:\n%s", page)
	}
	if strings.Contains(page, `class="tools"`) || strings.Contains(page, `class="move"`) || strings.Contains(page, `npccond`) {
		t.Errorf("a player's order screen has the GM's tools:\n%s", page)
	}
	if page := screen(ana); strings.Contains(page, `class="join row"`) {
		t.Errorf("Ana, with no character, is offered to join:\n%s", page)
	}

	// A player's GM-only actions: the core's refusal, nothing changed or posted.
	for _, c := range []struct {
		action map[string]any
		want   string
	}{
		{map[string]any{"op": "move", "name": "Trasgo", "n": 1}, "Solo el máster puede mover a alguien en el orden"},
		{map[string]any{"op": "npccond", "name": "Orco", "value": "aturdido", "n": 2}, "Solo el máster puede cambiar los estados de un PNJ"},
		{map[string]any{"op": "npcuncond", "name": "Orco", "value": "aturdido"}, "Solo el máster puede cambiar los estados de un PNJ"},
		{map[string]any{"op": "reopen"}, "Solo el máster puede reabrir el combate"},
	} {
		code, a := w.do(beto, tok, c.action)
		if code != 200 || !a.Error || a.Posted || !strings.Contains(a.text(), c.want) {
			t.Errorf("Beto's %v: %d %+v, want the core's %q", c.action, code, a, c.want)
		}
		time.Sleep(allowance / 2)
	}
	if o := order(); names(o) != "Orco,Trasgo" || len(o.Combatants[0].Conditions) != 0 {
		t.Errorf("the order after Beto's refused actions: %+v", o)
	}

	// Beto joins from the page with his own value: /init 14, as typed.
	time.Sleep(allowance)
	if code, a := w.do(beto, tok, map[string]any{"op": "join", "value": "14"}); code != 200 || a.Error || !a.Posted || !strings.Contains(a.text(), "Lyra entra con iniciativa 14") {
		t.Fatalf("Beto's join: %d %+v", code, a)
	}
	posted(`📱 Beto: /iniciativa 14\n⚔️ Lyra entra con iniciativa 14`)
	if o := order(); names(o) != "Lyra,Orco,Trasgo" || !o.Combatants[0].Character || o.Combatants[0].Owner != strconv.FormatInt(webBeto, 10) {
		t.Errorf("the order after Beto joined: %+v", o)
	}
	if page := screen(beto); strings.Contains(page, `class="join row"`) {
		t.Errorf("Beto, in the order, is offered to join again:\n%s", page)
	}

	// Ana moves the goblin to the top, then one place down.
	if code, a := w.do(ana, tok, map[string]any{"op": "move", "name": "Trasgo", "n": 1}); code != 200 || a.Error || !a.Posted {
		t.Fatalf("Ana's move: %d %+v", code, a)
	}
	posted(`📱 Ana: /iniciativa mover "Trasgo" 1\n↕️ Trasgo pasa al puesto 1`)
	if o := order(); names(o) != "Trasgo,Lyra,Orco" {
		t.Errorf("the order after the move: %s", names(o))
	}
	page = screen(ana)
	for _, want := range []string{`data-to="2"`, "Bajar a Trasgo al puesto 2", "Subir a Orco al puesto 2", `class="npccond row"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the GM's order screen lacks %q:\n%s", want, page)
		}
	}

	// An NPC's condition as a chip, then removed.
	if code, a := w.do(ana, tok, map[string]any{"op": "npccond", "name": "Orco", "value": "aturdido", "n": 2}); code != 200 || a.Error || !a.Posted {
		t.Fatalf("Ana's condition: %d %+v", code, a)
	}
	posted(`📱 Ana: /iniciativa estado "Orco" \+aturdido 2`)
	if o := order(); len(o.Combatants[2].Conditions) != 1 || o.Combatants[2].Conditions[0] != (initiative.Condition{Name: "aturdido", Rounds: 2}) {
		t.Errorf("the orc's conditions: %+v", o.Combatants[2].Conditions)
	}
	if page := screen(ana); !strings.Contains(page, `<bdi>aturdido</bdi> (2)<button type="button" class="npcuncond" data-cond="aturdido"`) {
		t.Errorf("the GM's page has no removable chip aturdido (2):\n%s", page)
	}
	if page := screen(beto); !strings.Contains(page, `<bdi>aturdido</bdi> (2)</span>`) || strings.Contains(page, "npcuncond") {
		t.Errorf("the player's page: the chip aturdido (2) without a remove button expected:\n%s", page)
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "npcuncond", "name": "Orco", "value": "aturdido"}); code != 200 || a.Error || !a.Posted {
		t.Fatalf("Ana's condition removed: %d %+v", code, a)
	}
	posted(`📱 Ana: /iniciativa estado "Orco" -aturdido`)
	if o := order(); len(o.Combatants[2].Conditions) != 0 {
		t.Errorf("the orc's conditions after the removal: %+v", o.Combatants[2].Conditions)
	}

	// Bad fields: 400 before any command, nothing changed.
	time.Sleep(allowance)
	for _, body := range []string{
		`{"op":"move","name":"Orco","n":0}`, `{"op":"move","name":"Orco","n":31}`, `{"op":"move","name":"Orco\" \"Lyra","n":1}`,
		`{"op":"move","name":"","n":1}`, `{"op":"move","name":"Orco","n":"1"}`,
		`{"op":"npccond","name":"Orco","value":"+x"}`, `{"op":"npccond","name":"Orco","value":"-x"}`,
		`{"op":"npccond","name":"Orco","value":"a b"}`, `{"op":"npccond","name":"Orco","value":"x","n":100}`,
		`{"op":"npccond","name":"Orco","value":"x","n":-1}`, `{"op":"npccond","name":"Orco\n/init end","value":"x"}`,
		`{"op":"npcuncond","name":"Orco","value":""}`, `{"op":"npcuncond","name":"Orco","value":"x 2"}`,
		`{"op":"join","value":"fin"}`, `{"op":"join","value":"1 2"}`, `{"op":"join","value":"/init 3"}`, `{"op":"join","value":"quitar"}`,
	} {
		if code, got, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("body %.60q: %d %q, want 400", body, code, got)
		}
	}
	if o := order(); !o.Open || names(o) != "Trasgo,Lyra,Orco" || len(o.Combatants[2].Conditions) != 0 {
		t.Errorf("the order after bad bodies: %+v", o)
	}

	// The end, and its undo from the page.
	time.Sleep(allowance)
	if code, a := w.do(ana, tok, map[string]any{"op": "end"}); code != 200 || a.Error || !a.Posted {
		t.Fatalf("Ana's end: %d %+v", code, a)
	}
	posted(`📱 Ana: /iniciativa fin`)
	page = screen(ana)
	if !strings.Contains(page, "El combate ha terminado.") || !strings.Contains(page, "durante 15 min más") ||
		!strings.Contains(page, `class="primary big reopen"`) || !strings.Contains(page, `data-go="order"`) {
		t.Errorf("the GM's order screen after the end:\n%s", page)
	}
	// A player keeps the tab and how the fight ended (issue 36: it was
	// gone), without the undo.
	page = screen(beto)
	if !strings.Contains(page, "El combate ha terminado.") || strings.Contains(page, "reopen") || !strings.Contains(page, `data-go="order"`) ||
		!strings.Contains(page, `class="order last"`) || strings.Count(page, `class="fighter`) != 3 || strings.Contains(page, `id="next"`) {
		t.Errorf("the player's order screen after the end (the last fight, no undo):\n%s", page)
	}
	if code, a := w.do(beto, tok, map[string]any{"op": "reopen"}); code != 200 || !a.Error || !strings.Contains(a.text(), "Solo el máster puede reabrir el combate") {
		t.Errorf("Beto's undo: %d %+v", code, a)
	}
	if order().Open {
		t.Fatal("the fight reopened by a player")
	}
	time.Sleep(allowance)
	if code, a := w.do(ana, tok, map[string]any{"op": "reopen"}); code != 200 || a.Error || !a.Posted {
		t.Fatalf("Ana's undo: %d %+v", code, a)
	}
	posted(`📱 Ana: /iniciativa deshacer\n↩️ El combate sigue donde estaba`)
	if o := order(); !o.Open || names(o) != "Trasgo,Lyra,Orco" {
		t.Errorf("the order after the undo: %+v", o)
	}
	if page := screen(ana); !strings.Contains(page, `id="next"`) || strings.Contains(page, "reopen") {
		t.Errorf("the GM's order screen after the undo:\n%s", page)
	}

	// Ended longer ago than the core reopens: the last fight, no undo.
	time.Sleep(allowance)
	if code, a := w.do(ana, tok, map[string]any{"op": "end"}); code != 200 || a.Error {
		t.Fatalf("Ana's second end: %d %+v", code, a)
	}
	if _, err := w.db.EditInitiative(context.Background(), chat, func(o *initiative.Order, _ bool) error {
		o.Ended = time.Now().Add(-initiative.UndoFor - time.Minute)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if page := screen(ana); !strings.Contains(page, "El combate ha terminado.") || strings.Contains(page, "reopen") || !strings.Contains(page, `data-go="order"`) || !strings.Contains(page, `class="order last"`) {
		t.Errorf("the GM's order screen %v after the end (the last fight, no undo):\n%s", initiative.UndoFor+time.Minute, page)
	}
}
