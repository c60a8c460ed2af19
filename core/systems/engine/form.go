package engine

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
	Kind     string // number, flag, terms
	Label    string
	Min, Max int
	Default  *int // nil: none (an optional input starts empty)
	Suggest  *int // where a form starts an optional input (nil: empty)
	Optional bool
	Choices  []FormChoice // named values, in the file's order
	Parts    []Field      // a terms input's parts (sheet keys or numbers)
	Words    []string     // how the chat types it: a prefix or a flag's keyword
	Suffixes []string     // a tagged count's tags: 2s, 1i
}

// FormChoice is a named value of a number input.
type FormChoice struct {
	Value int
	Key   string
	Label string
}

// Forms returns the form of each check of the system, in lang.
func (s *System) Forms(lang string) []Form {
	var out []Form
	for _, c := range s.checks {
		f := Form{System: s.File.System, Check: c.def.Key, Title: c.def.Names.In(lang), Opposed: c.opposed}
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
