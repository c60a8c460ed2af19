package console_test

import (
	"strings"
	"testing"

	"zaria/core/pad"
	"zaria/core/roll"
	"zaria/core/systems"
	"zaria/storage/memory"
)

// A pad in the console is numbered options like 🎲 again: typing a number
// presses that button, which the core resolves and rolls for the user;
// another user (not a GM) pressing it gets the notice, not a roll.
func TestPadButtonsAreNumberedOptions(t *testing.T) {
	st := memory.New()
	r := newRouter(t, st, "en")
	roll.Register(r)
	pad.Register(r, pad.New(st, pad.Options{}))
	script := "/pad add \"Init\" d20+2\n/pad add 2d6\n/pad\n1\n/pad\n2\n:user bob\n/pad\n:user ana\n:gm off\n/pad\n:user bob\n1\n"
	got := run(t, r, script)
	for _, want := range []string{
		"🎛 ana's pad\n  1. Init\n  2. 2d6\n  [1] Init  [2] 2d6",
		"  (Init)\n  ana: 🎲 d20+2",
		"  (2d6)\n  ana: 🎲 2d6",
		"🎛 bob's pad\n  No buttons of your own yet: here are the dice.", // the tray, as numbers
		"[6] 🎲 d20  [7] 🎲 d100",
		"  (Init)\n  ⚠️ These buttons belong to someone else. Yours: /pad",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// A button that asks for a value shows its choices as numbered lines and
// numbered options: typing a choice's number presses it, which rolls (or
// asks the next value); someone else typing it gets the notice.
func TestPadChoicesAreNumberedOptions(t *testing.T) {
	st := memory.New()
	r := newRouter(t, st, "es")
	roll.Register(r)
	systems.Register(r)
	pad.Register(r, pad.New(st, pad.Options{}))
	script := strings.Join([]string{
		`/botones añadir "Ataque" /dh ataque {arma} vs {objetivo}`,
		"/botones", "1", // the button: which kind of weapon?
		"2", "2", // one-handed, longsword
		"9",                                          // breastplate: rolls
		"/botones", "1", ":user bob", ":gm off", "1", // Bob presses Ana's choice
		"",
	}, "\n")
	got := run(t, r, script)
	for _, want := range []string{
		"  (Ataque)\n  ana: «Ataque»: ¿qué clase de arma?\n  1. ligeras\n  2. a una mano\n  3. a dos manos\n  4. arrojadizas\n  5. de puño\n  6. a distancia\n  [1] ligeras  [2] a una mano  [3] a dos manos  [4] arrojadizas  [5] de puño  [6] a distancia\n",
		"  (a una mano)\n  ana: «Ataque»: ¿con qué arma?\n  1. bastón\n  2. espada larga\n",
		"  (espada larga)\n  ana: «Ataque»: ¿contra qué armadura?\n  1. armadura de tela\n",
		"  [1] armadura de tela  [2] armadura acolchada  [3] armadura de cuero",
		"  (coraza)\n  ana: 🗡️ Espada larga 1d8 (pen 1) vs coraza 3 DB d6\n",
		"  (ligeras)\n  ⚠️ Estos botones son de otra persona. Los tuyos: /pad",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestEachPressKind: the console presses every kind of button as the
// chat adapters do: 🎲 rolls again for whoever presses it, 📊 shows the
// odds of the roll already made and rolls nothing, a pad button rolls as
// its owner typed it (and is refused to someone else).
func TestEachPressKind(t *testing.T) {
	st := memory.New()
	r := newRouter(t, st, "en")
	roll.Register(r)
	roll.RegisterOdds(r)
	pad.Register(r, pad.New(st, pad.Options{}))
	script := "/roll 3d6 vs 12\n:user bob\n2\n1\n:user ana\n/pad add \"Hit\" /roll 3d6 vs 12\n/pad\n:user bob\n1\n:user ana\n1\n"
	got := run(t, r, script)
	odds, again, _ := strings.Cut(got, "(📊 Odds)")
	again, padPart, _ := strings.Cut(again, "(🎲 Again)")
	if strings.Count(odds, "🎲 3d6") != 1 {
		t.Errorf("before 📊: want one roll:\n%s", odds)
	}
	if !strings.Contains(again, "37.5%") || strings.Contains(again, "🎲 3d6") {
		t.Errorf("📊 answered, rolling nothing:\n%s", again)
	}
	if n := strings.Count(padPart, "🎲 3d6"); n != 2 || !strings.Contains(padPart, "(Hit)\n  ana: 🎲 3d6") {
		t.Errorf("🎲 by bob, then ana's pad button by ana: want 2 rolls (again, and the pad's as ana):\n%s", padPart)
	}
	if !strings.Contains(padPart, "(Hit)\n  ⚠️ These buttons belong to someone else") {
		t.Errorf("bob pressing ana's pad:\n%s", padPart)
	}
}
