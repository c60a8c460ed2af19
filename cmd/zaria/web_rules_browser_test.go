package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"zaria/core"
)

// TestWebBrowserRules: the rules screen in Chromium, in Spanish then in
// Greek. Ana, an admin, copied RQ in the chat; on the page she moves the
// fumble range with +, sees the odds it would move before saving (the
// chat's /sistema probar), saves it (/sistema editar), and the fork is
// stored as the chat's command stores it; she renames the fumble in
// Greek. Beto, a player, sees what
// differs from the book and no control.
func TestWebBrowserRules(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/sistema copiar rq")
	w.waitSent(webGroup, `copia de RQ`)
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	num := `.ruleset[data-system="rq"] .rulenum[data-name="fumble_from"] `
	open := func(what string) {
		t.Helper()
		do(t, ctx, what, chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="rules"]`)),
			chromedp.Click(chromedp.CSS(`[data-go="rules"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) .ruleset[data-system="rq"]`)))
	}
	tap := func(d string, n int) {
		t.Helper()
		for range n {
			do(t, ctx, "tap "+d, chromedp.Click(chromedp.CSS(num+`.ruleadj[data-d="`+d+`"]`)))
		}
	}
	stored := func(want string) {
		t.Helper()
		fs, err := w.db.Forks(context.Background(), core.ChatRef{Platform: "telegram", ID: "-100123"})
		if err != nil || len(fs) != 1 || len(fs[0].Changes) < 1 || fs[0].Changes[0].Value != want {
			t.Fatalf("the fork stored: %+v %v, want fumble_from %s", fs, err, want)
		}
	}

	open("rules in Spanish")
	if got := text(t, ctx, `.ruleset[data-system="rq"]`); !strings.Contains(got, "Como el libro") || !strings.Contains(got, "pifia") {
		t.Fatalf("the fork before a change: %q", got)
	}
	// From the book's 0 to 95: the last + taps, one by one, as a thumb
	// would after a long press on the field.
	waitJS(t, ctx, "set 93", `(function(){var b=document.querySelector('`+num+`.ruleadj[data-d="1"]');for(var i=0;i<93;i++)b.click();return true})()`)
	tap("1", 2)
	waitJS(t, ctx, "the odds before saving", `document.querySelector('`+num+`.rulepreview').textContent.indexOf('Pifia 6 % en vez de 2 %')>=0`)
	if got := text(t, ctx, num+`.rulepreview`); !strings.Contains(got, "no se ha guardado") {
		t.Errorf("the preview: %q", got)
	}
	fs, _ := w.db.Forks(context.Background(), core.ChatRef{Platform: "telegram", ID: "-100123"})
	if len(fs) != 1 || len(fs[0].Changes) != 0 {
		t.Fatalf("the preview saved: %+v", fs)
	}
	shot(t, ctx, dir, "rules-es")
	do(t, ctx, "save", chromedp.Click(chromedp.CSS(num+`.rulesave`)))
	waitJS(t, ctx, "saved", `document.querySelector('#toast').textContent.indexOf('pifia: la del libro → 95')>=0`)
	waitJS(t, ctx, "the changes listed", `document.querySelector('.ruleset[data-system="rq"] .changes').textContent.indexOf('pifia: la del libro → 95')>=0`)
	stored("95")

	// In Greek: the same fork, five taps of − to 90.
	time.Sleep(2100 * time.Millisecond) // Ana's allowance: 5 at once, then one each 2 s
	w.tg.Say(webGroup, webAna, "Ana", "el", "/lang el")
	w.waitSent(webGroup, `Ελληνικά|ελληνικά`)
	open("rules in Greek")
	if got := text(t, ctx, `.ruleset[data-system="rq"] .changes`); !strings.Contains(got, "γκάφα: του βιβλίου → 95") {
		t.Fatalf("the changes in Greek: %q", got)
	}
	tap("-1", 5)
	waitJS(t, ctx, "the odds in Greek", `document.querySelector('`+num+`.rulepreview').textContent.indexOf('Γκάφα 11 % αντί για 6 %')>=0`)
	shot(t, ctx, dir, "rules-el")
	time.Sleep(2100 * time.Millisecond)
	do(t, ctx, "save in Greek", chromedp.Click(chromedp.CSS(num+`.rulesave`)))
	waitJS(t, ctx, "saved in Greek", `document.querySelector('.ruleset[data-system="rq"] .changes').textContent.indexOf('γκάφα: του βιβλίου → 90')>=0`)
	stored("90")
	// The fumble's name, in Greek: the outcomes' fold, a field and Save.
	time.Sleep(2100 * time.Millisecond)
	name := `.ruleset[data-system="rq"] form.rulename[data-name="fumble"] `
	do(t, ctx, "rename the fumble",
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('.ruleset details.more').forEach(function(d){d.open=true})`),
		chromedp.SetValue(chromedp.CSS(name+`input[name="name"]`), "Καταστροφή"),
		chromedp.Click(chromedp.CSS(name+`button`)))
	waitJS(t, ctx, "renamed", `document.querySelector('.ruleset[data-system="rq"] .changes').textContent.indexOf('Γκάφα → Καταστροφή')>=0`)

	// Beto: the rules in words, no control.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	open("Beto's rules")
	if n := count(t, ctx, `.ruleset button, .ruleset output`); n != 0 || !strings.Contains(text(t, ctx, `.ruleset .changes`), "→ 90") {
		t.Errorf("Beto sees %d controls: %q", n, text(t, ctx, `.ruleset`))
	}
}
