package initiative_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/initiative"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/internal/chattest"
)

var (
	here = core.ChatRef{Platform: "test", ID: "-100"}
	ana  = core.User{ID: "u1", Name: "Ana"}
	bob  = core.User{ID: "u2", Name: "Bob"}
	gm   = core.User{ID: "u9", Name: "Eva"}
)

type bot struct{ *chattest.Bot }

func open(t *testing.T) *bot {
	t.Helper()
	b, _ := openService(t, nil)
	return b
}

// openService is open with /init's service, on the clock now (the real
// one when nil).
func openService(t *testing.T, now func() time.Time) (*bot, *initiative.Service) {
	t.Helper()
	db := chattest.OpenDB(t, "")
	svc := chattest.NewServices(db, chattest.Options{})
	r := command.New(svc.Config(command.Config{DefaultLang: "es", Translator: chattest.Catalog(t), Settings: db, GMs: db,
		Unlimited: []string{"test"}}))
	roll.Register(r)
	svc.Register(r)
	in := initiative.New(db, initiative.Options{ActiveName: db.ActiveCharacterName, Fighters: svc.Sheets, Now: now})
	initiative.Register(r, in)
	general.Register(r, general.Options{Version: "test"})
	var n uint64 // each message its own seed
	return &bot{&chattest.Bot{T: t, R: r, Chat: here, GM: gm, Dice: func() dice.Source { n++; return dice.Seeded(n) }}}, in
}

func (b *bot) say(u core.User, text string) *reply.Reply {
	b.T.Helper()
	return b.Say(u, text)
}

func text(rep *reply.Reply) string {
	s := reply.PlainText(rep)
	if rep.Status != nil {
		s += "\n" + reply.PlainText(rep.Status)
	}
	return s
}

func names(rep *reply.Reply) []string {
	d := rep.Data["initiative"].(initiative.Data)
	var out []string
	for _, c := range d.Combatants {
		out = append(out, c.Name)
	}
	return out
}

// Equal initiative: who joined first acts first; "baja" turns the order
// round; the GM's move puts a combatant where asked and later joins sort
// around it.
func TestOrderTiesAndSetting(t *testing.T) {
	b := open(t)
	b.say(gm, "/init añadir Zeta 10")
	b.say(gm, "/init añadir Alfa 10")
	rep := b.say(gm, "/init añadir Beta 15")
	if got := strings.Join(names(rep), ","); got != "Beta,Zeta,Alfa" {
		t.Fatalf("order %s, want Beta,Zeta,Alfa (ties: first come)", got)
	}
	rep = b.say(gm, "/init mover Alfa 1")
	if got := strings.Join(names(rep), ","); got != "Alfa,Beta,Zeta" {
		t.Fatalf("after the move %s", got)
	}
	rep = b.say(gm, "/init añadir Gamma 12")
	if got := strings.Join(names(rep), ","); got != "Alfa,Beta,Gamma,Zeta" {
		t.Fatalf("a join after the move: %s", got)
	}
	b.say(gm, "/init fin")
	b.say(gm, "/ajustes iniciativa_orden baja")
	b.say(gm, "/init añadir Uno 3")
	rep = b.say(gm, "/init añadir Dos 20")
	if got := strings.Join(names(rep), ","); got != "Uno,Dos" {
		t.Fatalf("lowest first: %s", got)
	}
}

// What only the GM may do is refused to a player with a message naming
// it, and changes nothing.
func TestGMOnlyRefused(t *testing.T) {
	b := open(t)
	b.say(ana, "/init 12")
	b.say(gm, "/init añadir Orco 8 pv 10")
	for cmd, want := range map[string]string{
		"/init añadir Trasgo 5":       "Solo el máster puede añadir combatientes",
		"/init siguiente":             "Solo el máster puede empezar el combate",
		"/init quitar Orco":           "Solo el máster puede quitar a otros",
		"/init mover Orco 1":          "Solo el máster puede mover a alguien en el orden",
		"/init fin":                   "Solo el máster puede terminar el combate",
		"/init pv Orco -3":            "Solo el máster puede cambiar la vida de un PNJ",
		"/init estado Orco +aturdido": "Solo el máster puede cambiar los estados de un PNJ",
	} {
		rep := b.say(bob, cmd)
		if !rep.Error || !strings.Contains(text(rep), want) {
			t.Errorf("%s by a player: %q, want %q", cmd, text(rep), want)
		}
	}
	if got := strings.Join(names(b.say(ana, "/init ver")), ","); got != "Ana,Orco" {
		t.Fatalf("a refused action changed the order: %s", got)
	}
	// A player may take themselves out.
	if rep := b.say(ana, "/init quitar Ana"); rep.Error {
		t.Fatalf("Ana leaving: %s", text(rep))
	}
}

