package engine

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/fold"
)

// A system's character sheet (docs/systems-format.md#sheet): the keys a
// new sheet of the system starts with, each named in the chat's language,
// and the development marks a check's outcome leaves on it.

// Limits of a sheet section. Each one has a message "engine.limit.<name>"
// in the es, el and en catalogs.
const (
	MaxSheetKeys   = 24 // keys a new sheet starts with
	MaxSheetName   = 24 // characters of a key's name
	MaxSheetValue  = 16 // characters of a key's starting value
	MaxMarks       = 8  // marks of a file
	MaxMarkPoints  = 99 // points one mark may hold
	MaxMarkAddStep = 10 // points one roll may add
)

// SheetKinds are the kinds a sheet key may have: a check's input reads
// them by kind (RQ's characteristics are multiplied: /rq con x5).
var SheetKinds = []string{"stat", "skill", "characteristic", "capacity", "text"}

// Sheet is a file's sheet section.
type Sheet struct {
	Keys  []SheetKey `yaml:"keys"`
	Marks []Mark     `yaml:"marks,omitempty"`
}

// SheetKey is one value a new sheet of the system starts with: its name
// in the chat's language, its starting value, and the range a number
// must stay in (none for text).
type SheetKey struct {
	Key   string `yaml:"key"`
	Kind  string `yaml:"kind"`
	Names Names  `yaml:"names"`
	Value string `yaml:"value"`
	Min   *int   `yaml:"min,omitempty"`
	Max   *int   `yaml:"max,omitempty"`
}

// Mark is a development mark: when check gives one of outcomes, the
// sheet value the input on names (a terms input's part as
// "input.part") gets add points, at most max (1: a tick, RQ's «marcará
// la habilidad»; more: Ζαριά's skill progression points).
type Mark struct {
	Check    string   `yaml:"check"`
	Outcomes []string `yaml:"outcomes"`
	On       string   `yaml:"on"`
	Add      int      `yaml:"add,omitempty"` // 1 by default
	Max      int      `yaml:"max,omitempty"` // MaxMarkPoints by default
}

// SheetKeys are the keys a new sheet of the system starts with (none
// when the file declares no sheet).
func (s *System) SheetKeys() []SheetKey {
	if s.File.Sheet == nil {
		return nil
	}
	return s.File.Sheet.Keys
}

// HasSheet reports whether a character sheet may belong to the system:
// its file declares a sheet section, or its checks read a sheet value (a
// terms input, an input with sheet: true: Daegon's NH) or write one
// (sets: Dungeon Hack's usage die).
func (s *System) HasSheet() bool {
	if s.File.Sheet != nil {
		return true
	}
	for _, in := range s.File.Inputs {
		if in.Sheet || in.Type == "terms" {
			return true
		}
	}
	for _, c := range s.File.Checks {
		if len(c.Sets) > 0 {
			return true
		}
	}
	return false
}

// SheetSystems are the shipped systems a sheet may belong to (HasSheet),
// in the bot's order (Listed).
func SheetSystems() []string {
	var out []string
	for _, k := range Listed() {
		if MustBuiltin(k).HasSheet() {
			out = append(out, k)
		}
	}
	return out
}

// MarksFor are the marks a check's outcome leaves, each with Add and Max
// set.
func (s *System) MarksFor(check, outcome string) []Mark {
	if s.File.Sheet == nil {
		return nil
	}
	var out []Mark
	for _, m := range s.File.Sheet.Marks {
		if m.Check != check {
			continue
		}
		for _, o := range m.Outcomes {
			if o == outcome {
				out = append(out, m.filled())
				break
			}
		}
	}
	return out
}

func (m Mark) filled() Mark {
	if m.Add == 0 {
		m.Add = 1
	}
	if m.Max == 0 {
		m.Max = MaxMarkPoints
	}
	return m
}

// compileSheet checks the sheet section against the file's checks,
// outcomes and inputs, and its limits.
func (s *System) compileSheet() error {
	for i := range s.File.Checks {
		if err := s.checkSets(&s.File.Checks[i]); err != nil {
			return at(err, s.File.Checks[i].Key)
		}
	}
	sh := s.File.Sheet
	if sh == nil {
		return nil
	}
	if len(sh.Keys) == 0 {
		return fileErr(0, "sheet: keys, at least one")
	}
	if len(sh.Keys) > MaxSheetKeys {
		return limitErr("sheet_keys", MaxSheetKeys, len(sh.Keys))
	}
	seen := map[string]bool{}
	names := map[string]string{}
	for _, k := range sh.Keys {
		if err := s.checkSheetKey(k, seen, names); err != nil {
			return at(err, k.Key)
		}
	}
	if len(sh.Marks) > MaxMarks {
		return limitErr("marks", MaxMarks, len(sh.Marks))
	}
	for i, m := range sh.Marks {
		if err := s.checkMark(m); err != nil {
			return at(err, "mark "+strconv.Itoa(i+1))
		}
	}
	return nil
}

