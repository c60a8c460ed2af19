package systems

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"zaria/core/command"
	"zaria/core/systems/daegon"
	"zaria/core/systems/engine"
	"zaria/core/systems/kh"
	"zaria/core/systems/rq"
)

// What a pad button may ask for at a place of a system's command (its
// "{objetivo}", docs/pads.md): the names the rules give, in the chat's
// language, each with the short word the command reads. A place with no
// such list (a skill, a sheet value, the other side of an opposed roll)
// lists nothing, and the pad says to write the value on the button.
//
//	/zaria fuerza+atletismo {objetivo}   the named DCs: dc5 … dc30
//	/daegon sigilo {objetivo}            the difficulties: d1 … d7
//	/rq 45 {objetivo}                    the difficulties: +50 … -150
//	/kh 5 {objetivo}                     the tiers: dc4 … dc24
//	/dh ataque espada-larga vs {objetivo} the armours: tela … completa-de-placas
//	/dh ataque {arma} vs coraza          the weapons, by group
//	/dh repara {armadura} 2              the armours
//
// Each is its seed's (register.go); choices_test.go runs every value
// offered in its place.

// place says where words[i] sits in a check's words: after "vs" or not,
// and how many words of its side come before it ("@Drake" not counted).
func place(words []string, i int) (opposed bool, before int) {
	start := 0
	if len(words) > 0 && strings.HasPrefix(words[0], "@") {
		start = 1
	}
	for j := start; j < i; j++ {
		if isVs(words[j]) {
			return true, 0
		}
		before++
	}
	return false, before
}

// afterVs reports whether words[i] comes after a "vs".
func afterVs(words []string, i int) bool {
	for _, w := range words[:i] {
		if isVs(w) {
			return true
		}
	}
	return false
}

// anyVs reports whether words hold a "vs" (an opposed roll).
func anyVs(words []string) bool {
	for _, w := range words {
		if isVs(w) {
			return true
		}
	}
	return false
}

// zariaChoices offers the named DCs at their numbers in the chat's fork
// of the Ζαριά (forks nil: none), which may have moved them.
func zariaChoices(forks Forks) command.ChoicesFunc {
	return func(ctx context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
		if anyVs(words) {
			return nil, nil // an opposed roll has no DC
		}
		_, before := place(words, i)
		prev := ""
		if i > 0 {
			prev = words[i-1]
		}
		if before == 0 || prev == "+" || strings.HasSuffix(prev, "+") || isNPCWord(prev) || strings.HasPrefix(prev, "@") {
			return nil, nil // the check's own values
		}
		sys, err := chatSystem(ctx, req, forks, "zaria")
		if err != nil {
			return nil, err
		}
		out := &command.ChoiceList{Kind: command.ChoiceDifficulty}
		for _, n := range fileOrBook(sys, "zaria").Named("dc") {
			out.Choices = append(out.Choices, command.Choice{
				Label: req.T("choice.dc", "name", req.T("zaria.dc."+n.Key), "dc", n.Value),
				Value: "dc" + strconv.Itoa(n.Value)})
		}
		return out, nil
	}
}

func daegonChoices(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
	if anyVs(words) {
		return nil, nil
	}
	if _, before := place(words, i); before == 0 {
		return nil, nil
	}
	out := &command.ChoiceList{Kind: command.ChoiceDifficulty}
	for d := daegon.MinD; d <= daegon.MaxD; d++ {
		out.Choices = append(out.Choices, command.Choice{
			Label: req.T("choice.daegon", "name", req.T(fmt.Sprintf("daegon.d.%d", d)), "d", d),
			Value: "d" + strconv.Itoa(d)})
	}
	return out, nil
}

func rqChoices(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
	if anyVs(words) {
		return nil, nil
	}
	if _, before := place(words, i); before == 0 {
		return nil, nil
	}
	out := &command.ChoiceList{Kind: command.ChoiceDifficulty}
	for _, d := range rq.Difficulties {
		v := strconv.Itoa(d.Value)
		if d.Value > 0 {
			v = "+" + v
		}
		out.Choices = append(out.Choices, command.Choice{
			Label: req.T("choice.rq", "name", req.T("rq.diff."+d.Key), "mod", strings.Replace(v, "-", "−", 1)),
			Value: v})
	}
	return out, nil
}

func khChoices(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
	if _, before := place(words, i); before == 0 || anyVs(words) {
		return nil, nil
	}
	out := &command.ChoiceList{Kind: command.ChoiceDifficulty}
	for _, t := range kh.Tiers {
		out.Choices = append(out.Choices, command.Choice{
			Label: req.T("choice.kh_dc", "name", req.T("kh.tier."+t.Key), "dc", t.From),
			Value: "dc" + strconv.Itoa(t.From)})
	}
	return out, nil
}

// dhSubIs reports whether w names the Dungeon Hack sub-command of
// dh.yaml's check key.
func dhSubIs(w, key string) bool {
	c := engine.MustBuiltin("dh").SubCommand(w)
	return c != nil && c.Key == key
}

func dhChoices(_ context.Context, req *command.Request, words []string, i int) (*command.ChoiceList, error) {
	if i == 0 {
		return nil, nil
	}
	switch {
	case dhSubIs(words[0], "attack"):
		if afterVs(words, i) {
			return dhArmourChoices(req), nil
		}
		return &command.ChoiceList{Kind: command.ChoiceWeapon, Choices: dhWords(req, "weapon")}, nil
	case dhSubIs(words[0], "repair"):
		return dhArmourChoices(req), nil
	}
	return nil, nil
}

func dhArmourChoices(req *command.Request) *command.ChoiceList {
	return &command.ChoiceList{Kind: command.ChoiceArmour, Choices: dhWords(req, "armour")}
}

// dhWords are the weapons or armours (input) as dh.yaml's attack form
// lists them in the chat's language: each named by its name, typed as
// one word ("μακρύ-σπαθί", which /dh reads in any chat), valued by its
// key as sheets keep it, the weapons in their groups.
func dhWords(req *command.Request, input string) []command.Choice {
	var out []command.Choice
	for _, f := range engine.MustBuiltin("dh").Forms(req.Lang) {
		for _, fd := range f.Fields {
			if f.Check != "attack" || fd.Key != input {
				continue
			}
			for _, c := range fd.Choices {
				out = append(out, command.Choice{Label: c.Label, Value: strings.ReplaceAll(c.Key, "_", "-"), Typed: c.Word, Group: c.Group})
			}
		}
	}
	return out
}
