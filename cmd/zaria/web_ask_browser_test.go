package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserAsk: at 360 px, the GM asks the table for a roll in the
// chat; Beto's dice screen shows a button for his Lyra only, his tap
// rolls it and the chat's request message is edited with the result,
// which the page shows too. The GM's screen (her buttons, ⏹, the form)
// fits the phone, and her form asks a new one (/pedir in the chat).
func TestWebBrowserAsk(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.tg.Say(webGroup, webAna, "Ana", "es", "/pj crear Drake")
	w.waitSent(webGroup, `Drake`)
	w.tg.Say(webGroup, webBeto, "Beto", "es", "/pj crear Lyra")
	w.waitSent(webGroup, `Lyra`)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/pedir 1d20+3 vs 10")
	w.waitSent(webGroup, `⏳ Lyra`)

	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	do(t, ctx, "Beto's dice screen", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="dice"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="dice"]`)), chromedp.WaitVisible(chromedp.CSS(`.askroll`)))
	if got := flat(t, ctx, `.asks`); !strings.Contains(got, "Lyra") || strings.Contains(got, "⏹") {
		t.Errorf("Beto's requests read %q", got)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('.askroll').length`)); err != nil || n != 1 {
		t.Errorf("Beto sees %d buttons (%v), want Lyra's only", n, err)
	}
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("Beto's dice screen at 360 px: %q %v", fit, err)
	}
	shot(t, ctx, dir, "ask-player-360-es")
	do(t, ctx, "Beto taps Lyra", chromedp.Click(chromedp.CSS(`.askroll`)))
	waitJS(t, ctx, "the result on the page", `(document.querySelector('#result')||{textContent:''}).textContent.indexOf('Lyra:')>=0 && !document.querySelector('.askroll')`)
	if !waitEdit(w, webGroup, regexp.MustCompile(`[✅❌] Lyra: \d+`)) {
		t.Errorf("the chat's request message was not edited with Lyra's result: %+v", w.tg.Edits())
	}
	shot(t, ctx, dir, "ask-player-rolled-es")

	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "Ana's dice screen", chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="dice"]`)),
		chromedp.Click(chromedp.CSS(`[data-go="dice"]`)), chromedp.WaitVisible(chromedp.CSS(`.asks details summary`)),
		chromedp.Click(chromedp.CSS(`.asks details summary`)), chromedp.WaitVisible(chromedp.CSS(`form.asknew`)))
	if got := flat(t, ctx, `.asks`); !strings.Contains(got, "Drake") || strings.Contains(got, "🎲 Lyra") || !strings.Contains(got, "⏹") {
		t.Errorf("Ana's requests read %q, want Drake's button and ⏹", got)
	}
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("Ana's dice screen at 360 px: %q %v", fit, err)
	}
	shot(t, ctx, dir, "ask-gm-360-es")
	// Ana asks a new one from the page, for Drake only: /pedir in the chat.
	do(t, ctx, "Ana asks Drake",
		chromedp.SetValue(chromedp.CSS(`form.asknew input[name="check"]`), "1d20 vs 5"),
		chromedp.SetValue(chromedp.CSS(`form.asknew input[name="chars"]`), "Drake"),
		chromedp.Click(chromedp.CSS(`form.asknew button`)))
	m := w.waitSent(webGroup, `📣 #2 · Ana pide: /roll 1d20 vs 5\n1\. ⏳ Drake`)
	if strings.Contains(m.Visible, "Lyra") {
		t.Errorf("the request for Drake names Lyra: %q", m.Visible)
	}
	waitJS(t, ctx, "two requests on Ana's screen", `document.querySelectorAll('[data-ask]').length===2 && (document.querySelector('#result')||{textContent:''}).textContent.indexOf('#2')>=0`)
}
