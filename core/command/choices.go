package command

import (
	"context"
	"slices"
	"strings"

	"zaria/core/fold"
)

// Choice is one value a pad button may ask for (core/pad: a button's
// "{objetivo}" is asked with one button per choice).
type Choice struct {
	// Label is what the choice's button shows, in the request's language:
	// "difícil (D3)".
	Label string
	// Value is the word that takes the placeholder's place in the command,
	// as the command reads it: "d3", "dc15", "coraza". Short and the same
	// in every language.
	Value string
	// Typed, when set, is how the value is written into the command the
	// user sees run (and /historial keeps): the word in the request's
	// language that the command reads as Value ("θώρακας" for "coraza"),
	// so that a Greek chat's history does not show a Spanish word.
	Typed string
	// Group, when the list is too long for one keyboard, is the label of
	// the group the choice belongs to ("ligeras"): the pad asks the group
	// first. Choices of one group are contiguous.
	Group string
}

// What a ChoiceList's values are: the pad asks for each in its own words
// ("¿contra qué armadura?") and matches it with the placeholder's name.
const (
	ChoiceDifficulty = "difficulty" // a difficulty or a DC
	ChoiceArmour     = "armour"     // an armour to roll against
	ChoiceWeapon     = "weapon"     // a weapon to roll with
)

// ChoiceList is what a command offers at one place of its arguments.
type ChoiceList struct {
	Kind    string // ChoiceDifficulty, ChoiceArmour or ChoiceWeapon
	Choices []Choice
}

// ChoicesFunc lists the values the word words[i] of a command's arguments
// may take, the others left as written (a placeholder such as
// "{objetivo}" stands in words[i]). nil: the command lists nothing for
// that place (a free number, a sheet value). It may read the chat's
// stored state (its fork of a system), never roll or write.
type ChoicesFunc func(ctx context.Context, req *Request, words []string, i int) (*ChoiceList, error)

// SetChoices gives the registered command name its ChoicesFunc, for a
// package that knows what its values are (core/systems). It reports
// whether the command exists.
func (r *Router) SetChoices(name string, f ChoicesFunc) bool {
	cmd, ok := r.byAlias[fold.Key(name)]
	if ok {
		cmd.Choices = f
	}
	return ok
}

// ChoicesFor says what the word ph of text may be: it follows text
// through the sender's (and the chat's) saved rolls, as typing it would,
// and through a command that runs another (/gmroll /dh …), to the
// command that reads ph, and asks its Choices. nil when there is no list
// (no such word, a command without choices, plain text). A saved roll
// that cannot expand as written (alias.missing_arg: it needs one more
// word) gives its user error; nothing is run.
func (req *Request) ChoicesFor(ctx context.Context, text, ph string) (*ChoiceList, error) {
	r := req.router
	var chain []string
	for range 2*r.cfg.Limits.MaxDepth + 2 {
		p, ok := req.Parse(text)
		if !ok {
			return nil, nil
		}
		if cmd, ok := r.byAlias[fold.Key(p.Name)]; ok {
			words := strings.Fields(p.Args)
			if cmd.Choices == nil {
				text = p.Args // a command that runs another: /gmroll /dh …
				continue
			}
			i := slices.Index(words, ph)
			if i < 0 {
				return nil, nil
			}
			sub := *req
			sub.Name, sub.Alias, sub.Args, sub.Prefix = cmd.Name, p.Name, p.Args, p.Prefix
			return cmd.Choices(ctx, &sub, words, i)
		}
		if r.cfg.Aliases == nil {
			return nil, nil
		}
		if err := loop(chain, p.Name); err != nil {
			return nil, err
		}
		exp, ok, err := r.cfg.Aliases.ExpandAlias(ctx, req.Msg.Chat, req.Msg.From.ID, p.Name, p.Args, r.cfg.Limits.MaxExpansion)
		if err != nil || !ok {
			return nil, err
		}
		chain = append(chain, p.Name)
		text = exp
	}
	return nil, Errorf("error.alias_depth", "max", r.cfg.Limits.MaxDepth)
}
