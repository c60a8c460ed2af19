package deck

import (
	"context"
	"math/big"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Limits of /elegir.
const (
	// MaxChoices is how many options /elegir takes.
	MaxChoices = 50
	// MaxChoiceChars is the longest option, in characters.
	MaxChoiceChars = 100
)

// pick is /elegir a, b, c (/pick, !διάλεξε): one of the options, each as
// likely. Options are separated by commas (or ';', '|', lines); without
// any, by spaces.
func pick(_ context.Context, req *command.Request) (*reply.Reply, error) {
	args := strings.TrimSpace(req.Args)
	var opts []string
	split := func(r rune) bool { return r == ',' || r == ';' || r == '|' || r == '\n' }
	if strings.ContainsFunc(args, split) {
		opts = strings.FieldsFunc(args, split)
	} else {
		opts = strings.Fields(args)
	}
	var clean []string
	for _, o := range opts {
		o = fold.Clean(strings.TrimSpace(o))
		if o == "" {
			continue
		}
		if n := utf8.RuneCountInString(o); n > MaxChoiceChars {
			return nil, command.Errorf("pick.err.long", "max", MaxChoiceChars, "got", n)
		}
		clean = append(clean, o)
	}
	switch {
	case len(clean) < 2:
		return nil, command.Errorf("pick.usage")
	case len(clean) > MaxChoices:
		return nil, command.Errorf("pick.err.many", "max", MaxChoices, "got", len(clean))
	}
	if err := req.Budget.Spend(len(clean)); err != nil {
		return nil, err
	}
	i := req.Rand.IntN(len(clean))
	p := big.NewRat(1, int64(len(clean)))
	f, _ := p.Float64()
	rep := (&reply.Reply{}).Add(reply.T("🎯 "), reply.B(clean[i]),
		reply.T(" · "+req.T("pick.of", "n", i+1, "count", len(clean), "pct", req.Percent(p))))
	rep.Check = &reply.Check{System: "pick", Dice: []int{i + 1}, Sides: []int{len(clean)}, Pick: clean[i],
		Chance: &f, ChanceExact: p.RatString()}
	rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonAgain, Label: req.T("dice.button.again")})
	return rep, nil
}
