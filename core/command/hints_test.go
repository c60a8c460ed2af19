package command_test

import (
	"context"
	"errors"
	"testing"

	"zaria/core/command"
	"zaria/core/reply"
)

// A user error gets the prefix the user typed ("/" when none was typed)
// without losing an argument the handler set; other errors pass unchanged.
func TestHintsFillOnlyWhatIsMissing(t *testing.T) {
	if p := (&command.Request{}).TypedPrefix(); p != "/" {
		t.Errorf("no prefix typed: %q, want /", p)
	}
	bang := &command.Request{Prefix: "!"}
	h := command.WithHints(func(context.Context, *command.Request) (*reply.Reply, error) {
		return nil, command.Errorf("x.usage", "name", "Drake")
	}, func(req *command.Request) []any { return append(command.PrefixHint(req), "name", "other") })
	_, err := h(context.Background(), bang)
	ue, ok := command.AsUserError(err)
	if !ok || ue.Args["pre"] != "!" || ue.Args["name"] != "Drake" {
		t.Errorf("hinted error = %#v", err)
	}
	plain := errors.New("disk full")
	if got := command.Hint(plain, "pre", "!"); got != plain {
		t.Errorf("Hint changed a non-user error: %v", got)
	}
}

// Fixed keeps its decimals (a statistic's precision) with the language's
// separator.
func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		lang string
		f    float64
		d    int
		want string
	}{{"es", 108, 1, "108,0"}, {"el", 0.0005, 3, "0,001"}, {"en", 5, 1, "5.0"}, {"en", -2.25, 1, "-2.2"}} {
		if got := command.Fixed(tc.lang, tc.f, tc.d); got != tc.want {
			t.Errorf("Fixed(%s, %v, %d) = %q, want %q", tc.lang, tc.f, tc.d, got, tc.want)
		}
	}
}
