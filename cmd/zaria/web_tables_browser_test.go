package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"zaria/core"
	"zaria/core/fold"
)

// TestWebBrowserTablesAndHistory plays the tables screen at 390×844: Ana,
// an administrator (a GM), writes two tables, renames one and deletes the
// other with two taps, creates a deck from a list of cards; Beto, a
// player, sees none of the GM's controls and draws a card (posted in the
// chat); Ana shuffles the deck (posted too) and deletes it. Then the
// history: a roll typed in the chat shows a 📊 that opens the picture of
// its distribution under its line, its total marked, and nothing more is
// logged. Then in
// Greek, and at 360 px. Screenshots: tables-edit-{es,el},
// tables-player-es, history-chart-{es,el}.
func TestWebBrowserTablesAndHistory(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	bg := context.Background()
	tableNames := func() string {
		ts, err := w.db.ListTables(bg, chat)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range ts {
			out = append(out, x.Name)
		}
		return strings.Join(out, "|")
	}
	toast := func(what, want string) {
		t.Helper()
		waitJS(t, ctx, what, `document.querySelector('#toast') && document.querySelector('#toast').textContent.indexOf(`+strconv.Quote(want)+`)>=0`)
	}
	clearToast := chromedp.Evaluate[chromedp.Void](`document.querySelector('#toast').textContent=''`)

	// 1. Ana writes two tables.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "tables", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="tables"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="tables"]`)))
	for _, name := range []string{"Botín", "Encuentros"} {
		do(t, ctx, "new table "+name,
			chromedp.Evaluate[chromedp.Void](`document.querySelector('form.rows[data-new]').closest('details').open=true`),
			chromedp.SetValue(chromedp.CSS(`form.rows[data-new] input[name="name"]`), name),
			chromedp.SetValue(chromedp.CSS(`form.rows[data-new] textarea`), "oro\nplata\ncobre"),
			chromedp.Click(chromedp.CSS(`form.rows[data-new] button`)),
			chromedp.WaitVisible(chromedp.CSS(`article[data-table="`+name+`"]`)))
	}

	// 2. She renames «Botín» to «Botín de Encuentros» (a name that starts
	// with the other table's): the one renamed is «Botín».
	do(t, ctx, "rename",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.tablerename[data-name="Botín"]').closest('details').open=true`),
		clearToast,
		chromedp.SetValue(chromedp.CSS(`form.tablerename[data-name="Botín"] input[name="name"]`), "Botín de Encuentros"),
		chromedp.Click(chromedp.CSS(`form.tablerename[data-name="Botín"] button`)))
	toast("the rename's reply", "ahora se llama «Botín de Encuentros»")
	do(t, ctx, "the renamed table", chromedp.WaitVisible(chromedp.CSS(`article[data-table="Botín de Encuentros"]`)))
	if got := tableNames(); got != "Botín de Encuentros|Encuentros" {
		t.Fatalf("tables after the rename: %q", got)
	}

	// 3. She deletes «Encuentros»: the first tap asks, the second deletes.
	time.Sleep(allowance)
	do(t, ctx, "delete, first tap",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('.tabledelete[data-name="Encuentros"]').closest('details').open=true`),
		chromedp.Click(chromedp.CSS(`.tabledelete[data-name="Encuentros"]`)))
	if got := text(t, ctx, `.tabledelete[data-name="Encuentros"]`); !strings.Contains(got, "Pulsa otra vez") || tableNames() != "Botín de Encuentros|Encuentros" {
		t.Fatalf("after one tap: the button says %q, tables %q", got, tableNames())
	}
	do(t, ctx, "delete, second tap", clearToast, chromedp.Click(chromedp.CSS(`.tabledelete[data-name="Encuentros"]`)))
	toast("the delete's reply", "Tabla «Encuentros» borrada.")
	if got := tableNames(); got != "Botín de Encuentros" {
		t.Fatalf("tables after the delete: %q", got)
	}

	// 4. A deck from a list of cards.
	do(t, ctx, "new deck",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.cards').closest('details').open=true`),
		clearToast,
		chromedp.SetValue(chromedp.CSS(`form.cards input[name="name"]`), "Premios"),
		chromedp.SetValue(chromedp.CSS(`form.cards textarea`), "Espada\nEscudo\nPoción"),
		chromedp.Click(chromedp.CSS(`form.cards button`)))
	toast("the deck's reply", "Mazo «Premios» creado: 3 cartas.")
	do(t, ctx, "the deck", chromedp.WaitVisible(chromedp.CSS(`.deck[data-deck="Premios"] .deckdelete`)))
	if d, err := w.db.Deck(bg, chat, fold.Key("Premios")); err != nil || strings.Join(d.Cards, "|") != "Espada|Escudo|Poción" {
		t.Fatalf("the deck stored: %+v %v", d, err)
	}
	do(t, ctx, "open the GM's controls", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('article.table details').forEach(function(d){d.open=true})`))
	shot(t, ctx, dir, "tables-edit-es")

	// 5. Beto: no GM controls; he draws a card, posted in the chat.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's tables", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="tables"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.draw[data-name="Premios"]`)))
	if n := count(t, ctx, `.tabledelete, .tablerename, .deckdelete, form.cards, form.rows`); n != 0 {
		t.Errorf("Beto's screen has %d of the GM's controls", n)
	}
	do(t, ctx, "Beto draws", chromedp.Click(chromedp.CSS(`.draw[data-name="Premios"]`)))
	w.waitSent(webGroup, `📱 Beto: /mazo robar Premios[\s\S]*quedan 2 de 3`)
	waitJS(t, ctx, "2 of 3 left on his page", `document.querySelector('.deck[data-deck="Premios"]').textContent.indexOf('quedan 2 de 3')>=0`)
	shot(t, ctx, dir, "tables-player-es")

	// 6. Ana shuffles it (posted: everyone's next draw changes) and deletes it.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "Ana's tables", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="tables"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.shuffle[data-name="Premios"]`)))
	time.Sleep(allowance) // Ana's allowance, spent on the edits above
	do(t, ctx, "shuffle", chromedp.Click(chromedp.CSS(`.shuffle[data-name="Premios"]`)))
	w.waitSent(webGroup, `📱 Ana: /mazo barajar Premios[\s\S]*barajado`)
	waitJS(t, ctx, "3 of 3 on her page", `document.querySelector('.deck[data-deck="Premios"]').textContent.indexOf('quedan 3 de 3')>=0`)
	if d, err := w.db.Deck(bg, chat, fold.Key("Premios")); err != nil || d.Left() != 3 {
		t.Fatalf("the deck after the shuffle: %+v %v", d, err)
	}
	time.Sleep(allowance)
	do(t, ctx, "delete the deck", clearToast,
		chromedp.Click(chromedp.CSS(`.deckdelete[data-name="Premios"]`)),
		chromedp.Click(chromedp.CSS(`.deckdelete[data-name="Premios"]`)))
	toast("the deck's delete", "Mazo «Premios» borrado.")
	if _, err := w.db.Deck(bg, chat, fold.Key("Premios")); err == nil {
		t.Fatal("Premios is still stored")
	}

	// 7. The history: a roll typed in the chat, its picture on the page
	// (typed once the allowance the page's taps took is back, for it, the
	// history screen and its 📊).
	time.Sleep(3 * allowance)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/tirar 2d6+1")
	w.waitSent(webGroup, `2d6\+1`)
	before, _ := w.db.LastRolls(bg, chat, 50)
	do(t, ctx, "history", chromedp.Click(chromedp.CSS(`[data-go="history"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)))
	total := before[0].Total
	if total == nil {
		t.Fatalf("the roll was logged with no total: %+v", before[0])
	}
	if got := text(t, ctx, `#history`); !strings.Contains(got, "= "+strconv.Itoa(*total)) {
		t.Errorf("the history shows %q, not the total %d", got, *total)
	}
	waitJS(t, ctx, "its total on its 📊", `document.querySelector('#history .chartbtn[data-command="/tirar 2d6+1"]').dataset.total===`+strconv.Quote(strconv.Itoa(*total)))
	do(t, ctx, "📊", chromedp.Click(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)))
	waitJS(t, ctx, "the picture under its line", `(function(){var i=document.querySelector('#history .chart img');
  return !!i && i.complete && i.naturalWidth===800 && i.src.indexOf('data:image/png;base64,')===0 &&
    i.closest('.chart').previousElementSibling.querySelector('.chartbtn').dataset.command==='/tirar 2d6+1'})()`)
	do(t, ctx, "scroll to it", chromedp.ScrollIntoView(chromedp.CSS(`#history .chart img`)))
	shot(t, ctx, dir, "history-chart-es")
	after, _ := w.db.LastRolls(bg, chat, 50)
	if len(after) != len(before) {
		t.Errorf("%d rolls logged before the picture, %d after", len(before), len(after))
	}
	do(t, ctx, "📊 again closes it", chromedp.Click(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)))
	waitJS(t, ctx, "the picture closed", `!document.querySelector('#history .chart')`)

	// 8. In Greek (typed once the history and its two 📊 taps have given
	// back the allowance they took).
	time.Sleep(3 * allowance)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/idioma el")
	w.waitSent(webGroup, `(?i)ελληνικά`)
	do(t, ctx, "Greek tables", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="tables"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.rolltable`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(function(d){d.open=true})`))
	if got := text(t, ctx, `.tabledelete`); !strings.Contains(got, "Διαγραφή") {
		t.Errorf("the delete button %q in Greek", got)
	}
	if got := text(t, ctx, `.shuffle[data-name="tarot"]`); !strings.Contains(got, "Ανακάτεμα") {
		t.Errorf("the shuffle button %q in Greek", got)
	}
	shot(t, ctx, dir, "tables-edit-el")
	do(t, ctx, "Greek history", chromedp.Click(chromedp.CSS(`[data-go="history"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)),
		chromedp.Click(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)))
	waitJS(t, ctx, "the Greek picture", `(function(){var i=document.querySelector('#history .chart img');return !!i && i.complete && i.naturalWidth===800})()`)
	do(t, ctx, "scroll to it", chromedp.ScrollIntoView(chromedp.CSS(`#history .chart img`)))
	shot(t, ctx, dir, "history-chart-el")

	// At 360 px: nothing wider than the screen, every button ≥ 44 px
	// (the history and its 📊 once more: their allowance first).
	time.Sleep(2 * allowance)
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	for _, screen := range []string{"tables", "history"} {
		do(t, ctx, screen, chromedp.Click(chromedp.CSS(`[data-go="`+screen+`"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) .screen[data-screen="`+screen+`"]`)),
			chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(function(d){d.open=true})`))
		if screen == "history" {
			do(t, ctx, "its picture", chromedp.WaitVisible(chromedp.CSS(`#history .chartbtn`)),
				chromedp.Click(chromedp.CSS(`#history .chartbtn[data-command="/tirar 2d6+1"]`)), chromedp.WaitVisible(chromedp.CSS(`#history .chart img`)))
		}
		fit, err := phoneFit(ctx)
		if err != nil || fit != "" {
			t.Errorf("%s at 360 px: %q %v", screen, fit, err)
		}
	}
}
