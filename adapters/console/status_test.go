package console_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"zaria/adapters/console"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/initiative"
	"zaria/i18n"
	"zaria/storage/memory"
)

// The turn order's status message is printed once (┌) and, as a terminal
// cannot edit it, printed again marked ↻ each time it changes; its ▶ and
// ⏹ are numbered options: typing the number presses them.
func TestStatusReprintedWithButtons(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := memory.New()
	r := command.New(command.Config{Translator: cat, Settings: st, DefaultLang: "en", Unlimited: []string{"console"}})
	general.Register(r, general.Options{Version: "test"})
	initiative.Register(r, initiative.New(st, initiative.Options{}))
	script := "/init add Orc 12\n/init 9\n1\n2\n"
	var out bytes.Buffer
	if err := console.New(console.Config{User: "ana"}, r, strings.NewReader(script), &out, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"┌ ⚔️ Initiative: not started yet\n  │    12 Orc\n  [1] ▶ Next  [2] ⏹ End",
		"↻ ⚔️ Initiative: not started yet\n  │    12 Orc\n  │    9 ana",
		"(▶ Next)\n  🔔 Round 1\n  ▶ Orc — their turn\n  ↻ ⚔️ Initiative · round 1\n  │ ▶ 12 Orc",
		"(⏹ End)\n  ⏹ Fight over after round 1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
