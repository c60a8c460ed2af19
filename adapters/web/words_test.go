package web

import (
	"testing"

	"zaria/i18n"
)

// TestPageCommandsInTheChatsWords: issue 36. The page posted «📱 Ana:
// /init next» into a Spanish chat; it writes the chat's words: the
// command and its sub-command in Spanish, the sub-command in Greek (the
// command's Latin name stays: Telegram takes no other after «/»), and
// English as it was. What the user typed (names, values) is kept.
func TestPageCommandsInTheChatsWords(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, q, want string }{
		{"es", "/init next", "/iniciativa siguiente"},
		{"el", "/init next", "/init επόμενος"},
		{"en", "/init next", "/init next"},
		{"es", `/init move "Orco 2" 1`, `/iniciativa mover "Orco 2" 1`},
		{"es", "/init 14", "/iniciativa 14"},
		{"es", "/roll 1d20+2 ventaja", "/tirar 1d20+2 ventaja"},
		{"el", "/roll 2d6", "/roll 2d6"},
		{"es", "/deck draw Tarot", "/mazo robar Tarot"},
		{"el", "/deck draw Tarot", "/deck τράβα Tarot"},
		{"es", "/table Encuentros", "/tabla Encuentros"},
		{"es", "/table create Botín d6\nespada\nescudo", "/tabla crear Botín d6\nespada\nescudo"},
		{"es", "/pj @Drake condition +envenenado 2", "/pj @Drake estado +envenenado 2"},
		{"el", "/pj @Δάφνη condition -ζαλισμένος", "/pj @Δάφνη κατάσταση -ζαλισμένος"},
		{"es", "/pj @Drake pv -3", "/pj @Drake pv -3"},
		{"es", "/pj set @Drake next 4", "/pj poner @Drake next 4"},
		{"el", "/pj create Δράκος", "/pj δημιουργία Δράκος"},
		{"es", "/zaria fuerza+2 dc15", "/zaria fuerza+2 dc15"},
		{"es", "/golpe", "/golpe"},
		{"es", "/system try daegon table pct 7 3 60", "/sistema probar daegon tabla pct 7 3 60"},
		{"es", "/system edit rq fumble_from 95", "/sistema editar rq fumble_from 95"},
		{"el", "/system edit rq name fumble Καταστροφή", "/system αλλαγή rq όνομα fumble Καταστροφή"},
		{"el", "/system try daegon rule daegon_00 cero", "/system δοκιμή daegon κανόνας daegon_00 cero"},
		{"en", "/system edit daegon band success 1", "/system edit daegon band success 1"},
	} {
		if got := chatWords(c.q, func(k string) string { return cat.Translate(c.lang, k, nil) }); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.lang, c.q, got, c.want)
		}
	}
}

// TestOneNameForAdd: issue 36. A sheet's card offered «Πρόσθεσε» for a
// condition and «Προσθήκη» for a value: one action, one name, in every
// language (and so on the turn order's forms).
func TestOneNameForAdd(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"es", "el", "en"} {
		want := cat.Translate(lang, "web.sheets.add", nil)
		for _, k := range []string{"web.cond.add", "web.order.add"} {
			if got := cat.Translate(lang, k, nil); got != want {
				t.Errorf("%s %s is %q, web.sheets.add %q", lang, k, got, want)
			}
		}
	}
}
