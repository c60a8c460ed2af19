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
// system declares (its file's inputs or a check's form), in the
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
// without "vs" (the first that is not an opposed roll), with its inputs,
// or the fields of its file's form (Dungeon Hack's attack: a weapon and
// an armour, "/dh ataque espada-larga vs coraza").
func Forms(ctx context.Context, r *command.Router, msg core.Message) ([]Form, error) {
	lang := r.Lang(ctx, msg.Chat, msg.LangHint)
	var out []Form
	for _, key := range engine.Shipped() {
		s, err := engine.Builtin(key)
		if err != nil {
			return nil, err
		}
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
	return out, nil
}

// formField is an engine field as the page writes it.
func formField(fd engine.Field) Field {
	f := Field{Key: fd.Key, Label: fd.Label, Kind: fd.Kind, Min: fd.Min, Max: fd.Max, Default: fd.Default, Optional: fd.Optional, Before: fd.Before}
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
		v := strconv.Itoa(c.Value)
		if fd.Kind == "word" {
			v = c.Word
		}
		f.Choices = append(f.Choices, Choice{Label: c.Label, Value: v, Group: c.Group})
	}
	for _, p := range fd.Parts {
		f.Parts = append(f.Parts, formField(p))
	}
	return f
}
