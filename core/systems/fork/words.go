package fork

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/systems/engine"
)

// named reports whether w names key or one of its names in any language.
func named(w, key string, n engine.Names) bool {
	k := fold.Key(w)
	return k == fold.Key(key) || k == fold.Key(n.ES) || k == fold.Key(n.EL) || k == fold.Key(n.EN)
}

// readChange reads what to change in s: "pifia 95", "tabla 7 3 60",
// "tabla pct 7 3 60", "nombre fumble Desastre", "regla zaria media_alta",
// and withNamed, a named value: "media 14", "cd media 14".
func readChange(req *command.Request, s *engine.System, ws []string, withNamed bool) (Change, error) {
	ex, _ := editExample(req, s)
	usage := command.Errorf("fork.err.what", "example", ex)
	if len(ws) < 2 {
		return Change{}, usage
	}
	f := s.File
	switch {
	case is(ws[0], wTable):
		if len(f.Tables) == 0 {
			return Change{}, command.Errorf("fork.err.no_tables")
		}
		t, rest := f.Tables[0], ws[1:]
		for _, x := range f.Tables {
			if strings.ToLower(rest[0]) == x.Key {
				t, rest = x, rest[1:]
			}
		}
		if t.Cols == nil && len(rest) == 2 {
			rest = []string{rest[0], "1", rest[1]}
		}
		if len(rest) != 3 {
			return Change{}, usage
		}
		r, err1 := strconv.Atoi(rest[0])
		c, err2 := strconv.Atoi(rest[1])
		if err1 != nil || err2 != nil {
			return Change{}, usage
		}
		if t.Cols == nil {
			c = 0
		}
		return Change{Kind: KindCell, Key: t.Key, Row: r, Col: c, Value: rest[2]}, nil
	case is(ws[0], wName):
		if len(ws) < 3 {
			return Change{}, usage
		}
		// The outcome by its key or its name, in as many words as it
		// has, the longest first ("fallo bestial Bestia" renames the
		// bestial failure, not the failure); the rest is its new name.
		for end := len(ws) - 1; end >= 2; end-- {
			for _, o := range f.Outcomes {
				if !named(strings.Join(ws[1:end], " "), o.Key, o.Names) {
					continue
				}
				v := strings.Join(ws[end:], " ")
				if n := utf8.RuneCountInString(v); n > MaxNameRune {
					return Change{}, command.Errorf("fork.err.name_long", "max", MaxNameRune, "got", n)
				}
				return Change{Kind: KindName, Key: o.Key, Lang: req.Lang, Value: v}, nil
			}
		}
		return Change{}, command.Errorf("fork.err.unknown", "name", fold.Cut(ws[1], 32))
	case is(ws[0], wBand):
		// The outcome may be named in words: "banda éxito total 11".
		if len(ws) < 3 {
			return Change{}, usage
		}
		what := strings.Join(ws[1:len(ws)-1], " ")
		ws = []string{ws[0], what, ws[len(ws)-1]}
		for _, o := range f.Outcomes {
			if !named(ws[1], o.Key, o.Names) {
				continue
			}
			if bandOf(&f, o.Key) == nil {
				return Change{}, command.Errorf("fork.err.no_band", "name", o.Names.In(req.Lang))
			}
			v, err := strconv.Atoi(strings.TrimPrefix(ws[2], "+"))
			if err != nil || v < -MaxBound || v > MaxBound {
				return Change{}, command.Errorf("fork.err.range", "name", o.Names.In(req.Lang), "min", -MaxBound, "max", MaxBound, "got", fold.Cut(ws[2], 12))
			}
			return Change{Kind: KindBand, Key: o.Key, Value: strconv.Itoa(v)}, nil
		}
		return Change{}, command.Errorf("fork.err.unknown", "name", fold.Cut(ws[1], 32))
	case is(ws[0], wRule):
		if len(ws) != 3 {
			return Change{}, usage
		}
		for _, h := range f.HouseRules {
			if !named(ws[1], h.Key, h.Names) {
				continue
			}
			for _, ch := range h.Choices {
				if named(ws[2], ch.Key, ch.Names) {
					return Change{Kind: KindRule, Key: h.Key, Value: ch.Key}, nil
				}
			}
			return Change{}, command.Errorf("fork.err.choice", "name", h.Names.In(req.Lang), "got", fold.Cut(ws[2], 32))
		}
		return Change{}, command.Errorf("fork.err.unknown", "name", fold.Cut(ws[1], 32))
	}
	// A number by its key or its name, in words ("éxito automático 10"),
	// then its value.
	what, val := strings.Join(ws[:len(ws)-1], " "), ws[len(ws)-1]
	for _, n := range f.Numbers {
		if named(what, n.Key, n.Names) {
			v, err := strconv.Atoi(strings.TrimPrefix(val, "+"))
			if err != nil || v < n.Min || v > n.Max {
				return Change{}, command.Errorf("fork.err.range", "name", n.Names.In(req.Lang), "min", n.Min, "max", n.Max, "got", fold.Cut(val, 12))
			}
			return Change{Kind: KindNumber, Key: n.Key, Value: strconv.Itoa(v)}, nil
		}
	}
	if withNamed {
		if c, ok, err := readNamed(req, &f, what, val); ok {
			return c, err
		}
	}
	return Change{}, command.Errorf("fork.err.unknown", "name", fold.Cut(what, 32))
}

