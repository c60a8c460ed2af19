package main

import (
	"context"
	"fmt"
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

// TestWebBrowserRulesTable: a table's cell on the rules screen, at 360
// px, in Spanish then in Greek. Ana copied Daegon in the chat; on the
// page she picks the row and the column of the percentage table (NH 7,
// difficulty 3: 58), moves it with + to 60, sees the odds it moves
// before saving, saves it, and the chat's /daegon rolls against 60. In
// Greek she takes it to 55 and a cell to impossible; a house rule's
// choice shows its odds too. Beto, a player, sees the changes in words.
func TestWebBrowserRulesTable(t *testing.T) {
	ctx := phone(t)
	dir := artifacts(t)
	w := newWebTable(t)
	w.tg.SetAdmins(webGroup, webAna)
	w.tg.Say(webGroup, webAna, "Ana", "es", "/sistema copiar daegon")
	w.waitSent(webGroup, `copia de Daegon`)
	tok := w.chatToken(webGroup, webAna, "Ana")
	w.setInitData(w.initDataFor(webAna, "Ana", tok, time.Now()))
	do(t, ctx, "360 px", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	cell := `.ruleset[data-system="daegon"] .rulecell[data-name="pct"] `
	open := func(what, sel string) {
		t.Helper()
		do(t, ctx, what, chromedp.Navigate(w.launch("android")), chromedp.WaitVisible(chromedp.CSS(`[data-go="rules"]`)),
			chromedp.Click(chromedp.CSS(`[data-go="rules"]`)), chromedp.WaitVisible(chromedp.CSS(`#screen:not([aria-busy]) `+sel)))
	}
	pick := func(row, col int) {
		t.Helper()
		waitJS(t, ctx, "pick a cell", fmt.Sprintf(`(function(){var c=document.querySelector('%s');var r=c.querySelector('.cellrow'),k=c.querySelector('.cellcol');r.value='%d';k.value='%d';k.dispatchEvent(new Event('change',{bubbles:true}));return true})()`, cell, row, col))
	}
	tap := func(d string, n int) {
		t.Helper()
		for range n {
			do(t, ctx, "tap "+d, chromedp.Click(chromedp.CSS(cell+`.ruleadj[data-d="`+d+`"]`)))
		}
	}
	stored := func(want ...string) {
		t.Helper()
		fs, err := w.db.Forks(context.Background(), core.ChatRef{Platform: "telegram", ID: "-100123"})
		var got []string
		if err == nil && len(fs) == 1 {
			for _, c := range fs[0].Changes {
				got = append(got, fmt.Sprintf("%s %s %d·%d %s", c.Kind, c.Key, c.Row, c.Col, c.Value))
			}
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Fatalf("the fork stored: %q %v, want %q", got, err, want)
		}
	}

	open("rules in Spanish", cell)
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("the rules screen at 360 px: %q %v", fit, err)
	}
	pick(7, 3)
	if got := text(t, ctx, cell+`output`); got != "58" {
		t.Fatalf("the cell NH 7, difficulty 3: %q, want the book's 58", got)
	}
	tap("1", 2)
	waitJS(t, ctx, "the odds before saving", `document.querySelector('`+cell+`.rulepreview').textContent.indexOf('NH 7, dificultad 3: Éxito 60 % en vez de 58 %')>=0`)
	if got := text(t, ctx, cell+`.rulepreview`); !strings.Contains(got, "no se ha guardado. Para guardarlo: /sistema editar daegon tabla pct 7 3 60") {
		t.Errorf("the preview: %q", got)
	}
	stored()
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("the rules screen at 360 px with a preview: %q %v", fit, err)
	}
	shot(t, ctx, dir, "rules-cell-360-es")
	do(t, ctx, "save", chromedp.Click(chromedp.CSS(cell+`.rulesave`)))
	waitJS(t, ctx, "the changes listed", `(document.querySelector('.ruleset[data-system="daegon"] .changes')||{textContent:''}).textContent.indexOf('tabla pct 7·3: 58 → 60')>=0`)
	stored("cell pct 7·3 60")
	// Read again, the page stays on the cell picked, now the chat's.
	if got := text(t, ctx, cell+`output`); got != "60" || count(t, ctx, cell+`output.pending`) != 0 {
		t.Errorf("the cell after saving: %q", got)
	}
	w.tg.Say(webGroup, webAna, "Ana", "es", "/daegon 7 d3")
	w.waitSent(webGroup, `(?s)NH 7 .*· D3 .*60 %`)

	// A house rule's choice: its odds before saving, nothing saved.
	time.Sleep(2100 * time.Millisecond) // Ana's allowance: 5 at once, then one each 2 s
	house := `.ruleset[data-system="daegon"] .rulehouse[data-name="daegon_00"] `
	waitJS(t, ctx, "choose 00 = 0", `(function(){var s=document.querySelector('`+house+`select');s.value='cero';s.dispatchEvent(new Event('change',{bubbles:true}));return true})()`)
	waitJS(t, ctx, "the house rule's odds", `document.querySelector('`+house+`.rulepreview').textContent.indexOf('Éxito 81 % en vez de 80 %')>=0`)
	stored("cell pct 7·3 60")

	// In Greek: 60 to 55, and NH 8, difficulty 7 from 5 to impossible.
	time.Sleep(2100 * time.Millisecond)
	w.tg.Say(webGroup, webAna, "Ana", "el", "/lang el")
	w.waitSent(webGroup, `Ελληνικά|ελληνικά`)
	open("rules in Greek", cell)
	if got := text(t, ctx, `.ruleset[data-system="daegon"] .changes`); !strings.Contains(got, "πίνακας pct 7·3: 58 → 60") {
		t.Fatalf("the changes in Greek: %q", got)
	}
	if fit, err := phoneFit(ctx); err != nil || fit != "" {
		t.Errorf("the rules screen in Greek at 360 px: %q %v", fit, err)
	}
	pick(7, 3)
	tap("-1", 5)
	waitJS(t, ctx, "the odds in Greek", `document.querySelector('`+cell+`.rulepreview').textContent.indexOf('ΕΔ 7, δυσκολία 3: Επιτυχία 55 % αντί για 60 %')>=0`)
	if got := text(t, ctx, cell+`.rulepreview`); !strings.Contains(got, "/system αλλαγή daegon πίνακας pct 7 3 55") {
		t.Errorf("the preview in Greek: %q", got)
	}
	shot(t, ctx, dir, "rules-cell-360-el")
	time.Sleep(2100 * time.Millisecond)
	do(t, ctx, "save in Greek", chromedp.Click(chromedp.CSS(cell+`.rulesave`)))
	waitJS(t, ctx, "saved in Greek", `(document.querySelector('.ruleset[data-system="daegon"] .changes')||{textContent:''}).textContent.indexOf('πίνακας pct 7·3: 58 → 55')>=0`)
	stored("cell pct 7·3 55")
	w.tg.Say(webGroup, webAna, "Ana", "el", "/daegon 7 d3")
	w.waitSent(webGroup, `(?s)δεξιότητα 7 .*· D3 .*55 %`)
	time.Sleep(2100 * time.Millisecond)
	pick(8, 7)
	tap("-1", 6)
	if got := text(t, ctx, cell+`output`); got != "αδύνατο" {
		t.Fatalf("NH 8, difficulty 7 after six taps of − from 5: %q, want αδύνατο", got)
	}
	waitJS(t, ctx, "impossible's odds", `document.querySelector('`+cell+`.rulepreview').textContent.indexOf('ΕΔ 8, δυσκολία 7: Επιτυχία 0 % αντί για 5 %')>=0`)
	time.Sleep(2100 * time.Millisecond)
	do(t, ctx, "save impossible", chromedp.Click(chromedp.CSS(cell+`.rulesave`)))
	waitJS(t, ctx, "impossible saved", `(document.querySelector('.ruleset[data-system="daegon"] .changes')||{textContent:''}).textContent.indexOf('πίνακας pct 8·7: 5 → -')>=0`)
	stored("cell pct 7·3 55", "cell pct 8·7 -")

	// Beto: the rules in words, no control.
	w.setInitData(w.initDataFor(webBeto, "Beto", tok, time.Now()))
	open("Beto's rules", `.ruleset[data-system="daegon"]`)
	if n := count(t, ctx, `.ruleset button, .ruleset output, .ruleset select`); n != 0 || !strings.Contains(text(t, ctx, `.ruleset .changes`), "7·3: 58 → 55") {
		t.Errorf("Beto sees %d controls: %q", n, text(t, ctx, `.ruleset`))
	}
}
