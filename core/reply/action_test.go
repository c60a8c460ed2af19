package reply

import (
	"reflect"
	"strings"
	"testing"
)

// TestActionEncoding: every kind survives its stored form, the known
// kinds in a few bytes, and what is not a stored action is refused.
func TestActionEncoding(t *testing.T) {
	seven, minus := int64(7), int64(-3)
	half, mean := 0.5, 7.0
	for _, c := range []struct {
		a    Action
		want string
	}{
		{Action{Kind: ActAgain, Command: "/roll 2d6+1 vs 8"}, "1a/roll 2d6+1 vs 8"},
		{Action{Kind: ActOdds, Command: "/roll 3d6 vs 12", Actual: &seven}, "1o7 /roll 3d6 vs 12"},
		{Action{Kind: ActOdds, Command: "!dh 2", Actual: &minus}, "1o-3 !dh 2"},
		{Action{Kind: ActOdds, Command: "/zaria fuerza"}, "1o /zaria fuerza"},
		{Action{Kind: ActOdds, Command: "/roll 2d6 vs 7", Actual: &seven, Odds: &RollOdds{Chance: &half, Exact: "1/2", Mean: &mean}}, `1{"k":"odds","c":"/roll 2d6 vs 7","n":7,"o":{"c":0.5,"e":"1/2","m":7}}`},
		{Action{Kind: ActOdds, Command: "/roll 1/0", Odds: &RollOdds{}}, `1{"k":"odds","c":"/roll 1/0","o":{}}`},
		{Action{Kind: ActRun, Button: 12}, "1r12"},
		{Action{Kind: ActRun, Button: 9, Values: []string{"cuero", `a|b\c`, ""}}, `1r9:cuero|a\|b\\c|`},
		{Action{Kind: "turn.next", Button: 4, Values: []string{"x"}}, `1{"k":"turn.next","b":4,"v":["x"]}`},
		{Action{Kind: ActReveal, Secret: "🎲 Bob: 1d20 = 7", Chat: "telegram:-1"}, `1{"k":"reveal","s":"🎲 Bob: 1d20 = 7","h":"telegram:-1"}`},
		{Action{Kind: ActDamage, Character: "Drake", Amount: 5, Once: "50c6"}, `1{"k":"damage","ch":"Drake","am":5,"id":"50c6"}`},
		{Action{Kind: ActLink, URL: "https://t.me/ZariaBot/app?startapp=x", App: "https://zaria.example/app/"}, `1{"k":"link","u":"https://t.me/ZariaBot/app?startapp=x","ap":"https://zaria.example/app/"}`},
	} {
		got := c.a.Encode()
		if got != c.want {
			t.Errorf("%+v encodes as %q, want %q", c.a, got, c.want)
		}
		back, err := DecodeAction(got)
		if err != nil || !reflect.DeepEqual(back, c.a) {
			t.Errorf("%q decodes as %+v %v, want %+v", got, back, err, c.a)
		}
	}
	for _, bad := range []string{"", "1", "2a/roll 1", "1aroll", "1a", "1o/roll 2", "1ox /roll 2", "1r0", "1r-1", "1r01", "1rx", "1{}", "1{", "1z", `1{"k":"reveal","h":"x"}`, `1{"k":"damage","ch":"Drake","am":5}`, `1{"k":"damage","ch":"Drake","am":0,"id":"a"}`, `1{"k":"damage","am":5,"id":"a"}`, `1{"k":"reveal","s":"7"}`, `1{"k":"link","ap":"https://zaria.example/app/"}`, `1{"k":"gone"}`, `1{"k":"reveal","h":"x","s":"` + strings.Repeat("7", MaxSecret+1) + `"}`, "a:/roll 1", "b:0123456789abcdef:a", "1a/roll \xff"} {
		if a, err := DecodeAction(bad); err == nil {
			t.Errorf("%q decodes as %+v", bad, a)
		}
	}
	if n := len(Action{Kind: ActRun, Button: 1<<62 + 1}.Encode()); n > 21 {
		t.Errorf("a pad button takes %d bytes", n)
	}
	if !strings.HasPrefix(Action{Kind: ActAgain, Command: "/r"}.Encode(), string(ActionVersion)) {
		t.Error("no version")
	}
}

// A reveal is Private (its result is never put where a client reads it);
// no other kind is.
func TestRevealIsPrivate(t *testing.T) {
	if !(Action{Kind: ActReveal, Secret: "7", Chat: "x"}).Private() || (Action{Kind: ActAgain, Command: "/r 1"}).Private() {
		t.Error("Private")
	}
}
