package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/ask"
	"zaria/core/sheet"
)

// TestWebAskForARoll: a request for a roll (issue 35) on the page. The
// GM asks from the dice screen (/ask as that user: the chat gets the
// request's message); each player's dice screen shows a button for
// their own character only, the GM's one for every character not rolled
// and ⏹; a player's press on another's character is refused with the
// core's words and rolls nothing; bad bodies are a 400 and change
// nothing; the owner's press rolls and the chat's message is edited with
// the result; the GM's ⏹ closes it and the screens no longer offer it.
func TestWebAskForARoll(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	now := time.Now()
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, now)
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, now)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/pj crear Drake")
	w.waitSent(webGroup, `Drake`)
	w.tg.Say(webGroup, webBeto, "Beto", "es", "/pj crear Lyra")
	w.waitSent(webGroup, `Lyra`)

	// A player cannot ask; the GM can, from the page.
	code, a := w.do(beto, tok, map[string]any{"op": "ask", "value": "1d20+3 vs 10"})
	if code != 200 || !a.Error || a.Posted {
		t.Errorf("Beto's request: %d %+v, want the core's refusal", code, a)
	}
	time.Sleep(allowance / 2)
	code, a = w.do(ana, tok, map[string]any{"op": "ask", "value": "1d20+3 vs 10"})
	if code != 200 || a.Error || !a.Posted || !strings.Contains(a.text(), "⏳ Lyra") {
		t.Fatalf("Ana's request: %d %+v", code, a)
	}
	w.waitSent(webGroup, `⏳ Lyra`)
	open, err := w.db.OpenAsks(context.Background(), chat)
	if err != nil || len(open) != 1 {
		t.Fatalf("open requests %+v %v", open, err)
	}
	id := open[0].ID
	lyra, drake := sheet.NameKey("Lyra"), sheet.NameKey("Drake")

	// Who sees which button.
	_, player, _ := w.call("GET", "c/"+tok+"/s/dice", beto, "")
	_, gm, _ := w.call("GET", "c/"+tok+"/s/dice", ana, "")
	btn := func(key string) string { return `data-char="` + key + `"` }
	if !strings.Contains(player, `data-ask="`+strconv.FormatInt(id, 10)+`"`) || !strings.Contains(player, btn(lyra)) ||
		strings.Contains(player, btn(drake)) || strings.Contains(player, "askclose") || strings.Contains(player, `class="asknew"`) {
		t.Errorf("Beto's dice screen: want Lyra's button only, no ⏹ nor form:\n%s", player)
	}
	if !strings.Contains(gm, btn(lyra)) || !strings.Contains(gm, btn(drake)) || !strings.Contains(gm, "askclose") || !strings.Contains(gm, `class="asknew"`) {
		t.Errorf("Ana's dice screen: want both buttons, ⏹ and the form:\n%s", gm)
	}

	// A stranger's press: the core's words, nothing rolled.
	time.Sleep(allowance / 2)
	code, a = w.do(beto, tok, map[string]any{"op": "askroll", "button": id, "char": drake})
	if code != 200 || !a.Error || a.Posted || !strings.Contains(a.text(), "Drake es de Ana") {
		t.Errorf("Beto's press on Drake: %d %+v, want «Drake es de Ana…»", code, a)
	}
	// Bad bodies: 400, nothing run.
	for _, body := range []string{
		`{"op":"askroll","button":0,"char":"` + lyra + `"}`,
		`{"op":"askroll","button":` + strconv.FormatInt(id, 10) + `,"char":"a b"}`,
		`{"op":"askroll","button":` + strconv.FormatInt(id, 10) + `}`,
		`{"op":"askclose","button":` + strconv.FormatInt(id, 10) + `,"char":"` + lyra + `"}`,
		`{"op":"ask","value":"1d20\n/pj borrar Drake"}`,
		`{"op":"ask","value":"   "}`,
		`{"op":"ask","value":"1d20","name":"a b c d e f g h i"}`,
		`{"op":"ask","value":"1d20","name":"Lyra /pj"}`,
		`{"op":"askroll","button":"1","char":"` + lyra + `"}`,
	} {
		if code, _, _ := w.call("POST", "c/"+tok+"/do", ana, body); code != 400 {
			t.Errorf("%s: %d, want 400", body, code)
		}
	}
	if open, err := w.db.OpenAsks(context.Background(), chat); err != nil || len(open) != 1 || open[0].Entries[0].Rolled || open[0].Entries[1].Rolled {
		t.Errorf("after the refused presses: %+v %v", open, err)
	}

	// Beto's press: Lyra rolls, the chat's message shows it.
	time.Sleep(allowance / 2)
	code, a = w.do(beto, tok, map[string]any{"op": "askroll", "button": id, "char": lyra})
	result := regexp.MustCompile(`[✅❌] Lyra: \d+`)
	if code != 200 || a.Error || !a.Posted || !result.MatchString(a.text()) {
		t.Fatalf("Beto's press on Lyra: %d %+v", code, a)
	}
	if !waitEdit(w, webGroup, result) {
		t.Errorf("the chat's request message was not edited with Lyra's result: %+v", w.tg.Edits())
	}
	if _, player, _ = w.call("GET", "c/"+tok+"/s/dice", beto, ""); strings.Contains(player, btn(lyra)) {
		t.Errorf("Lyra's button still offered after her roll:\n%s", player)
	}
	// A second press: the core's words.
	time.Sleep(allowance / 2)
	if code, a = w.do(beto, tok, map[string]any{"op": "askroll", "button": id, "char": lyra}); code != 200 || !a.Error || !strings.Contains(a.text(), "Lyra ya ha tirado") {
		t.Errorf("a second press: %d %+v", code, a)
	}

	// The GM closes it: no screen offers it any more.
	time.Sleep(allowance / 2)
	if code, a = w.do(ana, tok, map[string]any{"op": "askclose", "button": id}); code != 200 || a.Error || !strings.Contains(a.text(), "⏹") {
		t.Errorf("Ana's ⏹: %d %+v", code, a)
	}
	if open, _ := ask.Open(context.Background(), w.db, chat, strconv.FormatInt(webAna, 10), true); len(open) != 0 {
		t.Errorf("open after ⏹: %+v", open)
	}
	if _, gm, _ = w.call("GET", "c/"+tok+"/s/dice", ana, ""); strings.Contains(gm, "data-ask=") {
		t.Errorf("a closed request on the GM's screen:\n%s", gm)
	}
}

// waitEdit waits up to 5 s for an edit of a message of chat matching re.
func waitEdit(w *webTable, chat int64, re *regexp.Regexp) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		for _, e := range w.tg.Edits() {
			if e.Chat == chat && re.MatchString(e.Visible) {
				return true
			}
		}
	}
	return false
}
