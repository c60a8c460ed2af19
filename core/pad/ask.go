package pad

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// A button's command may leave a value to choose when it is pressed:
//
//	/botones añadir "Ataque" /dh ataque espada-larga vs {objetivo}
//	/botones añadir /ataque          (a saved roll "/dh ataque espada-larga vs {1}")
//
// Pressing it rolls nothing: the reply asks "Ana (Drake): «Ataque»:
// ¿contra qué armadura?" with one button (and one numbered line) per
// choice the system has; each carries the values chosen so far
// (reply.Action.Values) and pressing one fills the placeholder and rolls,
// or asks the next value. The names a placeholder may have, in any
// language, are in slotNames; {1}, {2}… and {*} keep their /alias meaning
// and are never asked (a saved roll's missing words are). docs/pads.md.

// Limits of the values a button asks for (ask_test.go).
const (
	// MaxChoices is how many choices one question offers: a pad's worth of
	// buttons. A longer list with groups (the weapons) asks the group
	// first; without, the button is refused.
	MaxChoices = 25
	// MaxAsks is how many values one button asks for.
	MaxAsks = 3
	// MaxValue is the longest value a press may carry, in characters
	// (the systems' longest is 22: "ballesta-de-repeticion").
	MaxValue = 32
)

// Kinds of slot: what a placeholder's name says it stands for.
const (
	slotTarget = "target" // whatever the roll is against: a difficulty or an armour
	slotWord   = ""       // a saved roll's missing word: whatever its place holds
)

// slotNames are the names a placeholder may have (folded), in es, el and
// en, and the kind of value each stands for: built once.
var slotNames = func() map[string]string {
	m := map[string]string{}
	for kind, names := range map[string][]string{
		slotTarget:               {"objetivo", "target", "στόχος"},
		command.ChoiceDifficulty: {"dificultad", "difficulty", "δυσκολία", "cd", "dc"},
		command.ChoiceArmour:     {"armadura", "armour", "armor", "πανοπλία"},
		command.ChoiceWeapon:     {"arma", "weapon", "όπλο"},
	} {
		for _, n := range names {
			m[fold.Key(n)] = kind
		}
	}
	return m
}()

// fits reports whether a list of kind may fill a slot of kind want.
func fits(want, kind string) bool {
	switch want {
	case slotWord:
		return true
	case slotTarget:
		return kind == command.ChoiceDifficulty || kind == command.ChoiceArmour
	}
	return want == kind
}

var placeholderRe = regexp.MustCompile(`\{(\p{L}+)\}`)

// slot is one value a button asks for.
type slot struct {
	ph    string // the word that stands for it: "{objetivo}"; "{1}" for a saved roll's word
	kind  string // slotTarget, a command.Choice kind, or slotWord
	added bool   // a saved roll's missing word, appended to the command
}

// plan is what a button asks for before it rolls.
type plan struct {
	cmd   string
	probe string // cmd with a saved roll's missing words as "{1}", "{2}"…
	slots []slot
}

// planOf finds the values cmd asks for, and checks that each has a list
// of choices that fits a question. A command that asks nothing costs no
// read when it names a command (not a saved roll).
func planOf(ctx context.Context, req *command.Request, cmd string) (plan, error) {
	p := plan{cmd: cmd, probe: cmd}
	for _, m := range placeholderRe.FindAllStringSubmatch(cmd, -1) {
		kind, ok := slotNames[fold.Key(m[1])]
		if !ok {
			return p, errorf(req, "pad.err.placeholder", "got", m[0])
		}
		if !slices.ContainsFunc(p.slots, func(s slot) bool { return s.ph == m[0] }) {
			p.slots = append(p.slots, slot{ph: m[0], kind: kind})
		}
	}
	if pp, ok := req.Parse(cmd); ok {
		if _, isCommand := req.Router().Lookup(pp.Name); isCommand && len(p.slots) == 0 {
			return p, nil
		}
	}
	// A saved roll missing words: each one is a value to ask.
	for n := 1; ; n++ {
		_, err := req.ChoicesFor(ctx, p.probe, "")
		ue, missing := command.AsUserError(err)
		if !missing || ue.Key != "alias.missing_arg" || n > MaxAsks+1 {
			if err != nil {
				return p, err
			}
			break
		}
		ph := "{" + strconv.Itoa(n) + "}"
		p.probe += " " + ph
		p.slots = append(p.slots, slot{ph: ph, kind: slotWord, added: true})
	}
	if len(p.slots) > MaxAsks {
		return p, errorf(req, "pad.err.too_many_asks", "max", MaxAsks, "got", len(p.slots))
	}
	return p, nil
}

// question is one value to choose, as the pad asks it.
type question struct {
	kind    string
	group   bool // the choices are groups of the real ones
	choices []command.Choice
}

// groupValue is the value a press carries for the k-th group (0-based):
// "#1". No system value starts with "#".
func groupValue(k int) string { return "#" + strconv.Itoa(k+1) }

