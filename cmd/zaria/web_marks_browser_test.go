package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"zaria/core"
	"zaria/core/dice"
)

// TestWebBrowserSheetMarks: in Chromium, the GM sees Lyra's RQ sheet as
// the file started it (its characteristics as fields) with the mark her
// success left, taps "Borrar las mejoras", and the page and the sheet
// have none (issue 33).
func TestWebBrowserSheetMarks(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	group := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	for _, m := range []struct {
		from  int64
		admin bool
		text  string
		dice  []int
	}{
		{1, true, "/ajustes sistema rq", nil},
		{1, true, "/gm add " + strconv.FormatInt(webBeto, 10), nil},
		{webAna, false, "/pj crear Lyra", nil},
		{webAna, false, "/pj poner espadas 45", nil},
		{webAna, false, "/rq espadas", []int{20}},
	} {
		rep, ok := w.router.DispatchWith(context.Background(), core.Message{Chat: group,
			From: core.User{ID: strconv.FormatInt(m.from, 10), Name: "x"}, FromGM: m.admin, Text: m.text}, dice.NewScripted(m.dice))
		if !ok || rep.Error {
			t.Fatalf("%q: %+v", m.text, rep)
		}
	}
	tok := w.chatToken(webGroup, webBeto, "Beto")
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "open", chromedp.Navigate(w.launch("android")),
		chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] .marks`)))
	if got := text(t, ctx, `article[data-char="Lyra"] .marks`); !strings.Contains(got, "Mejoras") || !strings.Contains(got, "espadas 1") {
		t.Errorf("marks shown as %q", got)
	}
	waitJS(t, ctx, "the characteristics as fields", `document.querySelector('article[data-char="Lyra"] [data-value="POD"] input.num').value==='10'`)
	shot(t, ctx, dir, "sheets-marks-es")
	do(t, ctx, "clear the marks", chromedp.Click(chromedp.CSS(`article[data-char="Lyra"] .marksclear`)))
	waitJS(t, ctx, "the marks gone", `!!document.querySelector('article[data-char="Lyra"]') && !document.querySelector('article[data-char="Lyra"] .marks') && document.querySelector('#toast').textContent.indexOf('Borrada 1 mejora de Lyra')>=0`)
	if _, ok := w.sheetValue(webGroup, "Lyra", "✎espadas"); ok {
		t.Fatal("the mark is still on the sheet")
	}
}
