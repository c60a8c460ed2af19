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
	"zaria/core/initiative"
)

// allowance is the wait for one more command of the same user: the
// chat's allowance (5 at once, then one each 2 s) applies to the page.
const allowance = 2100 * time.Millisecond

// TestWebBrowserFight plays a fight from the phone at 390×844: Beto's hit
// points with the steppers and a condition as a chip; Ana, an
// administrator (a GM), adds an orc and advances the turn order; Beto
// presses next when it is not his turn and sees the core's refusal, and
// no number of the orc's hit points; Ana writes and edits a table as a
// list of rows, rolls it and draws a card; Beto deletes his character and
// undoes it. Each write is the chat's command, posted in the fake group.
// Screenshots in es and el go to the artifacts.
func TestWebBrowserFight(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	// Beto makes Lyra on the page and gives her 12 hit points (sheet
	// edits are not posted: the group's 20 messages a minute, which the
	// fake Bot API enforces, are kept for the fight), then joins the
	// turn order in the chat.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto makes Lyra", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`form.create`)),
		chromedp.SetValue(chromedp.CSS(`form.create input[name="name"]`), "Lyra"),
		chromedp.Click(chromedp.CSS(`form.create button`)),
		chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] form.sethp`)),
		chromedp.SetValue(chromedp.CSS(`form.sethp input[name="max"]`), "12"),
		chromedp.Click(chromedp.CSS(`form.sethp button`)),
		chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] [data-hp] output`)))
	if v, _ := w.sheetValue(webGroup, "Lyra", "pv"); v != "12/12" {
		t.Fatalf("pv stored as %q, want 12/12", v)
	}
	w.tg.Say(webGroup, webBeto, "Beto", "es", "/iniciativa 14")
	w.waitSent(webGroup, `Lyra entra con iniciativa 14`)
	time.Sleep(allowance)

	// 1. Beto's hit points: three taps on −, one /pj pv -3 in the chat.
	do(t, ctx, "reopen as Beto", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] [data-hp] output`)))
	do(t, ctx, "three taps on −",
		chromedp.Click(chromedp.CSS(`[data-hp] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-hp] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-hp] [data-hd="-1"]`)))
	w.waitSent(webGroup, `📱 Beto: /pj @Lyra pv -3\n❤️ Lyra: pv 12 → 9 / 12`)
	waitJS(t, ctx, "9 / 12 on the page", `(function(){var o=document.querySelector('[data-hp] output');return o&&o.textContent==='9'&&document.querySelector('#toast').textContent.indexOf('12 → 9')>=0})()`)
	if v, _ := w.sheetValue(webGroup, "Lyra", "pv"); v != "9/12" {
		t.Fatalf("pv stored as %q, want 9/12", v)
	}
	// A condition for 2 rounds, as a chip; then another, removed.
	do(t, ctx, "poisoned for 2 rounds",
		chromedp.SetValue(chromedp.CSS(`form.addcond input[name="name"]`), "envenenado"),
		chromedp.SetValue(chromedp.CSS(`form.addcond input[name="rounds"]`), "2"),
		chromedp.Click(chromedp.CSS(`form.addcond button`)),
		chromedp.WaitVisible(chromedp.CSS(`.chip [data-cond="envenenado"]`)))
	w.waitSent(webGroup, `📱 Beto: /pj @Lyra estado \+envenenado 2`)
	if got := flat(t, ctx, `.chips`); !strings.Contains(got, "envenenado (2)") {
		t.Errorf("chips %q, want envenenado (2)", got)
	}
	time.Sleep(allowance)
	do(t, ctx, "stunned",
		chromedp.SetValue(chromedp.CSS(`form.addcond input[name="name"]`), "aturdido"),
		chromedp.Click(chromedp.CSS(`form.addcond button`)),
		chromedp.WaitVisible(chromedp.CSS(`.chip [data-cond="aturdido"]`)))
	shot(t, ctx, dir, "sheets-hp-es")
	time.Sleep(allowance)
	do(t, ctx, "remove stunned", chromedp.Click(chromedp.CSS(`.chip [data-cond="aturdido"]`)))
	waitJS(t, ctx, "the chip gone", `!document.querySelector('.chip [data-cond="aturdido"]') && document.querySelector('#toast').textContent.length>0`)
	if v, _ := w.sheetValue(webGroup, "Lyra", "estado"); v != "envenenado (2)" {
		t.Fatalf("estado stored as %q, want envenenado (2)", v)
	}

	// 2. Ana, a GM, runs the turn order: adds an orc, passes the turn twice.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "open as Ana", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`form.addfoe`)))
	do(t, ctx, "add an orc",
		chromedp.SetValue(chromedp.CSS(`form.addfoe input[name="name"]`), "Orco"),
		chromedp.SetValue(chromedp.CSS(`form.addfoe input[name="init"]`), "11"),
		chromedp.SetValue(chromedp.CSS(`form.addfoe input[name="hp"]`), "15"),
		chromedp.Click(chromedp.CSS(`form.addfoe button`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"]`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa añadir "Orco" 11 hp 15`)
	if got := flat(t, ctx, `.fighter[data-name="Orco"]`); !strings.Contains(got, "15/15") {
		t.Errorf("the GM sees the orc as %q, want its 15/15", got)
	}
	// The orc's hit points are the GM's: five taps on −, one /init hp.
	do(t, ctx, "the orc hurt",
		chromedp.Click(chromedp.CSS(`[data-npc="Orco"] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-npc="Orco"] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-npc="Orco"] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-npc="Orco"] [data-hd="-1"]`)),
		chromedp.Click(chromedp.CSS(`[data-npc="Orco"] [data-hd="-1"]`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa pv "Orco" -5`)
	waitJS(t, ctx, "10/15 for the GM", `(document.querySelector('.fighter[data-name="Orco"]')||{textContent:''}).textContent.indexOf('10/15')>=0`)
	do(t, ctx, "next", chromedp.Click(chromedp.CSS(`#next`)))
	waitJS(t, ctx, "Lyra's turn", `!!document.querySelector('.fighter.current[data-name="Lyra"]')`)
	w.waitSent(webGroup, `📱 Ana: /iniciativa siguiente`)
	if got := text(t, ctx, `h1`); !strings.Contains(got, "Asalto 1") {
		t.Errorf("title %q, want Asalto 1", got)
	}
	do(t, ctx, "next again", chromedp.Click(chromedp.CSS(`#next`)))
	waitJS(t, ctx, "the orc's turn", `!!document.querySelector('.fighter.current[data-name="Orco"]')`)
	shot(t, ctx, dir, "order-gm-es")

	// On the orc's turn Beto has no ▶ to press (issue 36: it was there,
	// and the core refused it).
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's turn order", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"]`)))
	if n := count(t, ctx, `#next`); n != 0 {
		t.Errorf("Beto is offered ▶ on the orc's turn")
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('form.addfoe, .end, .remove').length`)); n != 0 {
		t.Errorf("a player sees %d of the GM's controls", n)
	}
	if got := flat(t, ctx, `.fighter[data-name="Orco"]`); strings.Contains(got, "15") || strings.Contains(got, "10") || strings.Contains(got, "−") {
		t.Errorf("a player sees the orc's hit points: %q", got)
	}
	// Her poison counted down at the end of her turn.
	if got := flat(t, ctx, `.fighter[data-name="Lyra"]`); !strings.Contains(got, "9/12") || !strings.Contains(got, "envenenado (1)") {
		t.Errorf("Lyra in the order: %q, want 9/12 and envenenado (1)", got)
	}
	shot(t, ctx, dir, "order-player-es")
	// The GM passes the turn in the chat: Beto's page follows by itself.
	w.tg.Say(webGroup, webAna, "Ana", "es", "/init siguiente")
	w.waitSent(webGroup, `Asalto 2`)
	waitJS(t, ctx, "Lyra's turn on Beto's page", `!!document.querySelector('.fighter.current[data-name="Lyra"]') && document.querySelector('h1').textContent.indexOf('Asalto 2')>=0`)
	waitJS(t, ctx, "▶ for Beto on his character's turn", `!!document.querySelector('#next')`)

	// 3. Tables: Ana writes one as a list of rows, then edits it.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	time.Sleep(allowance)
	do(t, ctx, "tables", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="tables"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="tables"]`)))
	do(t, ctx, "new table",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form[data-new]').closest('details').open=true`),
		chromedp.SetValue(chromedp.CSS(`form[data-new] input[name="name"]`), "Botín"),
		chromedp.SetValue(chromedp.CSS(`form[data-new] textarea`), "oro\nplata\ncobre"),
		chromedp.Click(chromedp.CSS(`form[data-new] button`)),
		chromedp.WaitVisible(chromedp.CSS(`article[data-table="Botín"]`)))
	time.Sleep(allowance)
	do(t, ctx, "edit its rows",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form[data-name="Botín"]').closest('details').open=true; document.querySelector('#toast').textContent=''`),
		chromedp.SetValue(chromedp.CSS(`form[data-name="Botín"] textarea`), "oro\nplata\ncobre\ngemas"),
		chromedp.Click(chromedp.CSS(`form[data-name="Botín"] button`)))
	waitJS(t, ctx, "the table replaced", `document.querySelector('#toast').textContent.indexOf('Botín')>=0`)
	if got := flat(t, ctx, `#toast`); !strings.Contains(got, "1d4") {
		t.Errorf("the edit answered %q", got)
	}
	tb, err := w.db.Table(context.Background(), chat, fold.Key("Botín"))
	if err != nil || len(tb.Rows) != 4 || tb.Rows[3].Text != "gemas" || tb.Dice.String() != "1d4" {
		t.Fatalf("the table after the edit: %+v %v", tb, err)
	}
	time.Sleep(allowance)
	do(t, ctx, "roll it", chromedp.Evaluate[chromedp.Void](`document.querySelector('#toast').textContent=''`),
		chromedp.Click(chromedp.CSS(`.rolltable[data-name="Botín"]`)))
	waitJS(t, ctx, "the roll on the page", `document.querySelector('#toast').textContent.indexOf('1d4')>=0`)
	m := w.waitSent(webGroup, `📱 Ana: /tabla Botín`)
	page := text(t, ctx, `#toast`)
	found := false
	for _, r := range []string{"oro", "plata", "cobre", "gemas"} {
		if strings.Contains(page, r) && strings.Contains(m.Visible, r) {
			found = true
		}
	}
	if !found {
		t.Errorf("the page shows %q, the chat got %q", page, m.Visible)
	}
	time.Sleep(allowance)
	do(t, ctx, "draw a tarot card", chromedp.Click(chromedp.CSS(`.draw[data-name="tarot"]`)))
	w.waitSent(webGroup, `📱 Ana: /mazo robar tarot`)
	waitJS(t, ctx, "77 cards left", `document.querySelector('.deck[data-deck="Tarot"]').textContent.indexOf('77')>=0`)
	shot(t, ctx, dir, "tables-es")

	// 4. Beto deletes Lyra and undoes it, as /pj deshacer.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's sheets", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"]`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('article[data-char="Lyra"] details').open=true`),
		chromedp.Click(chromedp.CSS(`article[data-char="Lyra"] .delete`)),
		chromedp.Click(chromedp.CSS(`article[data-char="Lyra"] .delete`)),
		chromedp.WaitVisible(chromedp.CSS(`.undo`)))
	if _, ok := w.sheetValue(webGroup, "Lyra", "pv"); ok {
		t.Fatal("Lyra still there after the delete")
	}
	shot(t, ctx, dir, "sheets-undo-es")
	time.Sleep(allowance)
	do(t, ctx, "undo", chromedp.Click(chromedp.CSS(`.undo`)), chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] [data-hp]`)))
	if v, _ := w.sheetValue(webGroup, "Lyra", "pv"); v != "9/12" {
		t.Fatalf("Lyra's pv after the undo: %q, want 9/12", v)
	}

	// The chat in Greek: the same screens.
	time.Sleep(allowance)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/idioma el")
	w.waitSent(webGroup, `(?i)ελληνικά`)
	do(t, ctx, "Greek sheets", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`article[data-char="Lyra"] [data-hp]`)))
	if got := text(t, ctx, `[data-hp] label`); !strings.Contains(got, "Ζωή") {
		t.Errorf("HP label %q in Greek", got)
	}
	shot(t, ctx, dir, "sheets-hp-el")
	do(t, ctx, "Greek order", chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`#next`)))
	if got := text(t, ctx, `#next`); !strings.Contains(got, "Επόμενη") {
		t.Errorf("next %q in Greek", got)
	}
	shot(t, ctx, dir, "order-el")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "Greek order, GM", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`form.addfoe`)))
	shot(t, ctx, dir, "order-gm-el")
	do(t, ctx, "Greek tables", chromedp.Click(chromedp.CSS(`[data-go="tables"]`)), chromedp.WaitVisible(chromedp.CSS(`.rolltable`)))
	if got := text(t, ctx, `[data-go="tables"]`); got != "Πίνακες" {
		t.Errorf("tab %q in Greek", got)
	}
	shot(t, ctx, dir, "tables-el")

	// At 360 px: nothing wider than the screen, every button ≥ 44 px.
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	for _, screen := range []string{"order", "tables", "sheets"} {
		do(t, ctx, screen, chromedp.Click(chromedp.CSS(`[data-go="`+screen+`"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) .screen[data-screen="`+screen+`"]`)))
		fit, err := phoneFit(ctx)
		if err != nil || fit != "" {
			t.Errorf("%s at 360 px: %q %v", screen, fit, err)
		}
	}
}

