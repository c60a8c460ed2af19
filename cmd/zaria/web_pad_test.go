package main

import (
	"context"
	"testing"
	"time"

	"zaria/core"
)

// TestWebPadEditorRefused: the pad editor's writes are /pad commands, so
// the core's rules hold — a player may not edit the chat's pad, nor reach
// another player's button through his own pad — and a field that could
// become a second argument or command is refused before any command is
// made. Nothing changes.
func TestWebPadEditorRefused(t *testing.T) {
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	beto := "tma " + w.initDataFor(webBeto, "Beto", tok, time.Now())
	for _, q := range []map[string]any{
		{"op": "padadd", "name": "Ataque", "value": "1d20+5"},
		{"op": "padadd", "name": "Iniciativa", "value": "d20", "scope": "chat"},
	} {
		if code, a := w.do(ana, tok, q); code != 200 || a.Error {
			t.Fatalf("%v: %d %+v", q, code, a)
		}
	}
	ref := core.ChatRef{Platform: "telegram", ID: "-100123"}
	mine, _ := w.db.PadButtons(context.Background(), ref, "42")
	chat, _ := w.db.PadButtons(context.Background(), ref, "")
	if len(mine) != 1 || len(chat) != 1 {
		t.Fatalf("pads: %+v %+v", mine, chat)
	}
	// The core refuses Beto on the chat's pad.
	for _, q := range []map[string]any{
		{"op": "padadd", "name": "Mío", "value": "d6", "scope": "chat"},
		{"op": "padrename", "button": chat[0].ID, "name": "Otro", "scope": "chat"},
		{"op": "padremove", "button": chat[0].ID, "scope": "chat"},
	} {
		if code, a := w.do(beto, tok, q); code != 200 || !a.Error {
			t.Errorf("Beto %v: %d %+v", q, code, a)
		}
	}
	time.Sleep(2100 * time.Millisecond)
	// Refused before any command: Ana's button is not in Beto's pad; a
	// label with a quote, a command on two lines or starting with a
	// quote, a scope that is not one, a position out of range.
	for _, q := range []map[string]any{
		{"op": "padrename", "button": mine[0].ID, "name": "Robado"},
		{"op": "padremove", "button": mine[0].ID},
		{"op": "padadd", "name": `a" /pad clear`, "value": "d6"},
		{"op": "padadd", "name": "b", "value": "d6\n/pad clear"},
		{"op": "padadd", "name": "b", "value": `"x" d6`},
		{"op": "padadd", "name": "b", "value": "d6", "scope": "--chat"},
		{"op": "padmove", "button": mine[0].ID, "n": 0},
	} {
		who := beto
		if q["op"] == "padmove" {
			who = ana
		}
		if code, _ := w.do(who, tok, q); code != 400 {
			t.Errorf("%v: %d, want 400", q, code)
		}
	}
	mine2, _ := w.db.PadButtons(context.Background(), ref, "42")
	chat2, _ := w.db.PadButtons(context.Background(), ref, "")
	beto2, _ := w.db.PadButtons(context.Background(), ref, "43")
	if len(mine2) != 1 || mine2[0] != mine[0] || len(chat2) != 1 || chat2[0] != chat[0] || len(beto2) != 0 {
		t.Errorf("pads changed: %+v %+v %+v", mine2, chat2, beto2)
	}
}