// Every limit has its number and a message in each language.
func TestInitiativeLimits(t *testing.T) {
	for _, c := range []struct {
		lang, long, full string
	}{
		{"es", "tiene como mucho 32 caracteres (este tiene 33)", "ya tiene 30 combatientes"},
		{"en", "has at most 32 characters (this one has 33)", "already has 30 combatants"},
		{"el", "έχει το πολύ 32 χαρακτήρες (αυτό έχει 33)", "έχει ήδη 30 μαχητές"},
	} {
		b := open(t)
		b.say(gm, "/idioma "+c.lang)
		rep := b.say(gm, "/init add "+strings.Repeat("a", 33)+" 5")
		if !rep.Error || !strings.Contains(text(rep), c.long) {
			t.Errorf("%s: a long name: %q", c.lang, text(rep))
		}
		for i := range initiative.MaxCombatants {
			if rep := b.say(gm, fmt.Sprintf("/init add Orc%d 5", i)); rep.Error {
				t.Fatalf("%s: orc %d: %s", c.lang, i, text(rep))
			}
		}
		rep = b.say(gm, "/init add Orc99 5")
		if !rep.Error || !strings.Contains(text(rep), c.full) {
			t.Errorf("%s: a 31st combatant: %q", c.lang, text(rep))
		}
		if n := len(names(b.say(gm, "/init show"))); n != initiative.MaxCombatants {
			t.Errorf("%s: %d combatants", c.lang, n)
		}
	}
}

// Bad input is refused with its message and changes nothing.
func TestInitiativeBadInput(t *testing.T) {
	b := open(t)
	for cmd, want := range map[string]string{
		"/init siguiente":                                "No hay ningún combate",
		`/init añadir "Orco 2 12`:                        "Falta cerrar unas comillas",
		"/init añadir Orco 5000":                         "no vale como iniciativa",
		"/init añadir Orco 5 pv mucho":                   "no vale como vida",
		"/ajustes iniciativa " + strings.Repeat("1", 61): "como mucho 60 caracteres",
		// Issue 23: the command the word belongs to, named (was «la orden»).
		"/iniciativa añadir siguiente 5": "«siguiente» es una palabra de /iniciativa (añadir, quitar, siguiente…)",
	} {
		rep := b.say(gm, cmd)
		if !rep.Error || !strings.Contains(text(rep), want) {
			t.Errorf("%s: %q, want %q", cmd, text(rep), want)
		}
	}
	b.say(gm, "/init añadir Orco 5 pv 10")
	for i := range initiative.MaxConditions {
		if rep := b.say(gm, fmt.Sprintf("/init estado Orco +herido%d", i)); rep.Error {
			t.Fatalf("condition %d: %s", i, text(rep))
		}
	}
	if rep := b.say(gm, "/init estado Orco +cansado"); !rep.Error || !strings.Contains(text(rep), "Ya lleva 8 estados, el máximo") {
		t.Errorf("a 9th condition: %q", text(rep))
	}
	for cmd, want := range map[string]string{
		"/init estado Orco +aturdido 100": "de 1 a 99 asaltos",
		"/init quitar Orca":               "¿Quisiste decir Orco?",
		"/init pv Orco x":                 "no vale como vida",
	} {
		rep := b.say(gm, cmd)
		if !rep.Error || !strings.Contains(text(rep), want) {
			t.Errorf("%s: %q, want %q", cmd, text(rep), want)
		}
	}
}