// flat is the text of sel as one line (textContent, spaces collapsed).
func flat(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var e=document.querySelector(`+strconv.Quote(sel)+`);return e?e.textContent.replace(/\s+/g,' ').trim():''})()`))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// TestWebBrowserFightTools plays the rest of the turn order at 390×844:
// Beto joins with his character in one tap (the chat's /init); Ana, an
// administrator (a GM), moves a goblin up, gives the orc a condition as
// a chip and takes it off, ends the fight and undoes the end. Each write
// is the chat's command, posted in the fake group. Then at 360 px with
// the GM's tools open, and in Greek. Screenshots go to the artifacts.
func TestWebBrowserFightTools(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	chat := core.ChatRef{Platform: "telegram", ID: strconv.FormatInt(webGroup, 10)}
	w.tg.Say(webGroup, webBeto, "Beto", "es", "/pj crear Lyra")
	w.waitSent(webGroup, `Lyra`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/init añadir Orco 11 pv 15")
	w.waitSent(webGroup, `Orco se une`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/init añadir Trasgo 9")
	w.waitSent(webGroup, `Trasgo se une`)
	stored := func() initiative.Order {
		t.Helper()
		o, err := w.db.Initiative(context.Background(), chat)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	place := func(name string) int { // from 1; 0 when absent
		t.Helper()
		for i, c := range stored().Combatants {
			if c.Name == name {
				return i + 1
			}
		}
		return 0
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// 1. Beto joins with Lyra: one tap, the chat's initiative rolled.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's turn order", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`form.join button`)))
	if got := text(t, ctx, `form.join button`); !strings.Contains(got, "Entrar con Lyra") {
		t.Errorf("the join button says %q", got)
	}
	if n := count(`details.tools, .move, .npcuncond, form.npccond`); n != 0 {
		t.Errorf("a player sees %d of the GM's tools", n)
	}
	do(t, ctx, "join", chromedp.Click(chromedp.CSS(`form.join button`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter.mine[data-name="Lyra"]`)))
	w.waitSent(webGroup, `📱 Beto: /iniciativa\n(?s:.*)⚔️ Lyra entra con iniciativa \d+`)
	waitJS(t, ctx, "no join form once in", `!document.querySelector('form.join') && document.querySelector('#toast').textContent.indexOf('Lyra entra')>=0`)
	lyra := stored().Combatants[place("Lyra")-1]
	if !lyra.Character || lyra.Owner != strconv.FormatInt(webBeto, 10) {
		t.Errorf("Lyra stored as %+v, want Beto's character", lyra)
	}
	if got := text(t, ctx, `.fighter[data-name="Lyra"] .init`); got != strconv.Itoa(lyra.Init) {
		t.Errorf("Lyra's initiative %q on the page, %d stored", got, lyra.Init)
	}
	shot(t, ctx, dir, "order-join-es")

	// 2. Ana moves the goblin one place up; its tools stay open.
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "Ana's turn order", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`form.addfoe`)))
	from := place("Trasgo")
	if from < 2 {
		t.Fatalf("the goblin at place %d, want below the orc", from)
	}
	to := strconv.Itoa(from - 1)
	do(t, ctx, "the goblin's tools", chromedp.Click(chromedp.CSS(`.fighter[data-name="Trasgo"] details.tools summary`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Trasgo"] .move[data-to="`+to+`"]`)))
	shot(t, ctx, dir, "order-tools-es")
	do(t, ctx, "up", chromedp.Click(chromedp.CSS(`.fighter[data-name="Trasgo"] .move[data-to="`+to+`"]`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa mover "Trasgo" `+to+`\n↕️ Trasgo pasa al puesto `+to)
	waitJS(t, ctx, "the goblin moved, its tools open", `(function(){var f=document.querySelectorAll('.fighter')[`+strconv.Itoa(from-2)+`];
  return !!f && f.dataset.name==='Trasgo' && f.querySelector('details.tools').open})()`)
	if got := place("Trasgo"); got != from-1 {
		t.Errorf("the goblin stored at place %d, want %d", got, from-1)
	}

	// 3. A condition on the orc as a chip, then taken off.
	time.Sleep(allowance)
	do(t, ctx, "the orc's tools", chromedp.Click(chromedp.CSS(`.fighter[data-name="Orco"] details.tools summary`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond`)),
		chromedp.SetValue(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond input[name="name"]`), "aturdido"),
		chromedp.SetValue(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond input[name="rounds"]`), "2"),
		chromedp.Click(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond button`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"] .chip [data-cond="aturdido"]`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa estado "Orco" \+aturdido 2`)
	if got := flat(t, ctx, `.fighter[data-name="Orco"] .who`); !strings.Contains(got, "aturdido (2)") {
		t.Errorf("the orc shows %q, want the chip aturdido (2)", got)
	}
	if cs := stored().Combatants[place("Orco")-1].Conditions; len(cs) != 1 || cs[0] != (initiative.Condition{Name: "aturdido", Rounds: 2}) {
		t.Errorf("the orc's stored conditions: %+v", cs)
	}
	shot(t, ctx, dir, "order-chip-es")
	time.Sleep(allowance)
	do(t, ctx, "take it off", chromedp.Click(chromedp.CSS(`.fighter[data-name="Orco"] .npcuncond[data-cond="aturdido"]`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa estado "Orco" -aturdido`)
	waitJS(t, ctx, "the chip gone", `!document.querySelector('.fighter[data-name="Orco"] .chip')`)
	if cs := stored().Combatants[place("Orco")-1].Conditions; len(cs) != 0 {
		t.Errorf("the orc's stored conditions after the removal: %+v", cs)
	}

	// 4. The end, shown with its undo; the undo reopens the same fight.
	time.Sleep(allowance)
	before := stored()
	do(t, ctx, "end", chromedp.Click(chromedp.CSS(`.end`)), chromedp.Click(chromedp.CSS(`.end`)),
		chromedp.WaitVisible(chromedp.CSS(`.reopen`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa fin`)
	if got := text(t, ctx, `.ended`); !strings.Contains(got, "El combate ha terminado.") || !strings.Contains(got, "15 min") {
		t.Errorf("the ended screen says %q", got)
	}
	if n := count(`[data-go="order"][aria-current="page"]`); n != 1 {
		t.Errorf("the order tab is not the current one after the end (%d)", n)
	}
	if stored().Open {
		t.Fatal("the fight still open after the end")
	}
	shot(t, ctx, dir, "order-ended-es")
	time.Sleep(allowance)
	do(t, ctx, "undo", chromedp.Click(chromedp.CSS(`.reopen`)), chromedp.WaitVisible(chromedp.CSS(`#next`)))
	w.waitSent(webGroup, `📱 Ana: /iniciativa deshacer\n↩️ El combate sigue donde estaba`)
	waitJS(t, ctx, "the reply on the page", `document.querySelector('#toast').textContent.indexOf('sigue donde estaba')>=0`)
	if after := stored(); !after.Open || len(after.Combatants) != len(before.Combatants) || after.Round != before.Round {
		t.Errorf("after the undo: %+v, before the end: %+v", after, before)
	}
	if n := count(`.fighter`); n != 3 {
		t.Errorf("%d combatants on the page after the undo, want 3", n)
	}

	// At 360 px with the GM's tools open: nothing wider, every button ≥ 44 px.
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details.tools').forEach(function(d){d.open=true})`),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond`)))
	fit, err := phoneFit(ctx)
	if err != nil || fit != "" {
		t.Errorf("the order with its tools at 360 px: %q %v", fit, err)
	}
	shot(t, ctx, dir, "order-tools-360-es")

	// In Greek: the same tools, in the chat's language.
	time.Sleep(allowance)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/idioma el")
	w.waitSent(webGroup, `(?i)ελληνικά`)
	do(t, ctx, "Greek order", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="order"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="order"]`)), chromedp.WaitVisible(chromedp.CSS(`form.addfoe`)),
		chromedp.Click(chromedp.CSS(`.fighter[data-name="Orco"] details.tools summary`)),
		chromedp.WaitVisible(chromedp.CSS(`.fighter[data-name="Orco"] form.npccond`)))
	if got := text(t, ctx, `.fighter[data-name="Orco"] details.tools summary`); !strings.Contains(got, "Μετακίνηση και καταστάσεις") {
		t.Errorf("the orc's tools in Greek: %q", got)
	}
	shot(t, ctx, dir, "order-tools-el")
}
