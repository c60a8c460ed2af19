package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"zaria/core"
)

// TestWebBrowserPadEditor: Ana (an administrator) builds her pad on the
// page — adds two buttons, moves the second up, renames one, removes one
// with two taps — and adds a button to the chat's pad; each is the /pad
// command, stored as the chat would store it, and nothing is posted in
// the group. Beto sees the chat's pad without its controls and the
// chat's last rolls on the history screen.
func TestWebBrowserPadEditor(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	time.Sleep(2100 * time.Millisecond)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/roll 3d6+1")
	w.waitSent(webGroup, `3d6\+1`)
	before := len(w.tg.SentTo(webGroup))
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))

	do(t, ctx, "open", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="pad"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="pad"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) .padedit[data-scope=""] form.padadd`)))
	mine := `.padedit[data-scope=""] `
	add := func(label, cmd string) {
		t.Helper()
		n := count(t, ctx, mine+`.padbtn`)
		do(t, ctx, "add "+label,
			chromedp.SendKeys(chromedp.CSS(mine+`form.padadd input[name="name"]`), label),
			chromedp.SendKeys(chromedp.CSS(mine+`form.padadd input[name="command"]`), cmd),
			chromedp.Click(chromedp.CSS(mine+`form.padadd button`)))
		waitJS(t, ctx, label+" added", `document.querySelectorAll('`+mine+`.padbtn').length === `+itoa(n+1))
	}
	add("Ataque", "1d20+5")
	add("Daño", "/roll 2d6+3")
	labels := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('`+sel+` .padbtn input[name="name"]')).map(function(i){return i.value}).join('|')`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := labels(mine); got != "Ataque|Daño" {
		t.Fatalf("Ana's pad on the page: %q", got)
	}
	do(t, ctx, "move Daño up", chromedp.Click(chromedp.CSS(mine+`.padbtn:nth-child(2) .padmove[aria-label="Subir"]`)))
	waitJS(t, ctx, "Daño first", `document.querySelector('`+mine+`.padbtn input[name="name"]').value === 'Daño'`)
	time.Sleep(2100 * time.Millisecond) // her allowance: 5 at once, then one each 2 s
	do(t, ctx, "rename Ataque",
		chromedp.SetValue(chromedp.CSS(mine+`.padbtn:nth-child(2) input[name="name"]`), "Golpe"),
		chromedp.Click(chromedp.CSS(mine+`.padbtn:nth-child(2) form.padrename button`)))
	waitJS(t, ctx, "Golpe", `document.querySelector('`+mine+`.padbtn:nth-child(2) input[name="name"]').value === 'Golpe'`)
	shot(t, ctx, dir, "pad-es")
	time.Sleep(2100 * time.Millisecond)
	do(t, ctx, "remove Daño (armed)", chromedp.Click(chromedp.CSS(mine+`.padbtn:nth-child(1) .padremove`)))
	if n := count(t, ctx, mine+`.padbtn`); n != 2 {
		t.Fatalf("one tap removed a button: %d left", n)
	}
	do(t, ctx, "remove Daño", chromedp.Click(chromedp.CSS(mine+`.padbtn:nth-child(1) .padremove`)))
	waitJS(t, ctx, "Daño removed", `document.querySelectorAll('`+mine+`.padbtn').length === 1`)
	time.Sleep(2100 * time.Millisecond)
	chat := `.padedit[data-scope="chat"] `
	do(t, ctx, "the chat's pad",
		chromedp.SendKeys(chromedp.CSS(chat+`form.padadd input[name="name"]`), "Iniciativa"),
		chromedp.SendKeys(chromedp.CSS(chat+`form.padadd input[name="command"]`), "d20"),
		chromedp.Click(chromedp.CSS(chat+`form.padadd button`)))
	waitJS(t, ctx, "Iniciativa", `document.querySelectorAll('`+chat+`.padbtn').length === 1`)

	// Stored as the chat's /pad would store them.
	ref := core.ChatRef{Platform: "telegram", ID: "-100123"}
	bs, err := w.db.PadButtons(context.Background(), ref, "42")
	if err != nil || len(bs) != 1 || bs[0].Label != "Golpe" || bs[0].Command != "/roll 1d20+5" {
		t.Errorf("Ana's pad stored: %+v %v", bs, err)
	}
	cs, err := w.db.PadButtons(context.Background(), ref, "")
	if err != nil || len(cs) != 1 || cs[0].Label != "Iniciativa" || cs[0].Command != "/roll d20" {
		t.Errorf("the chat's pad stored: %+v %v", cs, err)
	}
	if after := len(w.tg.SentTo(webGroup)); after != before {
		t.Errorf("pad edits posted %d messages in the group", after-before)
	}

	// At 360 px, Ana's editor: nothing wider, every button ≥ 44 px.
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("the pad editor at 360 px: %q %v", fit, err)
	}
	shot(t, ctx, dir, "pad-360-es")

	// Beto: the chat's pad without controls; the history.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's pad", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="pad"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="pad"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) .padedit[data-scope="chat"] .padbtn`)))
	if n := count(t, ctx, chat+`form, `+chat+`button`); n != 0 || !strings.Contains(text(t, ctx, chat), "Iniciativa") {
		t.Errorf("Beto sees %d controls on the chat's pad: %q", n, text(t, ctx, chat))
	}
	do(t, ctx, "history", chromedp.Click(chromedp.CSS(`[data-go="history"]`)), chromedp.WaitVisible(chromedp.CSS(`#history p`)))
	if got := text(t, ctx, `#history`); !strings.Contains(got, "3d6+1") || !strings.Contains(got, "Ana") {
		t.Errorf("history on the page: %q", got)
	}
	shot(t, ctx, dir, "history-es")
}

func count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('`+sel+`').length`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
