package systems_test

import (
	"strings"
	"testing"
)

// A minus sign typed in front of a count is refused, never dropped: "-2"
// broken DB are not 2 to repair (the sheet's armour would be written as
// repaired), "-3s" are not three Heartless dice.
func TestTypedMinusIsNeverDropped(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh repara coraza -2", errHas: "DB rotos: de 1 a 10; has puesto −2"},
		{lang: "en", text: "/dh repair breastplate −1", errHas: "you wrote −1"},
		{lang: "es", text: "/kh 5 -3s", errHas: "se añaden, no se quitan: «-3s» no vale. Escribe cuántos, p. ej. /kh 6 +2s +1i cd17"},
		{lang: "el", text: "/kh 5 −1i dc12", errHas: "δεν αφαιρούνται"},
		{lang: "en", text: "/kh 5 2s -1i", errHas: "never taken away: “-1i”"},
		// Still read: the positive forms.
		{lang: "es", text: "/dh repara coraza 2", dice: []int{5, 5}, bold: "2 reparados", outcome: "success", total: ip(3)},
		{lang: "es", text: "/kh 5 +1s 1i dc10", dice: []int{4, 2, 3}, outcome: "success", has: []string{"Sincorazón 2", "Incorpóreo 3"}},
	})
	// A specialty that says "-2s" on the sheet is refused the same way.
	sh := newSheets()
	sh.active["u1"] = "Sora"
	sh.chars["sora"] = map[string]string{"llave": "-2s"}
	b = newBot(t, sh)
	run(t, b, []expect{{lang: "es", text: "/kh 5 llave dc10", errHas: "«-2s» no vale"}})
}

// A typed usage die that is no die ("d0", a number too big to read) gets
// the usage die's message, not "<no item>: sin Resistencia".
func TestDHUsageDieTypedOutOfRange(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh uso d0", errHas: "El dado de uso es d4, d6, d8, d10, d12 o d20; has puesto d0."},
		{lang: "en", text: "/dh use d99999999999999999999", errHas: "you wrote d99999999999999999999"},
		{lang: "el", text: "/dh χρήση d0", errHas: "d0"},
	})
	for _, s := range []string{"/dh uso d0", "/dh uso d99999999999999999999"} {
		if got := text(b.roll("es", s)); strings.HasPrefix(got, "⚠️ :") || strings.Contains(got, "sin Resistencia") {
			t.Errorf("%s: %q", s, got)
		}
	}
}

// The smallest integer a sheet may hold is shown with one minus sign.
func TestSmallestSheetNumberHasOneMinus(t *testing.T) {
	sh := newSheets()
	sh.active["u1"] = "Drake"
	sh.chars["drake"] = map[string]string{"fuerza": "-9223372036854775808"}
	b := newBot(t, sh)
	run(t, b, []expect{
		{lang: "es", text: "/zaria fuerza dc15", errHas: "has puesto −9223372036854775808."},
		{lang: "en", text: "/rq fuerza", errHas: "you wrote −9223372036854775808."},
	})
	if got := text(b.roll("es", "/daegon fuerza d3")); strings.Contains(got, "−-") {
		t.Errorf("two minus signs: %q", got)
	}
}

// A word a system's command cannot read as its number and that cannot be a
// sheet value's name ("45%" for an RQ skill, a number too big) is said to
// be so, in the chat's language; the hint is never "/pj poner 45% VALOR",
// which /pj poner refuses.
func TestUnreadableWordInASystemRoll(t *testing.T) {
	b := newSheetBot(t)
	b.ok(ana, "/pj crear Enyra")
	for _, s := range []string{"/rq 45%", "/rq 45 vs 99999999999999999999", "/daegon 7 vs 99999999999999999999", "/zaria 4,2"} {
		out := b.fails(ana, s, "no es un número que sepa leer ni el nombre de un valor", "Escribe un número entero, p. ej. 4")
		hasNone(t, out, "pj poner", "pj set")
	}
	b.lang(chat, "el")
	b.fails(ana, "/rq 45%", "Το «45%» δεν είναι αριθμός")
}