func (s *System) checkSheetKey(k SheetKey, seen map[string]bool, names map[string]string) error {
	if !keyRE.MatchString(k.Key) {
		return fileErr(0, "sheet: a key of a-z, 0-9 and _, got %q", k.Key)
	}
	if seen[k.Key] {
		return fileErr(0, "sheet: key %q twice", k.Key)
	}
	seen[k.Key] = true
	if !kindKnown(k.Kind) {
		return fileErr(0, "sheet %s: kind one of %s, got %q", k.Key, strings.Join(SheetKinds, ", "), k.Kind)
	}
	if err := checkNames(k.Names, label("sheet %s", k.Key)); err != nil {
		return err
	}
	for _, n := range []string{k.Names.ES, k.Names.EL, k.Names.EN} {
		if c := utf8.RuneCountInString(n); c > MaxSheetName {
			return limitErr("sheet_name", MaxSheetName, c)
		}
		if !sheetWord(n) {
			return fileErr(0, "sheet %s: a name of letters and digits (a sheet value's name), got %q", k.Key, n)
		}
		// One name, folded, names one key: "con" cannot be two values.
		f := strings.ToLower(n)
		if other, ok := names[f]; ok && other != k.Key {
			return fileErr(0, "sheet %s: the name %q is %s's already", k.Key, n, other)
		}
		names[f] = k.Key
	}
	if c := utf8.RuneCountInString(k.Value); c > MaxSheetValue {
		return limitErr("sheet_value", MaxSheetValue, c)
	}
	if (k.Min == nil) != (k.Max == nil) {
		return fileErr(0, "sheet %s: min and max together", k.Key)
	}
	if k.Min == nil {
		return nil
	}
	if *k.Min > *k.Max {
		return fileErr(0, "sheet %s: min %d above max %d", k.Key, *k.Min, *k.Max)
	}
	v, err := strconv.Atoi(k.Value)
	if err != nil || v < *k.Min || v > *k.Max {
		return fileErr(0, "sheet %s: value %q: a number from %d to %d", k.Key, k.Value, *k.Min, *k.Max)
	}
	return nil
}

