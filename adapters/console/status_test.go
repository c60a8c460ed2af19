package console_test

import (
	"strings"
	"testing"

	"zaria/core/initiative"
	"zaria/storage/memory"
)

// The turn order's status message is printed once (┌) and, as a terminal
// cannot edit it, printed again marked ↻ each time it changes; its ▶ and
// ⏹ are numbered options: typing the number presses them.
func TestStatusReprintedWithButtons(t *testing.T) {
	st := memory.New()
	r := newRouter(t, st, "en")
	initiative.Register(r, initiative.New(st, initiative.Options{}))
	script := "/init add Orc 12\n/init 9\n1\n2\n"
	got := run(t, r, script)
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
