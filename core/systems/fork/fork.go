// Package fork is a chat's own rules (issue 34): a fork of a shipped
// system with a few of its numbers, table cells, outcome names or house
// rules changed, and a system file a GM sends to the chat. A fork is
// kept as its changes against the shipped file and built again from it:
// the book's vectors whose outcome a change moves are rewritten, so the
// fork is itself a file whose vectors hold (zaria system check passes
// it). An imported file is kept whole and its vectors must hold as
// written: they are its author's claim.
package fork

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"zaria/core/command"
	"zaria/core/systems/engine"
)

// Kinds of change.
const (
	KindNumber = "number" // Key: the number; Value: its new value
	KindCell   = "cell"   // Key: the table; Row, Col; Value: a number or "-"
	KindName   = "name"   // Key: the outcome; Lang; Value: its name
	KindRule   = "rule"   // Key: the house rule; Value: the chat's default choice
	KindBand   = "band"   // Key: the outcome of the first band with a bound; Value: its bound
	KindNamed  = "named"  // Key: the input; Named: its named value; Value: the number it names
)

// Change is one edit of a fork.
type Change struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Row   int    `json:"row,omitempty"`
	Col   int    `json:"col,omitempty"`
	Lang  string `json:"lang,omitempty"`
	Named string `json:"named,omitempty"`
	Value string `json:"value"`
}

// same reports whether c and d change the same thing (a later change
// replaces an earlier one).
func (c Change) same(d Change) bool {
	return c.Kind == d.Kind && c.Key == d.Key && c.Row == d.Row && c.Col == d.Col && c.Lang == d.Lang && c.Named == d.Named
}

// namedOf is input's named value key of f and the bounds a new value of
// it keeps: the input's range, and strictly between its neighbours when
// the named values ascend (the Ζαριά's tiers stay in order).
func namedOf(f *engine.File, input, key string) (nv *engine.NamedValue, lo, hi int) {
	for i := range f.Inputs {
		in := &f.Inputs[i]
		if in.Key != input || in.Min == nil || in.Max == nil {
			continue
		}
		lo, hi = *in.Min, *in.Max
		ns := in.Named
		up := slices.IsSortedFunc(ns, func(a, b engine.NamedValue) int { return a.Value - b.Value })
		for j := range ns {
			if ns[j].Key != key {
				continue
			}
			if up && j > 0 {
				lo = ns[j-1].Value + 1
			}
			if up && j+1 < len(ns) {
				hi = ns[j+1].Value - 1
			}
			return &ns[j], lo, hi
		}
	}
	return nil, 0, 0
}

// Fork is one of a chat's systems: a fork of the shipped system Base
// (Changes), or a file the chat imported (Source; Base "").
type Fork struct {
	Key     string // the chat's name for it: Base for a fork, the file's key for an own system
	Base    string
	Changes []Change
	Source  []byte
	Updated time.Time
}

// Own reports whether f is an imported file rather than a fork.
func (f Fork) Own() bool { return f.Base == "" }

// Limits.
const (
	MaxPerChat  = 8  // forks and own systems of one chat
	MaxChanges  = 64 // changes of one fork
	MaxNameRune = 40 // an outcome's name
	MaxBound    = 1_000_000
)

// bandOf is the first band of f's checks giving outcome with a bound
// (at_least or above), or nil.
func bandOf(f *engine.File, outcome string) *engine.Band {
	for i := range f.Checks {
		bs := f.Checks[i].Result.Bands
		for j := range bs {
			if bs[j].Outcome == outcome && (bs[j].AtLeast != nil || bs[j].Above != nil) {
				return &bs[j]
			}
		}
	}
	return nil
}

// with returns f's changes with c added, replacing one of the same thing.
func (f Fork) with(c Change) (Fork, error) {
	out := f
	out.Changes = nil
	for _, d := range f.Changes {
		if !d.same(c) {
			out.Changes = append(out.Changes, d)
		}
	}
	if len(out.Changes) >= MaxChanges {
		return f, command.Errorf("fork.err.changes", "max", MaxChanges)
	}
	out.Changes = append(out.Changes, c)
	return out, nil
}

// copyFile is a deep copy of a file.
func copyFile(f engine.File) (engine.File, error) {
	b, err := yaml.Marshal(&f)
	if err != nil {
		return engine.File{}, err
	}
	var out engine.File
	err = yaml.Unmarshal(b, &out)
	return out, err
}

