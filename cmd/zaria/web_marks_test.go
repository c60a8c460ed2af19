package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/dice"
)

// The page shows a sheet started from its system's file as fields, and
// its development marks; the GM clears them from the page as from the
// chat (/pj mejoras borrar), a player cannot (issue 33).
func TestWebSheetFromTheSystemAndItsMarks(t *testing.T) {
	w := newWebTable(t)
	group := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	chat := func(from int64, admin bool, text string, faces ...int) string {
		t.Helper()
		rep, ok := w.router.DispatchWith(context.Background(),
			core.Message{Chat: group, From: core.User{ID: strconv.FormatInt(from, 10), Name: "x"}, FromGM: admin, Text: text}, dice.NewScripted(faces))
		if !ok || rep.Error {
			t.Fatalf("%q: %+v", text, rep)
		}
		var b strings.Builder
		for _, l := range rep.Lines {
			for _, s := range l {
				b.WriteString(s.Text)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	chat(1, true, "/ajustes sistema rq") // the group's admin
	chat(1, true, "/gm add "+strconv.FormatInt(webBeto, 10))

	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	if code, a := w.do(ana, tok, map[string]any{"op": "create", "name": "Lyra"}); code != 200 || a.Error || !strings.Contains(a.text(), "hoja de RQ") || !strings.Contains(a.text(), "FUE 10") {
		t.Fatalf("create: %d %+v", code, a)
	}
	if out := chat(webAna, false, "/pj set espadas 45"); !strings.Contains(out, "espadas") {
		t.Fatalf("set: %s", out)
	}
	if out := chat(webAna, false, "/rq espadas", 20); !strings.Contains(out, "✎ espadas queda marcada") {
		t.Fatalf("/rq espadas: %s", out)
	}
	_, page, _ := w.call("GET", "c/"+tok+"/s/sheets", ana, "")
	for _, want := range []string{`data-value="FUE"`, `data-value="APA"`, `value="10"`, "✎ Mejoras", `<bdi>espadas</bdi> 1`} {
		if !strings.Contains(page, want) {
			t.Errorf("Ana's sheets screen lacks %q", want)
		}
	}
	if strings.Contains(page, `data-value="✎`) || strings.Contains(page, `class="marksclear"`) {
		t.Errorf("Ana's screen shows a mark as a field, or the GM's clear button")
	}
	if code, a := w.do(ana, tok, map[string]any{"op": "marksclear", "char": "Lyra"}); code != 200 || !a.Error || !strings.Contains(a.text(), "Solo el máster") {
		t.Fatalf("Ana clearing: %d %+v", code, a)
	}
	if v, ok := w.sheetValue(webGroup, "Lyra", "✎espadas"); !ok || v != "1" {
		t.Fatalf("the mark after Ana's refused clear: %q %v", v, ok)
	}

	btok := w.chatToken(webGroup, webBeto, "Beto")
	beto := "tma " + w.initDataFor(webBeto, "Beto", btok, time.Now())
	if _, page, _ = w.call("GET", "c/"+btok+"/s/sheets", beto, ""); !strings.Contains(page, `class="marksclear" data-char="Lyra"`) {
		t.Errorf("the GM's screen has no clear button")
	}
	if code, a := w.do(beto, btok, map[string]any{"op": "marksclear", "char": "Lyra"}); code != 200 || a.Error || !strings.Contains(a.text(), "Borrada 1 mejora de Lyra") {
		t.Fatalf("Beto clearing: %d %+v", code, a)
	}
	if _, ok := w.sheetValue(webGroup, "Lyra", "✎espadas"); ok {
		t.Fatal("the mark is still on the sheet")
	}
}
