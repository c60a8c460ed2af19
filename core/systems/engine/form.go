package engine

import "strings"

// Form describes what a check takes, for a page that builds its fields
// from the file (issue: the page's forms come from the file): each input
// with its kind, range, default and named choices, localized.
type Form struct {
	System string
	Check  string
	Title  string // the check's name in the language asked
	// Opposed: the check takes a passive side after "vs".
	Opposed bool
	Fields  []Field
}

// Field is one input of a check.
type Field struct {
	Key      string
	Kind     string // number, flag, terms, word (a check's form: one of Choices' words)
	Label    string
	Min, Max int
	Default  *int // nil: none (an optional input starts empty)
	Suggest  *int // where a form starts an optional input (nil: empty)
	Optional bool
	Choices  []FormChoice // named values, in the file's order
	Parts    []Field      // a terms input's parts (sheet keys or numbers)
	Words    []string     // how the chat types it: a prefix or a flag's keyword
	Suffixes []string     // a tagged count's tags: 2s, 1i
	Before   string       // a word of the command before the value ("vs")
}

// FormChoice is a named value of a number input.
type FormChoice struct {
	Value int
	Key   string
	Label string
	Word  string // a word field's: what the command is written with
	Group string // a word field's group, "" without groups
}

// Forms returns the form of each check of the system, in lang.
func (s *System) Forms(lang string) []Form {
	var out []Form
	for _, c := range s.checks {
		f := Form{System: s.File.System, Check: c.def.Key, Title: c.def.Names.In(lang), Opposed: c.opposed}
		if c.def.Form != nil {
			for _, w := range c.def.Form.Fields {
				f.Fields = append(f.Fields, s.wordField(w, lang))
			}
			out = append(out, f)
			continue
		}
		for _, k := range c.inputs {
			f.Fields = append(f.Fields, field(s.inputs[k], lang))
		}
		out = append(out, f)
	}
	return out
}

func field(in *Input, lang string) Field {
	fd := Field{Key: in.Key, Kind: in.Type, Label: in.Names.In(lang), Default: in.Default, Optional: in.Optional, Suffixes: in.Suffixes}
	fd.Suggest = in.Suggest
	if in.Min != nil {
		fd.Min, fd.Max = *in.Min, *in.Max
	}
	for _, n := range in.Named {
		fd.Choices = append(fd.Choices, FormChoice{Value: n.Value, Key: n.Key, Label: n.Names.In(lang)})
	}
	for _, p := range in.Parts {
		fd.Parts = append(fd.Parts, Field{Key: p.Key, Kind: "number", Label: p.Names.In(lang), Min: p.Min, Max: p.Max})
	}
	if in.Type == "flag" {
		fd.Words = in.Keywords
	} else {
		fd.Words = in.Prefixes
	}
	return fd
}

// Named is an input's named values, as the file declares them.
func (s *System) Named(input string) []NamedValue {
	if in := s.inputs[input]; in != nil {
		return in.Named
	}
	return nil
}

// wordField is a check form's field: its input's named values, each
// written as its name in lang with hyphens for spaces.
func (s *System) wordField(w FormWord, lang string) Field {
	in := s.inputs[w.Input]
	fd := Field{Key: in.Key, Kind: "word", Label: in.Names.In(lang)}
	if w.Names != nil {
		fd.Label = w.Names.In(lang)
	}
	if w.Before != nil {
		fd.Before = w.Before.In(lang)
	}
	for _, n := range in.Named {
		name := n.Names.In(lang)
		c := FormChoice{Value: n.Value, Key: n.Key, Label: name, Word: strings.ReplaceAll(strings.TrimSpace(name), " ", "-")}
		if g := w.Group; g != nil {
			if v, ok := s.Cell(g.Table, n.Value, g.Column); ok && v.IsInt() && v.Num().IsInt64() {
				if i := v.Num().Int64(); i >= 1 && i <= int64(len(g.Names)) {
					c.Group = g.Names[i-1].In(lang)
				}
			}
		}
		fd.Choices = append(fd.Choices, c)
	}
	return fd
}

// checkForm checks a check's form: each field a number input with named
// values, whose names are one word once hyphenated; its labels in the
// three languages; its groups a table's column numbering them.
func (s *System) checkForm(def *Check) error {
	if def.Form == nil {
		return nil
	}
	if len(def.Form.Fields) == 0 {
		return fileErr(0, "check %s: a form with no fields", def.Key)
	}
	for _, w := range def.Form.Fields {
		in := s.inputs[w.Input]
		if in == nil || in.Type != "number" || len(in.Named) == 0 {
			return fileErr(0, "check %s: form field %q is no number input with named values", def.Key, w.Input)
		}
		for _, n := range []*Names{w.Names, w.Before} {
			if n != nil {
				if err := checkNames(*n, label("form field %s", w.Input)); err != nil {
					return err
				}
			}
		}
		g := w.Group
		if g == nil {
			continue
		}
		if s.tables[g.Table] == nil || !s.tables[g.Table].twoD || len(g.Names) == 0 {
			return fileErr(0, "form field %s: group by a table of rows and columns and its names", w.Input)
		}
		for _, n := range g.Names {
			if err := checkNames(n, label("form field %s's group", w.Input)); err != nil {
				return err
			}
		}
		for _, n := range in.Named {
			v, ok := s.Cell(g.Table, n.Value, g.Column)
			if !ok || !v.IsInt() || v.Num().Int64() < 1 || v.Num().Int64() > int64(len(g.Names)) {
				return fileErr(0, "form field %s: %s's group is no number of 1..%d in %s", w.Input, n.Key, len(g.Names), g.Table)
			}
		}
	}
	return nil
}