// apply makes change c in file f, refusing a value out of its range; a
// refusal names what it refuses as the file names it in lang.
func apply(f *engine.File, c Change, lang string) error {
	switch c.Kind {
	case KindNumber:
		for i := range f.Numbers {
			n := &f.Numbers[i]
			if n.Key != c.Key {
				continue
			}
			v, err := strconv.Atoi(c.Value)
			if err != nil || v < n.Min || v > n.Max {
				return command.Errorf("fork.err.range", "name", n.Names.In(lang), "min", n.Min, "max", n.Max, "got", c.Value)
			}
			n.Value = v
			return nil
		}
	case KindCell:
		for i := range f.Tables {
			t := &f.Tables[i]
			if t.Key != c.Key {
				continue
			}
			r, col := cellAt(t, c)
			if r < 0 || r >= len(t.Cells) || col < 0 || col >= len(t.Cells[r]) {
				cmax := 1
				if t.Cols != nil {
					cmax = t.Cols.To
				}
				return command.Errorf("fork.err.cell", "table", c.Key, "rows", fmt.Sprintf("%d–%d", t.Rows.From, t.Rows.To), "cols", cmax)
			}
			if c.Value != "-" {
				v, err := strconv.Atoi(c.Value)
				if err != nil {
					return command.Errorf("fork.err.cell_value", "got", c.Value)
				}
				if len(t.Bounds) > 0 {
					b := t.Bounds[min(col, len(t.Bounds)-1)]
					if v < b.Min || v > b.Max {
						return command.Errorf("fork.err.range", "name", fmt.Sprintf("%s %d·%d", c.Key, c.Row, c.Col), "min", b.Min, "max", b.Max, "got", c.Value)
					}
				}
			}
			t.Cells[r][col] = c.Value
			return nil
		}
	case KindName:
		for i := range f.Outcomes {
			o := &f.Outcomes[i]
			if o.Key != c.Key {
				continue
			}
			switch c.Lang {
			case "es":
				o.Names.ES = c.Value
			case "el":
				o.Names.EL = c.Value
			default:
				o.Names.EN = c.Value
			}
			return nil
		}
	case KindBand:
		if b := bandOf(f, c.Key); b != nil {
			v, err := strconv.Atoi(c.Value)
			if err != nil || v < -MaxBound || v > MaxBound {
				return command.Errorf("fork.err.range", "name", outcomeIn(f, c.Key, lang), "min", -MaxBound, "max", MaxBound, "got", c.Value)
			}
			if b.AtLeast != nil {
				b.AtLeast = &c.Value
			} else {
				b.Above = &c.Value
			}
			return nil
		}
	case KindNamed:
		if nv, lo, hi := namedOf(f, c.Key, c.Named); nv != nil {
			v, err := strconv.Atoi(c.Value)
			if err != nil || v < lo || v > hi {
				return command.Errorf("fork.err.range", "name", nv.Names.In(lang), "min", lo, "max", hi, "got", c.Value)
			}
			nv.Value = v
			return nil
		}
	case KindRule:
		for i := range f.HouseRules {
			h := &f.HouseRules[i]
			if h.Key != c.Key {
				continue
			}
			for _, ch := range h.Choices {
				if ch.Key == c.Value {
					h.Default = c.Value
					return nil
				}
			}
			return command.Errorf("fork.err.choice", "name", h.Names.In(lang), "got", c.Value)
		}
	}
	return command.Errorf("fork.err.unknown", "name", c.Key)
}

// outcomeIn is outcome k's name in f in lang, or k.
func outcomeIn(f *engine.File, k, lang string) string {
	for _, o := range f.Outcomes {
		if o.Key == k {
			return o.Names.In(lang)
		}
	}
	return k
}

// Moved is a book's vector whose outcome a fork changes.
type Moved struct {
	Vector   string
	Old, New string // outcome keys, or chances as fractions
}

// Build makes the fork's system from its base: each change applied in
// order, then every vector replayed and rewritten where the rules moved
// it. The error is a *command.UserError (a value out of range, naming it
// in lang) or an *engine.Error (a file no longer valid: a band that
// cannot be reached, a table with a hole, a limit).
func Build(base *engine.System, changes []Change, lang string) (*engine.System, []Moved, error) {
	f, err := copyFile(base.File)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range changes {
		if err := apply(&f, c, lang); err != nil {
			return nil, nil, err
		}
	}
	vectors := f.Vectors
	f.Vectors = nil
	src, err := yaml.Marshal(&f)
	if err != nil {
		return nil, nil, err
	}
	bare, err := engine.Load(src)
	if err != nil {
		return nil, nil, err
	}
	var moved []Moved
	for i := range vectors {
		v := &vectors[i]
		got, err := bare.Replay(*v)
		if err != nil {
			return nil, nil, err
		}
		if v.Expect.Outcome != nil && got.Outcome != nil && *v.Expect.Outcome != *got.Outcome {
			moved = append(moved, Moved{Vector: v.Name, Old: *v.Expect.Outcome, New: *got.Outcome})
		} else if v.Expect.Chance != "" && v.Expect.Chance != got.Chance {
			moved = append(moved, Moved{Vector: v.Name, Old: v.Expect.Chance, New: got.Chance})
		}
		v.Expect = got
	}
	f.Vectors = vectors
	if src, err = yaml.Marshal(&f); err != nil {
		return nil, nil, err
	}
	s, err := engine.Load(src)
	if err != nil {
		return nil, nil, err
	}
	return s, moved, nil
}

// Check reports whether f is a fork or own file /sistema would keep: an
// own file that loads (every vector holding), or a fork of a shipped
// system whose changes build (an import checks what it restores so).
func Check(f Fork) error {
	if f.Own() {
		s, err := engine.Load(f.Source)
		if err == nil && s.File.System != f.Key {
			err = fmt.Errorf("own file %q declares %q", f.Key, s.File.System)
		}
		return err
	}
	if f.Key != f.Base {
		return fmt.Errorf("fork %q of %q", f.Key, f.Base)
	}
	bs, ok := base(f.Base)
	if !ok {
		return fmt.Errorf("no shipped system %q", f.Base)
	}
	if len(f.Changes) > MaxChanges {
		return fmt.Errorf("%d changes", len(f.Changes))
	}
	_, _, err := Build(bs, f.Changes, "en")
	return err
}

// cellAt is where change c's cell is in t.Cells: [row][column] of a 2-D
// table; a 1-D table's cells are its one row, indexed by c.Row.
func cellAt(t *engine.Table, c Change) (r, col int) {
	if t.Cols == nil {
		return 0, c.Row - t.Rows.From
	}
	return c.Row - t.Rows.From, c.Col - t.Cols.From
}
