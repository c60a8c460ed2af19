package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"zaria/core"
)

// TestWebRulesNonGM: the rules screen's writes are /sistema's, GMs only.
// Beto, a player, sends the page's every rules action for the chat's
// Daegon (a table's cell, a band's bound, a house rule, a number's
// preview, an outcome's name): each is refused with the chat's words and
// the fork stays as it was; his screen has no control, Ana's has them,
// and hers are made: the house rule and the band, the screen showing them.
func TestWebRulesNonGM(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/sistema copiar daegon")
	w.waitSent(webGroup, `copia de Daegon`)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, time.Now())

	for _, act := range []map[string]any{
		{"op": "ruleset", "system": "daegon", "part": "cell", "name": "pct", "row": 7, "col": 3, "value": "60"},
		{"op": "rulepreview", "system": "daegon", "part": "cell", "name": "pct", "row": 7, "col": 3, "value": "-"},
		{"op": "ruleset", "system": "daegon", "part": "band", "name": "success", "n": 1},
		{"op": "ruleset", "system": "daegon", "part": "rule", "name": "daegon_00", "value": "cero"},
		{"op": "rulename", "system": "daegon", "name": "success", "value": "Acierto"},
	} {
		code, a := w.do(beto, tok, act)
		if code != 200 || !a.Error || !strings.Contains(a.text(), "Solo un máster puede cambiar las reglas del chat") {
			t.Errorf("Beto's %v: %d %+v", act, code, a)
		}
	}
	fs, err := w.db.Forks(context.Background(), core.ChatRef{Platform: "telegram", ID: "-100123"})
	if err != nil || len(fs) != 1 || len(fs[0].Changes) != 0 {
		t.Fatalf("the fork after Beto's refused changes: %+v %v", fs, err)
	}

	code, page, _ := w.call("GET", "c/"+tok+"/s/rules", beto, "")
	if code != 200 || !strings.Contains(page, "Como el libro") || strings.Contains(page, "rulesave") || strings.Contains(page, "<select") {
		t.Errorf("Beto's rules screen: %d\n%s", code, page)
	}
	code, page, _ = w.call("GET", "c/"+tok+"/s/rules", ana, "")
	for _, want := range []string{`data-part="cell" data-name="pct"`, `data-part="cell" data-name="cmp"`, `data-part="band" data-name="success"`, `data-part="rule" data-name="daegon_00"`, `<option value="cero">0, la tirada más baja</option>`} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("Ana's rules screen: %d, no %s\n%s", code, want, page)
		}
	}

	for _, act := range []map[string]any{
		{"op": "ruleset", "system": "daegon", "part": "rule", "name": "daegon_00", "value": "cero"},
		{"op": "ruleset", "system": "daegon", "part": "band", "name": "success", "n": 1},
	} {
		if code, a := w.do(ana, tok, act); code != 200 || a.Error {
			t.Errorf("Ana's %v: %d %+v", act, code, a)
		}
	}
	code, page, _ = w.call("GET", "c/"+tok+"/s/rules", ana, "")
	for _, want := range []string{`data-cur="cero"`, `<option value="cero" selected>`, `<output data-cur="1" data-v="1">1</output>`, "Daegon: cómo se lee 00: 100, la tirada más alta → 0, la tirada más baja", "banda Éxito ≥0 → ≥1"} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("Ana's rules screen after her changes: %d, no %s\n%s", code, want, page)
		}
	}
}
