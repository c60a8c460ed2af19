package console_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"zaria/adapters/console"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/pad"
	"zaria/core/roll"
	"zaria/i18n"
	"zaria/storage/memory"
)

// A pad in the console is numbered options like 🎲 again: typing a number
// presses that button, which the core resolves and rolls for the user;
// another user (not a GM) pressing it gets the notice, not a roll.
func TestPadButtonsAreNumberedOptions(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, DefaultLang: "en", Unlimited: []string{"console"}})
	general.Register(r, "test")
	roll.Register(r)
	pad.Register(r, pad.New(st, pad.Options{}))
	script := "/pad add \"Init\" d20+2\n/pad add 2d6\n/pad\n1\n/pad\n2\n:user bob\n/pad\n:user ana\n:gm off\n/pad\n:user bob\n1\n"
	var out bytes.Buffer
	if err := console.New(console.Config{User: "ana"}, r, strings.NewReader(script), &out, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"🎛 ana's pad\n  1. Init\n  2. 2d6\n  [1] Init  [2] 2d6",
		"  (Init)\n  ana: 🎲 d20+2",
		"  (2d6)\n  ana: 🎲 2d6",
		"🎛 bob's pad\n  No buttons yet.",
		"  (Init)\n  ⚠️ These buttons belong to someone else. Yours: /pad",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