// The name a roll is made for is shown as the reply's first word even
// when no sheet is read (plain numbers): it is cleaned like every name the
// bot shows, so a bidirectional override or a zero-width character typed
// in it never reaches the bot's line, and it is cut to a name's length.
func TestRollForANameShowsItClean(t *testing.T) {
	b := newBot(t, nil)
	for _, c := range []struct {
		text string
		dice []int
	}{
		{"/zaria @Ana\u202e\u200b 4+2 dc15", []int{1, 1}},
		{"/daegon Ana\u2066\u200d 7 d3", []int{1, 1}},
		{"/kh @Ana\u200f 5 dc10", []int{1}},
		{"/dh ataque @Ana\u202e 1d6", []int{1}},
	} {
		got := text(b.roll("es", c.text, c.dice...))
		if !strings.HasPrefix(got, "Ana: ") {
			t.Errorf("%q → %q", c.text, got)
		}
	}
	long := strings.Repeat("N", 300)
	got := text(b.roll("en", "/zaria "+long+" 4+2 dc15", 1, 1))
	if first, _, _ := strings.Cut(got, "\n"); len([]rune(first)) > 120 || !strings.HasPrefix(got, strings.Repeat("N", 31)+"…: ") {
		t.Errorf("a long name: %q", first)
	}
}

// A number too big to read in a Dungeon Hack word is out of range, never
// read as 0: "99999999999999999999db" was an armour of 0 DB, "+9…" a
// static absorption of 0, "pen-9…" no change, "n9…" "you wrote 0".
func TestDHNumbersTooBigAreRefused(t *testing.T) {
	b := newBot(t, nil)
	const big = "99999999999999999999"
	run(t, b, []expect{
		{lang: "en", text: "/dh attack 1d6 vs " + big + "db", errHas: "At most 10 DB; you wrote " + big + "db"},
		{lang: "en", text: "/dh attack 1d6 vs breastplate db+" + big, errHas: "At most 10 DB"},
		{lang: "en", text: "/dh attack 1d6 vs breastplate +" + big, errHas: "Fixed absorption goes from 0 to 20; you wrote +" + big},
		{lang: "es", text: "/dh ataque 1d6 pen-" + big, errHas: "La penetración va de 0 a 20; has puesto pen-" + big},
		{lang: "es", text: "/dh ataque 1d6 pen" + big, errHas: "La penetración va de 0 a 20"},
		{lang: "en", text: "/dh attack 1d6 n" + big, errHas: "The level goes from 1 to 100; you wrote n" + big},
		{lang: "en", text: "/dh attack 1d6 +" + big, errHas: "+" + big},
		{lang: "en", text: "/dh attack 1d6 vs absd" + big, errHas: "you wrote d" + big},
		{lang: "el", text: "/dh επίθεση 1d6 vs " + big + "db", errHas: big},
		// A DB die too long to read is named as typed (it was "d0").
		{lang: "en", text: "/dh attack 1d6 vs d" + big, errHas: "The DB die is d4, d6, d8, d10 or d12; you wrote d" + big + "."},
		{lang: "es", text: "/dh repara coraza 1 d" + big, errHas: "has puesto d" + big + "."},
	})
}

// The same in RQ's multiplier and KH's difficulty: the number as typed,
// not "you wrote 0".
func TestRQKHNumbersTooBigAreShownAsTyped(t *testing.T) {
	b := newBot(t, nil)
	const big = "99999999999999999999"
	run(t, b, []expect{
		{lang: "en", text: "/rq c14x" + big, errHas: "The multiplier goes from ×1 to ×10; you wrote ×" + big + "."},
		{lang: "en", text: "/kh 5 dc" + big, errHas: "The difficulty goes from 1 to 60; you wrote " + big + "."},
		{lang: "es", text: "/kh 5 dc-" + big, errHas: "has puesto -" + big},
	})
}

// A defender given two DB dice or two DB counts is refused: the second
// one silently replaced the first ("vs coraza d4 d6" rolled d6).
func TestDHDefenderGivenTwice(t *testing.T) {
	b := newBot(t, nil)
	run(t, b, []expect{
		{lang: "es", text: "/dh ataque espada-larga vs coraza d4 d6", errHas: "«d4» y «d6» dicen lo mismo dos veces: deja uno, p. ej. /dh ataque espada-larga vs coraza d6"},
		{lang: "en", text: "/dh attack longsword vs 3db 5db", errHas: "“3db” and “5db” say the same thing twice"},
		{lang: "el", text: "/dh επίθεση μακρύ-σπαθί εναντίον θώρακα d4 d8", errHas: "λένε το ίδιο δύο φορές"},
		// One of each is still read.
		{lang: "es", text: "/dh ataque espada-larga vs 3db d6", dice: []int{8, 1, 1, 1}, has: []string{"3 DB d6"}},
	})
}