// questionOf lists the choices of slot sl of p: the whole list, or its
// groups when it is longer than MaxChoices. group is the value chosen for
// the group, "" for none yet; ok=false when group is not one of them.
func questionOf(ctx context.Context, req *command.Request, p plan, sl slot, group string) (q question, ok bool, err error) {
	list, err := req.ChoicesFor(ctx, p.probe, sl.ph)
	if err != nil {
		return q, false, err
	}
	if list == nil || len(list.Choices) == 0 || !fits(sl.kind, list.Kind) {
		return q, false, errorf(req, "pad.err.no_choices", "ph", sl.ph, "text", p.cmd)
	}
	q.kind, q.choices = list.Kind, list.Choices
	if len(list.Choices) <= MaxChoices {
		return q, true, nil
	}
	tooMany := errorf(req, "pad.err.too_many_choices", "ph", sl.ph, "got", len(list.Choices), "max", MaxChoices)
	var groups []command.Choice
	members := map[string][]command.Choice{}
	for _, c := range list.Choices {
		if c.Group == "" {
			return q, false, tooMany
		}
		if _, seen := members[c.Group]; !seen {
			groups = append(groups, command.Choice{Label: c.Group, Value: groupValue(len(groups))})
		}
		members[c.Group] = append(members[c.Group], c)
	}
	if len(groups) > MaxChoices {
		return q, false, tooMany
	}
	for _, g := range groups {
		if len(members[g.Label]) > MaxChoices {
			return q, false, tooMany
		}
	}
	if group == "" {
		return question{kind: list.Kind, group: true, choices: groups}, true, nil
	}
	for _, g := range groups {
		if g.Value == group {
			return question{kind: list.Kind, choices: members[g.Label]}, true, nil
		}
	}
	return q, false, nil
}

// check makes sure every value p asks for can be asked (at /pad add).
func check(ctx context.Context, req *command.Request, p plan) error {
	for _, sl := range p.slots {
		if _, _, err := questionOf(ctx, req, p, sl, ""); err != nil {
			return err
		}
	}
	return nil
}

// fill walks p's values with the ones a press carries: the command to
// run when all are chosen, or the next question. A value that is not a
// choice of its question (forged, or the button changed) is refused.
func fill(ctx context.Context, req *command.Request, p plan, values []string) (string, *question, error) {
	if len(values) > 2*MaxAsks {
		return "", nil, errorf(req, "pad.err.bad_value", "got", values[len(values)-1])
	}
	bad := func(v string) error { return errorf(req, "pad.err.bad_value", "got", v) }
	for _, v := range values {
		if n := utf8.RuneCountInString(v); n > MaxValue {
			return "", nil, command.Errorf("pad.err.value_long", "max", MaxValue, "got", n)
		}
		if v == "" { // no choice is empty: "" would read as "no group chosen yet"
			return "", nil, bad(v)
		}
	}
	cmd, added := p.cmd, ""
	for _, sl := range p.slots {
		q, _, err := questionOf(ctx, req, p, sl, "")
		if err != nil {
			return "", nil, err
		}
		if q.group && len(values) > 0 {
			g := values[0]
			var ok bool
			if q, ok, err = questionOf(ctx, req, p, sl, g); err != nil {
				return "", nil, err
			} else if !ok {
				return "", nil, bad(g)
			}
			values = values[1:]
		}
		if len(values) == 0 {
			return "", &q, nil
		}
		v := values[0]
		values = values[1:]
		i := slices.IndexFunc(q.choices, func(c command.Choice) bool { return c.Value == v })
		if i < 0 {
			return "", nil, bad(v)
		}
		if t := q.choices[i].Typed; t != "" {
			v = t // the chat's word for it (issue 23: no "coraza" in a Greek history)
		}
		if sl.added {
			added += " " + v
		} else {
			cmd = strings.ReplaceAll(cmd, sl.ph, v)
		}
	}
	if len(values) > 0 {
		return "", nil, bad(values[0])
	}
	return cmd + added, nil, nil
}

// ask answers a press that needs a value: the question, attributed, and
// one numbered line and one button per choice, each the same button with
// the values so far and that choice.
func (s *Service) ask(ctx context.Context, req *command.Request, b Button, values []string, q *question) *reply.Reply {
	key := "pad.ask." + q.kind
	if q.group {
		key += ".group"
	}
	rep := &reply.Reply{}
	rep.Add(reply.B(s.byline(ctx, req, req.Msg.From.ID, req.Msg.From.Name)+": "), reply.T(req.T(key, "label", b.Label)))
	for i, c := range q.choices {
		rep.Add(reply.T(strconv.Itoa(i+1)+". "), reply.B(c.Label))
		rep.Buttons = append(rep.Buttons, reply.Button{Kind: reply.ButtonRun, Label: c.Label,
			Action: &reply.Action{Kind: reply.ActRun, Button: b.ID, Values: append(slices.Clip(values), c.Value)}})
	}
	return rep
}