func kindKnown(kind string) bool {
	for _, k := range SheetKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// sheetWord is what a sheet value's name may be typed as: letters,
// digits, marks, "-" and "_".
func sheetWord(n string) bool {
	for _, r := range n {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '-' && r != '_' {
			return false
		}
	}
	return n != ""
}

func (s *System) checkMark(m Mark) error {
	var c *Check
	for i := range s.File.Checks {
		if s.File.Checks[i].Key == m.Check {
			c = &s.File.Checks[i]
		}
	}
	if c == nil {
		return fileErr(0, "sheet mark: no check %q", m.Check)
	}
	if len(m.Outcomes) == 0 {
		return fileErr(0, "sheet mark of %s: outcomes, at least one", m.Check)
	}
	for _, o := range m.Outcomes {
		if s.outcomes[o] == nil {
			return fileErr(0, "sheet mark of %s: no outcome %q among outcomes", m.Check, o)
		}
	}
	in, part, _ := strings.Cut(m.On, ".")
	found := false
	for _, k := range c.Inputs {
		found = found || k == in
	}
	if !found {
		return fileErr(0, "sheet mark of %s: on %q is no input of the check", m.Check, m.On)
	}
	if part != "" {
		ok := false
		for _, p := range s.inputs[in].Parts {
			ok = ok || p.Key == part
		}
		if !ok {
			return fileErr(0, "sheet mark of %s: input %s has no part %q", m.Check, in, part)
		}
	}
	if m.Add < 0 || m.Add > MaxMarkAddStep {
		return limitErr("mark_add", MaxMarkAddStep, m.Add)
	}
	if m.Max < 0 || m.Max > MaxMarkPoints {
		return limitErr("mark_points", MaxMarkPoints, m.Max)
	}
	return nil
}

// Set writes a value of a check's result on the sheet: when the check
// gives one of outcomes, the sheet value the roll read for the input on
// becomes the let to, written as write with "{to}" replaced by its
// value ("d{after}": d8); a 0 is written as zero instead, when given
// (Dungeon Hack's spent usage die, "agotado").
type Set struct {
	Outcomes []string  `yaml:"outcomes"`
	On       string    `yaml:"on"`
	To       string    `yaml:"to"`
	Write    string    `yaml:"write,omitempty"` // "{to}" by default
	Zero     *SetWords `yaml:"zero,omitempty"`
}

// SetWords is a word written on the sheet (text, the same in every
// language, as the sheet keeps it) and shown in the chat's language
// (names); also are other spellings a sheet may hold for it, read as it
// and never written (Dungeon Hack's "agotada", "0", "-").
type SetWords struct {
	Text  string   `yaml:"text"`
	Names Names    `yaml:"names"`
	Also  []string `yaml:"also,omitempty"`
}

// MaxSets is how many sets a check may declare, MaxZeroAlso how many other
// spellings a zero has (their messages: "engine.limit.sets",
// "engine.limit.zero_also").
const (
	MaxSets     = 4
	MaxZeroAlso = 8
)

// ReadsZero reports whether a sheet value v, read for check's input on,
// is the zero a set of the check writes there: its text, its name in any
// language or another of its spellings, without case or accents
// (Dungeon Hack's spent usage die: "agotado", "Exhausted", "εξαντλημένη").
func (s *System) ReadsZero(check, on, v string) bool {
	c, err := s.check(check)
	if err != nil {
		return false
	}
	k := zeroKey(v)
	if k == "" {
		return false
	}
	for _, st := range c.def.Sets {
		z := st.Zero
		if st.On != on || z == nil {
			continue
		}
		for _, w := range append([]string{z.Text, z.Names.ES, z.Names.EL, z.Names.EN}, z.Also...) {
			if zeroKey(w) == k {
				return true
			}
		}
	}
	return false
}

// zeroKey is a spelling without case or accents; a sign alone ("-"),
// which folding drops, as written.
func zeroKey(w string) string {
	return cmp.Or(fold.Key(w), strings.TrimSpace(w))
}

// SheetWrite is one value a result writes on the sheet: the sheet value
// the roll read for the input On gets Text, shown as Shown in the
// chat's language (Text itself when Shown is nil).
type SheetWrite struct {
	On    string
	Text  string
	Shown *Names
}

// WritesFor are the values res writes on the sheet, by its check's sets.
func (s *System) WritesFor(res *Result) []SheetWrite {
	c, err := s.check(res.Check)
	if err != nil {
		return nil
	}
	var out []SheetWrite
	for _, st := range c.def.Sets {
		if !slices.Contains(st.Outcomes, res.Outcome) {
			continue
		}
		v, ok := res.Values[st.To]
		if !ok || v == nil {
			continue
		}
		if v.Sign() == 0 && st.Zero != nil {
			out = append(out, SheetWrite{On: st.On, Text: st.Zero.Text, Shown: &st.Zero.Names})
			continue
		}
		n := v.RatString()
		w := cmp.Or(st.Write, "{"+st.To+"}")
		out = append(out, SheetWrite{On: st.On, Text: strings.ReplaceAll(w, "{"+st.To+"}", n)})
	}
	return out
}

// checkSets checks a check's sets against its outcomes, inputs and lets.
func (s *System) checkSets(c *Check) error {
	if len(c.Sets) > MaxSets {
		return limitErr("sets", MaxSets, len(c.Sets))
	}
	for i, st := range c.Sets {
		if err := s.checkSet(c, st); err != nil {
			return at(err, "set "+strconv.Itoa(i+1))
		}
	}
	return nil
}

func (s *System) checkSet(c *Check, st Set) error {
	if len(st.Outcomes) == 0 {
		return fileErr(0, "set of %s: outcomes, at least one", c.Key)
	}
	for _, o := range st.Outcomes {
		if s.outcomes[o] == nil {
			return fileErr(0, "set of %s: no outcome %q among outcomes", c.Key, o)
		}
	}
	if !slices.Contains(c.Inputs, st.On) {
		return fileErr(0, "set of %s: on %q is no input of the check", c.Key, st.On)
	}
	let := false
	for _, step := range c.Steps {
		let = let || (step.Let != "" && step.Let == st.To)
	}
	if !let {
		return fileErr(0, "set of %s: to %q is no let of the check", c.Key, st.To)
	}
	if st.Write != "" && !strings.Contains(st.Write, "{"+st.To+"}") {
		return fileErr(0, "set of %s: write %q without {%s}, the value written", c.Key, st.Write, st.To)
	}
	if c := utf8.RuneCountInString(st.Write); c > MaxSheetValue {
		return limitErr("sheet_value", MaxSheetValue, c)
	}
	if z := st.Zero; z != nil {
		if z.Text == "" {
			return fileErr(0, "set of %s: zero: text, the word the sheet keeps", c.Key)
		}
		if n := utf8.RuneCountInString(z.Text); n > MaxSheetValue {
			return limitErr("sheet_value", MaxSheetValue, n)
		}
		if err := checkNames(z.Names, label("set of %s: zero", c.Key)); err != nil {
			return err
		}
		if len(z.Also) > MaxZeroAlso {
			return limitErr("zero_also", MaxZeroAlso, len(z.Also))
		}
		for _, w := range z.Also {
			if n := utf8.RuneCountInString(w); n > MaxSheetValue {
				return limitErr("sheet_value", MaxSheetValue, n)
			}
			if strings.TrimSpace(w) == "" {
				return fileErr(0, "set of %s: zero: also, a spelling with no text", c.Key)
			}
		}
	}
	return nil
}
