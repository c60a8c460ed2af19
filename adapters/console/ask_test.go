package console_test

import (
	"strings"
	"testing"

	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/general"
	"zaria/core/roll"
	"zaria/internal/chattest"
)

// TestAskNumbered: on the console a request for a roll is one message
// with a numbered option per character; the GM sees the chances first
// (":gm on"), three players press theirs, a stranger and a second press
// only get a notice, the GM rolls for the fourth and closes it, and the
// message is printed again (↻) as the results with the summary.
func TestAskNumbered(t *testing.T) {
	db := chattest.OpenDB(t, "")
	svc := chattest.NewServices(db, chattest.Options{})
	faces := dice.NewScripted([]int{15, 4, 11, 10})
	r := command.New(svc.Config(command.Config{Translator: chattest.Catalog(t), Settings: db, GMs: db, DefaultLang: "en",
		Unlimited: []string{"console"}, NewSource: func() dice.Source { return faces }}))
	svc.Register(r)
	roll.Register(r)
	roll.RegisterOdds(r)
	general.Register(r, general.Options{Version: "test"})
	ask.Register(r, ask.New(db, db, ask.Options{}))
	script := `:user ana
:gm off
/pj crear Lyra
/pj poner percepcion 3
:user bob
/pj crear Drake
/pj poner percepcion 1
:user cai
/pj crear Borin
/pj poner percepcion 0
:user dee
/pj crear Kael
/pj poner percepcion 5
:user gema
:gm on
/ask 1d20+percepcion vs 14
:user ana
4
4
:user eve
2
:user bob
2
:user cai
1
:user gema
3
5
1
`
	got := run(t, r, script)
	for _, want := range []string{
		"🔒 📊 Each character's chance, before anyone rolls: /roll 1d20+percepcion vs 14",
		"Lyra · 14 or more: 50%",
		"┌ 📣 #1 · gema asks for: /roll 1d20+percepcion vs 14\n  │ 1. ⏳ Borin",
		"[1] 🎲 Borin  [2] 🎲 Drake  [3] 🎲 Kael  [4] 🎲 Lyra  [5] ⏹ Close",
		"4. ✅ Lyra: 18 · +4",
		"⚠️ Lyra has rolled already",
		"⚠️ Drake is bob's: only their player or a GM rolls for Drake.",
		"2. ❌ Drake: 5 · −9",
		"1. ❌ Borin: 11 · −3",
		"3. ✅ Kael: 15 · +1 (rolled by the GM)",
		"⏹ Closed · 2 of 4 succeeded · best margin +4, worst −9",
		"⚠️ This request for a roll is closed.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "↻ 📣 #1"); n != 5 {
		t.Errorf("the message was printed again %d times, want 5 (four rolls and ⏹):\n%s", n, got)
	}
}