// readNamed reads a named value of one of f's inputs by its key or its
// name, after the input's name or prefix or not ("media", "cd media"),
// and its new number, within the input's range and its neighbours'.
func readNamed(req *command.Request, f *engine.File, what, val string) (Change, bool, error) {
	for _, in := range f.Inputs {
		w := what
		if first, rest, ok := strings.Cut(what, " "); ok && (named(first, in.Key, in.Names) || slices.ContainsFunc(in.Prefixes, func(p string) bool { return fold.Key(p) == fold.Key(first) })) {
			w = rest
		}
		for _, nv := range in.Named {
			if !named(w, nv.Key, nv.Names) {
				continue
			}
			_, lo, hi := namedOf(f, in.Key, nv.Key)
			v, err := strconv.Atoi(strings.TrimPrefix(val, "+"))
			if err != nil || v < lo || v > hi {
				return Change{}, true, command.Errorf("fork.err.range", "name", nv.Names.In(req.Lang), "min", lo, "max", hi, "got", fold.Cut(val, 12))
			}
			return Change{Kind: KindNamed, Key: in.Key, Named: nv.Key, Value: strconv.Itoa(v)}, true, nil
		}
	}
	return Change{}, false, nil
}

// describe is what c changes and its value in s: "pifia 0",
// "tabla pct 7·3: 40", "Pifia", "zaria: media baja".
func describe(tx Texts, s *engine.System, c Change) string {
	f := s.File
	switch c.Kind {
	case KindNumber:
		for _, n := range f.Numbers {
			if n.Key == c.Key {
				if n.Value == 0 && n.Min == 0 {
					return n.Names.In(tx.Lang) + ": " + tx.T("fork.book")
				}
				return n.Names.In(tx.Lang) + " " + strconv.Itoa(n.Value)
			}
		}
	case KindCell:
		return tx.T("fork.word.table") + " " + c.Key + " " + strconv.Itoa(c.Row) + "·" + strconv.Itoa(c.Col) + ": " + cell(s, c)
	case KindName:
		return outcomeName(tx, s, c.Key)
	case KindBand:
		return tx.T("fork.word.band") + " " + outcomeName(tx, s, c.Key) + " " + bound(s, c.Key)
	case KindNamed:
		for _, in := range f.Inputs {
			if nv, _, _ := namedOf(&f, c.Key, c.Named); in.Key == c.Key && nv != nil {
				return in.Names.In(tx.Lang) + " " + nv.Names.In(tx.Lang) + " " + strconv.Itoa(nv.Value)
			}
		}
	case KindRule:
		for _, h := range f.HouseRules {
			if h.Key == c.Key {
				return h.Names.In(tx.Lang) + ": " + choiceName(tx, h, h.Default)
			}
		}
	}
	return c.Key
}

// valueText is c's value as s has it now.
func valueText(tx Texts, s *engine.System, c Change) string {
	switch c.Kind {
	case KindCell:
		return cell(s, c)
	case KindName:
		return outcomeName(tx, s, c.Key)
	case KindBand:
		return bound(s, c.Key)
	case KindRule:
		for _, h := range s.File.HouseRules {
			if h.Key == c.Key {
				return choiceName(tx, h, c.Value)
			}
		}
	}
	return c.Value
}

func cell(s *engine.System, c Change) string {
	for _, t := range s.File.Tables {
		if t.Key != c.Key {
			continue
		}
		r, col := cellAt(&t, c)
		if r >= 0 && r < len(t.Cells) && col >= 0 && col < len(t.Cells[r]) {
			return t.Cells[r][col]
		}
	}
	return "?"
}

func choiceName(tx Texts, h engine.HouseRule, k string) string {
	for _, ch := range h.Choices {
		if ch.Key == k {
			return ch.Names.In(tx.Lang)
		}
	}
	return k
}

// bound is "≥5" or ">0": the bound of the first band of outcome.
func bound(s *engine.System, outcome string) string {
	f := s.File
	b := bandOf(&f, outcome)
	switch {
	case b == nil:
		return "?"
	case b.AtLeast != nil:
		return "≥" + *b.AtLeast
	}
	return ">" + *b.Above
}

// Texts are the catalogs' texts in one language: a chat's request's, or
// the page's.
type Texts struct {
	Lang string
	T    func(key string, kv ...any) string
}

func texts(req *command.Request) Texts { return Texts{Lang: req.Lang, T: req.T} }