// /pj pv and /pj estado: relative changes clamp to the maximum, a rolled
// change shows its roll, a text value is refused; several values at
// once are all or none.
func TestSheetChanges(t *testing.T) {
	b := open(t)
	b.say(ana, "/pj crear Lyra")
	for _, c := range [][2]string{
		{"/pj poner pv 12/12 fuerza 4 notas \"debe 5 monedas\"", "✏️ Lyra (3 valores): pv = 12/12 · fuerza = 4 · notas = debe 5 monedas"},
		{"/pj pv -3", "❤️ Lyra: pv 12 → 9 / 12"},
		{"/pj pv +50", "❤️ Lyra: pv 9 → 12 / 12"},
		{"/char hp -20", "❤️ Lyra: pv 12 → 0 / 12"},
		{"!χαρ ζωή +3", "❤️ Lyra: pv 0 → 3 / 12"},
		{"/pj fuerza +1", "✏️ Lyra: fuerza 4 → 5"},
		{"/pj estado +envenenado", "🌀 Lyra: envenenado"},
	} {
		if rep := b.say(ana, c[0]); rep.Error || !strings.Contains(text(rep), c[1]) {
			t.Errorf("%s: %q, want %q", c[0], text(rep), c[1])
		}
	}
	rep := b.say(ana, "/pj pv +2d6")
	if rep.Error || !strings.Contains(text(rep), "🎲 2d6") || !strings.Contains(text(rep), "❤️ Lyra: pv 3 → ") {
		t.Errorf("a rolled change: %q", text(rep))
	}
	for cmd, want := range map[string]string{
		"/pj notas -3":                          "no un número",
		"/pj sigilo -3":                         "no tiene el valor «sigilo»",
		"/pj poner fuerza 4 atletismo 2 sigilo": "a «sigilo» le falta el suyo",
		"/pj poner notas 4 goblins muertos":     "tiene que ir entre comillas",
		"/pj poner fuerza 4 fuerza 5":           "sale dos veces",
		"/pj estado -aturdido":                  "No tiene el estado «aturdido»",
	} {
		if rep := b.say(ana, cmd); !rep.Error || !strings.Contains(text(rep), want) {
			t.Errorf("%s: %q, want %q", cmd, text(rep), want)
		}
	}
	if got := text(b.say(ana, "/pj")); !strings.Contains(got, "fuerza 5") || strings.Contains(got, "atletismo") ||
		!strings.Contains(got, "estado envenenado") {
		t.Fatalf("the sheet after refused changes: %q", got)
	}
	// Today's meaning: a lone name and free text.
	if rep := b.say(ana, "/pj poner notas le debe 5 monedas a Drake"); rep.Error || !strings.Contains(text(rep), "notas = le debe 5 monedas a Drake") {
		t.Fatalf("free text: %q", text(rep))
	}
	// Someone else's character: only its owner or the GM.
	if rep := b.say(bob, "/pj @Lyra pv -1"); !rep.Error {
		t.Fatalf("Bob changed Lyra: %q", text(rep))
	}
	if rep := b.say(gm, "/pj @Lyra estado -envenenado"); rep.Error || !strings.Contains(text(rep), "Lyra: se quita el estado «envenenado»") {
		t.Fatalf("the GM curing Lyra: %q", text(rep))
	}
}

// Issue 23: the initiative settings are named in the chat's language
// ("initiative_order" in English, «πρωτοβουλία_σειρά» in Greek; the
// English list showed "iniciativa_orden"), and every language's name is
// read in every chat.
func TestSettingNamesInChatLanguage(t *testing.T) {
	b := open(t)
	for lang, want := range map[string][]string{
		"en": {"/settings initiative 1d20+dexterity", "/settings initiative_order high|low"},
		"es": {"/ajustes iniciativa 1d20+destreza", "/ajustes iniciativa_orden alta|baja"},
		"el": {"πρωτοβουλία 1d20+ευκινησία", "πρωτοβουλία_σειρά υψηλή|χαμηλή"},
	} {
		b.say(gm, "/idioma "+lang)
		list := text(b.say(gm, "/ajustes"))
		for _, w := range want {
			if !strings.Contains(list, w) {
				t.Errorf("%s /ajustes lacks %q:\n%s", lang, w, list)
			}
		}
		if lang != "es" && strings.Contains(list, "iniciativa") {
			t.Errorf("%s /ajustes shows «iniciativa»:\n%s", lang, list)
		}
	}
	b.say(gm, "/idioma en")
	for cmd, want := range map[string]string{
		"/settings πρωτοβουλία_σειρά low":      "initiative_order = low",
		"/settings iniciativa_orden high":      "initiative_order = high",
		"/settings initiative 2d6":             "initiative = 2d6",
		"/settings πρωτοβουλια 1d20+dexterity": "initiative = 1d20+dexterity",
	} {
		if got := text(b.say(gm, cmd)); !strings.Contains(got, want) {
			t.Errorf("%s → %q, want %q", cmd, got, want)
		}
	}
}
