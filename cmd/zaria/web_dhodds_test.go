package main

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"zaria/core/command"
)

// The dice screen's odds before a Dungeon Hack attack are the core's
// /odds dh, asked as the page asks them (op "odds", system "dh", weapon
// and armour): the attack and the chance of damage above the
// penetration, 35/1728 for a long sword against a breastplate
// (docs/dungeonhack.md#exact-chances), in the chat's language; nothing is
// posted in the chat. TestWebBrowserMiniApp sees the same on the page.
func TestWebDHAttackOdds(t *testing.T) {
	w := newWebTable(t)
	tok := w.chatToken(webGroup, webAna, "Ana")
	ana := "tma " + w.initDataFor(webAna, "Ana", tok, time.Now())
	before := len(w.tg.SentTo(webGroup))
	code, a := w.do(ana, tok, map[string]any{"op": "odds", "form": "dh.attack", "fields": map[string]string{"weapon": "espada-larga", "armour": "coraza"}})
	want := []string{"📊 dh ataque espada-larga vs coraza", "🎲 Espada larga 1d8 (pen 1) vs coraza 3 DB d6",
		"🎯 daño por encima de la penetración: " + command.Percent("es", big.NewRat(35, 1728))}
	if code != 200 || a.Error || a.Posted || a.text() != strings.Join(want, "\n") {
		t.Fatalf("odds of an attack: %d %+v\n%s\nwant\n%s", code, a, a.text(), strings.Join(want, "\n"))
	}
	time.Sleep(afterPage) // Ana's allowance, as the chat dates her message
	w.tg.Say(webGroup, webAna, "Ana", "es", "/idioma el")
	w.waitSent(webGroup, `(?i)ελληνικά`)
	time.Sleep(2100 * time.Millisecond)
	code, a = w.do(ana, tok, map[string]any{"op": "odds", "form": "dh.attack", "fields": map[string]string{"weapon": "μακρύ-σπαθί", "armour": "θώρακας"}})
	if code != 200 || a.Error || !strings.Contains(a.text(), "📊 dh επίθεση μακρύ-σπαθί vs θώρακας") || !strings.Contains(a.text(), "Μακρύ σπαθί 1d8 (διάτρηση 1) · άμυνα: θώρακας 3 ΖΘ d6") ||
		!strings.Contains(a.text(), "🎯 ζημιά πάνω από τη διάτρηση: "+command.Percent("el", big.NewRat(35, 1728))) {
		t.Fatalf("odds of an attack in Greek: %d %+v\n%s", code, a, a.text())
	}
	// A weapon the form does not offer is refused: the page sends only
	// the core's weapons (issue 33: the form checks each value).
	time.Sleep(2100 * time.Millisecond)
	if code, a = w.do(ana, tok, map[string]any{"op": "odds", "form": "dh.attack", "fields": map[string]string{"weapon": "bazuca", "armour": "θώρακας"}}); code != 400 || strings.Contains(a.text(), "%") {
		t.Errorf("odds of an unknown weapon: %d %+v", code, a)
	}
	for _, m := range w.tg.SentTo(webGroup)[before:] {
		if strings.Contains(m.Visible, "dh") || strings.Contains(m.Visible, "%") {
			t.Errorf("the odds were posted in the chat: %q", m.Visible)
		}
	}
}
