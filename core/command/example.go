package command

import (
	"context"
	"errors"
	"strings"
)

// missingArgExample turns alias.missing_arg ("/sig" saved as "/daegon
// sigilo {1}", typed with no word) into a line the user can type as it
// is: the saved roll's name, the words given, and for each missing word
// a value the command it stands for offers there (its Choices: a
// difficulty, an armour, a weapon), or a number where it offers none.
// The error gets it as "example"; any other error is returned unchanged.
func (req *Request) missingArgExample(ctx context.Context, err error, p Parsed) error {
	var ue *UserError
	if !errors.As(err, &ue) || ue.Key != "alias.missing_arg" {
		return err
	}
	filled, _ := ue.Args["filled"].(string)
	missing, _ := ue.Args["missing"].([]string)
	if filled == "" || len(missing) == 0 {
		return err
	}
	line := strings.TrimSpace(p.Prefix + p.Name + " " + p.Args)
	for _, ph := range missing {
		value := "2"
		if cl, cerr := req.ChoicesFor(ctx, filled, ph); cerr == nil && cl != nil && len(cl.Choices) > 0 {
			value = cl.Choices[(len(cl.Choices)-1)/2].Value
		}
		filled = strings.ReplaceAll(filled, ph, value)
		line += " " + value
	}
	ue.Args["example"] = line
	return ue
}
