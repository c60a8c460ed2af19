package systems

import (
	"context"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/systems/engine"
)

// Form is one check as a page's dice screen offers it: the fields a
// system declares (its file's inputs, Dungeon Hack's attack), in the
// chat's language, and how each becomes a word of the chat command. The
// page names no system: it writes "/" + Command and each field's word.
type Form struct {
	Key     string // system.check, what the page sends back
	Command string // the chat command, without its slash
	Title   string // "Ζαριά — tirada"
	Fields  []Field
}

// Field is one input of a form, written in the form's order.
type Field struct {
	Key, Label string
	// Kind: number (a stepper, or Choices' named values), flag (a
	// checkbox writing Word), terms (Parts joined with "+", each a
	// number or a sheet value), word (one of Choices, written as is).
	Kind     string
	Min, Max int
	Default  *int // where a number starts; nil with Optional: left out
	Optional bool
	Choices  []Choice
	Parts    []Field
	// Before is a word of its own written before the value ("ataque").
	Before string
	// Prefix and Suffix are glued to a number: dc15, 2s.
	Prefix, Suffix string
	Word           string // a flag's word
}

// Choice is a named value of a field: Value is what the command gets
// (a number's digits, a word's word), Group its group in a long list.
type Choice struct{ Label, Value, Group string }

// Forms lists the dice screen's checks for msg in its chat's language:
// of every system file the engine knows, the check its words reach
// without "vs" (the first that is not an opposed roll), then Dungeon
// Hack's attack while it is Go code.
func Forms(ctx context.Context, r *command.Router, msg core.Message) ([]Form, error) {
	lang := r.Lang(ctx, msg.Chat, msg.LangHint)
	var out []Form
	dhFile := false
	for _, key := range engine.Shipped() {
		s, err := engine.Builtin(key)
		if err != nil {
			return nil, err
		}
		dhFile = dhFile || s.File.Command == "dh"
		for _, f := range s.Forms(lang) {
			if f.Opposed {
				continue
			}
			// The chat's words without "vs" reach the first check that is
			// not opposed (engine.Parse): the one a form can write.
			if len(out) > 0 && strings.HasPrefix(out[len(out)-1].Key, f.System+".") {
				break
			}
			pf := Form{Key: f.System + "." + f.Check, Command: s.File.Command, Title: s.File.Title.In(lang) + " — " + f.Title}
			for _, fd := range f.Fields {
				pf.Fields = append(pf.Fields, formField(fd))
			}
			out = append(out, pf)
		}
	}
	if !dhFile {
		f, err := dhForm(ctx, r, msg, lang)
		if err != nil {
			return nil, err
		}
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

// formField is an engine field as the page writes it.
func formField(fd engine.Field) Field {
	f := Field{Key: fd.Key, Label: fd.Label, Kind: fd.Kind, Min: fd.Min, Max: fd.Max, Default: fd.Default, Optional: fd.Optional}
	if f.Default == nil {
		f.Default = fd.Suggest // the page starts there; the chat still leaves it out
	}
	switch {
	case fd.Kind == "flag" && len(fd.Words) > 0:
		f.Word = fd.Words[0]
	case len(fd.Words) > 0:
		f.Prefix = fd.Words[0]
	case len(fd.Suffixes) > 0:
		f.Suffix = fd.Suffixes[0]
	}
	for _, c := range fd.Choices {
		f.Choices = append(f.Choices, Choice{Label: c.Label, Value: strconv.Itoa(c.Value)})
	}
	for _, p := range fd.Parts {
		f.Parts = append(f.Parts, formField(p))
	}
	return f
}

// dhAttackForm is Dungeon Hack's attack, "/dh ataque WEAPON vs ARMOUR",
// whose weapons and armours the router lists (choices.go).
const dhAttackForm = "/dh ataque {w} vs {a}"

// dhForm is the attack's form: a weapon by group and an armour, each the
// word the chat's language types ("μακρύ-σπαθί"). nil without them.
func dhForm(ctx context.Context, r *command.Router, msg core.Message, lang string) (*Form, error) {
	ws, err := r.Choices(ctx, msg, dhAttackForm, "{w}")
	if err != nil {
		return nil, err
	}
	as, err := r.Choices(ctx, msg, dhAttackForm, "{a}")
	if err != nil {
		return nil, err
	}
	if ws == nil || as == nil || len(ws.Choices) == 0 || len(as.Choices) == 0 {
		return nil, nil
	}
	words := func(l *command.ChoiceList) []Choice {
		out := make([]Choice, len(l.Choices))
		for i, c := range l.Choices {
			out[i] = Choice{Label: c.Label, Value: c.Value, Group: c.Group}
			if c.Typed != "" {
				out[i].Value = c.Typed
			}
		}
		return out
	}
	return &Form{Key: "dh.attack", Command: "dh", Title: r.Text(lang, "web.system.dh"), Fields: []Field{
		{Key: "weapon", Label: r.Text(lang, "web.dice.weapon"), Kind: "word", Before: r.Text(lang, "web.dice.attack_word"), Choices: words(ws)},
		{Key: "armour", Label: r.Text(lang, "web.dice.armour"), Kind: "word", Before: "vs", Choices: words(as)},
	}}, nil
}
