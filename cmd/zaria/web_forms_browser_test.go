package main

import (
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"zaria/core/command"
)

// The Ζαριά check's form on the dice screen (core/systems.Forms, from
// the system's file): its attribute and skill, each a value of the
// character's sheet, and its DC.
const (
	zariaStat  = `.form[data-form="zaria.check"] [data-key="stat"] select.src`
	zariaSkill = `.form[data-form="zaria.check"] [data-key="skill"] select.src`
	zariaDC    = `.form[data-form="zaria.check"] [data-key="dc"] select`
)

// TestWebBrowserZariaCheck: issue 33, the page's forms come from the
// file. On a 360 px phone, Ana rolls a Ζαριά check of attribute + skill
// from her sheet without typing: two choices from her character's
// values, the DC at the file's «media» (15) unless she picks another,
// the exact odds before rolling, the chat getting /zaria
// fuerza+atletismo dc15; then the same in Greek with an easy DC.
func TestWebBrowserZariaCheck(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	for _, c := range []string{"/pj create Drake", "/pj set @Drake fuerza 4", "/pj set @Drake atletismo 2"} {
		w.tg.Say(webGroup, webAna, "Ana", "es", c)
	}
	w.waitSent(webGroup, `atletismo`)
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))

	for _, c := range []struct {
		lang, dc, dcLabel, sent string
		chance                  *big.Rat
	}{
		// 4 + 2 + the mean of 2d10 rounded down ≥ 15: 18 or more on the
		// two dice, 6 ways in 100 (10-10 an epic win).
		{"es", "", "media (15)", `📱 Ana: /zaria fuerza\+atletismo dc15`, big.NewRat(6, 100)},
		// ≥ 10: 8 or more on the dice, all but the 21 ways to 7 or less.
		{"el", "10", "Εύκολο (10)", `📱 Ana: /zaria fuerza\+atletismo dc10`, big.NewRat(79, 100)},
	} {
		if c.lang == "el" {
			time.Sleep(afterPage) // Ana's allowance, as the chat dates her message
			w.tg.Say(webGroup, webAna, "Ana", "es", "/idioma el")
			w.waitSent(webGroup, `(?i)ελληνικά`)
		}
		do(t, ctx, "open "+c.lang, chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`.screen[data-screen="sheets"]`)))
		do(t, ctx, "dice screen "+c.lang, chromedp.Click(chromedp.CSS(`[data-go="dice"]`)), chromedp.WaitVisible(chromedp.CSS(`#system`)))
		if lang, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.screen').dataset.lang`)); lang != c.lang {
			t.Fatalf("dice screen in %q, want %s", lang, c.lang)
		}
		time.Sleep(2100 * time.Millisecond) // Ana's allowance: the odds are a command
		choose(t, ctx, "the Ζαριά check "+c.lang, `#system`, "zaria.check")
		// The DC starts at the file's suggestion, «media», 15.
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var s=document.querySelector(`+strconv.Quote(zariaDC)+`);return s.value+' '+s.selectedOptions[0].textContent})()`)); got != "15 "+[]string{"media (15)", "Μέτριο (15)"}[map[string]int{"es": 0, "el": 1}[c.lang]] {
			t.Errorf("%s: the DC starts at %q, want 15 (media)", c.lang, got)
		}
		choose(t, ctx, "the attribute "+c.lang, zariaStat, "fuerza")
		choose(t, ctx, "the skill "+c.lang, zariaSkill, "atletismo")
		if c.dc != "" {
			choose(t, ctx, "the DC "+c.lang, zariaDC, c.dc)
		}
		if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(zariaDC)+`).selectedOptions[0].textContent`)); got != c.dcLabel {
			t.Errorf("%s: the DC shows %q, want %q", c.lang, got, c.dcLabel)
		}
		// The exact odds before rolling, the core's /odds.
		want := command.Percent(c.lang, c.chance)
		waitOdds(t, ctx, "the check's odds "+c.lang, "fuerza+atletismo")
		waitJS(t, ctx, "the chance "+want, `document.querySelector('#odds').textContent.indexOf(`+strconv.Quote(want)+`)>=0`)
		fit, err := phoneFit(ctx)
		if err != nil || fit != "" {
			t.Errorf("%s: the dice screen with the check at 360 px: %q %v", c.lang, fit, err)
		}
		shot(t, ctx, dir, "dice-zaria-360-"+c.lang)
		time.Sleep(2100 * time.Millisecond)
		do(t, ctx, "roll "+c.lang, chromedp.Click(chromedp.CSS(`#roll`)), chromedp.WaitVisible(chromedp.CSS(`#result p`)))
		m := w.waitSent(webGroup, c.sent)
		page := text(t, ctx, `#result`)
		// Drake's sheet read: his attribute and skill, named.
		if !strings.Contains(m.Visible, "fuerza 4 + atletismo 2 + ") || !strings.Contains(page, "fuerza 4 + atletismo 2 + ") || !strings.Contains(m.Visible, want) {
			t.Errorf("%s: the chat got %q, the page shows %q: not fuerza 4 + atletismo 2 at %s", c.lang, m.Visible, page, want)
		}
	}
	// Every check the core offers (every system file's, Dungeon Hack's
	// attack) fits 360 px and shows its exact odds from its defaults
	// (Daegon, Kingdom Hearts, Ζαριά, Dungeon Hack).
	keys, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#system option')).map(function(o){return o.value}).filter(Boolean)`))
	if err != nil || len(keys) < 5 {
		t.Fatalf("the checks offered: %v %v", keys, err)
	}
	for _, k := range keys {
		// Each choice may cost two of the user's allowance (the form's
		// odds, and its sheet values' read): one every 2 s, so 4.1 s
		// keeps eleven systems inside it.
		time.Sleep(4100 * time.Millisecond)
		waitJS(t, ctx, "clear the odds", `(document.querySelector('#odds').textContent='', true)`)
		choose(t, ctx, k, `#system`, k)
		// Every check's odds head with 📊; not all have a chance (Fate
		// without an opposition has only its ladder's distribution).
		waitOdds(t, ctx, k+"'s odds", "📊")
		if fit, err := phoneFit(ctx); err != nil || fit != "" {
			t.Errorf("%s at 360 px: %q %v", k, fit, err)
		}
		shot(t, ctx, dir, "dice-form-360-el-"+k)
	}
}
