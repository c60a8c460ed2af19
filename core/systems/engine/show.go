package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/fold"
)

// How a reply writes a system's roll, and its development phase
// (docs/systems-format.md#show): the file's example, show and
// development sections, checked when the file is loaded, and what the
// chat commands read of them. No catalog key names a system: a file
// writes its own words, in es, el and en.

// Limits of the show, example and development sections. Each one has a
// message "engine.limit.<name>" in the es, el and en catalogs.
const (
	MaxShowFaces = 64 // faces given a text
	MaxShowList  = 8  // separators; values --json gives by name
	MaxShowText  = 40 // characters of a face's text, a separator, a text, an example, a word
)

// jsonTaken are the names --json gives already: a file's value may not
// take one.
var jsonTaken = []string{"system", "outcome", "dice", "total", "chance", "chance_exact", "approx", "level", "winner",
	"table", "row", "deck", "cards", "left", "pick", "mean", "text", "file", "distribution", "error"}

// compileShow checks the example, show and development sections
// against the file's checks, pools, lets and inputs, and their limits.
func (s *System) compileShow() error {
	f := &s.File
	if f.Example != nil {
		if err := s.checkExample(*f.Example); err != nil {
			return at(err, "example")
		}
	}
	if f.Show != nil {
		if err := s.checkShow(f.Show); err != nil {
			return at(err, "show")
		}
	}
	if f.Development != nil {
		if err := s.checkDevelopment(f.Development); err != nil {
			return at(err, "development")
		}
	}
	return nil
}

// showText checks one text a reply writes: not empty, one line, at most
// MaxShowText characters.
func showText(what, t string) error {
	if c := utf8.RuneCountInString(t); c > MaxShowText {
		return limitErr("show_text", MaxShowText, c)
	}
	if t == "" || strings.ContainsAny(t, "\n\r") {
		return fileErr(0, "%s: a text of one line, got %q", what, t)
	}
	return nil
}

func namesText(what string, n Names, hole bool) error {
	if err := checkNames(n, asTyped(what)); err != nil {
		return err
	}
	for _, t := range []string{n.ES, n.EL, n.EN} {
		if err := showText(what, t); err != nil {
			return err
		}
		if hole && strings.Count(t, "{n}") != 1 {
			return fileErr(0, "%s: {n} once, where the number goes, got %q", what, t)
		}
	}
	return nil
}

func (s *System) checkExample(ex Names) error {
	if err := namesText("example", ex, false); err != nil {
		return err
	}
	for _, t := range []string{ex.ES, ex.EL, ex.EN} {
		p, err := s.Parse(strings.Fields(t))
		if err == nil {
			err = s.exampleMeets(p) // require.go
		}
		if err != nil {
			return fileErr(0, "example: /%s %s is not a check the command reads (%v)", s.File.Command, t, err)
		}
	}
	return nil
}

func (s *System) checkShow(sh *Show) error {
	if len(sh.Faces) > MaxShowFaces {
		return limitErr("show_faces", MaxShowFaces, len(sh.Faces))
	}
	for v, t := range sh.Faces {
		if v < 1 || v > MaxFaces {
			return fileErr(0, "faces: a face from 1 to %d, got %d", MaxFaces, v)
		}
		if err := showText("faces", t); err != nil {
			return err
		}
	}
	if len(sh.Split) > MaxShowList {
		return limitErr("show_list", MaxShowList, len(sh.Split))
	}
	for _, sp := range sh.Split {
		if (sp.Before == "") == !sp.Sides {
			return fileErr(0, "split: either before (a pool) or sides: true")
		}
		if sp.Before != "" && !s.hasPool(sp.Before) {
			return fileErr(0, "split: no pool %q in any check", sp.Before)
		}
		if err := showText("split", sp.Text); err != nil {
			return err
		}
	}
	if t := sh.Total; t != nil && t.Text != nil {
		if err := namesText("total", *t.Text, true); err != nil {
			return err
		}
	}
	if l := sh.Level; l != nil && l.Text != nil {
		if err := namesText("level", *l.Text, true); err != nil {
			return err
		}
	}
	if len(sh.JSON) > MaxShowList {
		return limitErr("show_list", MaxShowList, len(sh.JSON))
	}
	if err := s.compileLayout(sh.Reply); err != nil { // layout.go
		return err
	}
	if err := s.compileJSONOutcomes(sh.JSONOutcome); err != nil {
		return err
	}
	if sh.Margin != "" && !s.hasLet(sh.Margin) {
		return fileErr(0, "margin: no let %q in any check", sh.Margin)
	}
	for i, k := range sh.JSON {
		switch {
		case slices.Contains(jsonTaken, k):
			return fileErr(0, "json: %q is a field --json gives already", k)
		case slices.Contains(sh.JSON[:i], k):
			return fileErr(0, "json: %q twice", k)
		case !s.hasLet(k) && !s.hasAlso(k):
			return fileErr(0, "json: no let or further result %q in any check", k)
		}
	}
	return nil
}

func (s *System) hasPool(k string) bool {
	for _, c := range s.checks {
		for _, p := range c.pools {
			if p.name == k {
				return true
			}
		}
	}
	return false
}

func (s *System) hasLet(k string) bool {
	for _, c := range s.checks {
		if _, ok := c.slots[k]; ok {
			return true
		}
	}
	return false
}

func (s *System) hasAlso(k string) bool {
	for _, c := range s.checks {
		for _, a := range c.also {
			if a.key == k {
				return true
			}
		}
	}
	return false
}

func (s *System) checkDevelopment(d *Development) error {
	c, err := s.check(d.Check)
	if err != nil || d.Check == "" {
		return fileErr(0, "development: no check %q", d.Check)
	}
	in, part, _ := strings.Cut(d.On, ".")
	def := s.inputs[in]
	if def == nil || !slices.Contains(c.inputs, in) || def.Type != "terms" {
		return fileErr(0, "development: on %q is no terms input of the check", d.On)
	}
	if part != "" && !slices.ContainsFunc(def.Parts, func(p Part) bool { return p.Key == part }) {
		return fileErr(0, "development: input %s has no part %q", in, part)
	}
	if !keyRE.MatchString(d.Keep) {
		return fileErr(0, "development: keep, a sheet value's name of a-z, 0-9 and _, got %q", d.Keep)
	}
	if err := namesText("development words", d.Words, false); err != nil {
		return err
	}
	if err := namesText("development example", d.Example, false); err != nil {
		return err
	}
	if len(d.Keywords) > MaxShowList {
		return limitErr("show_list", MaxShowList, len(d.Keywords))
	}
	for _, w := range append([]string{d.Words.ES, d.Words.EL, d.Words.EN}, d.Keywords...) {
		if err := showText("development keywords", w); err != nil {
			return err
		}
		if len(strings.Fields(w)) != 1 {
			return fileErr(0, "development: a word, got %q", w)
		}
	}
	if d.Roll < 2 || d.Roll > MaxFaces || d.Gain < 2 || d.Gain > MaxFaces {
		return limitErr("faces", MaxFaces, min(d.Roll, d.Gain))
	}
	if d.From < 1 || d.From > d.Roll {
		return fileErr(0, "development: from, a face of the roll (1 to %d), got %d", d.Roll, d.From)
	}
	return nil
}

// Example is a check's words in lang, as the command takes them ("" when
// the file gives none).
func (s *System) Example(lang string) string {
	if s.File.Example == nil {
		return ""
	}
	return s.File.Example.In(lang)
}

// DiceText writes a roll's dice as the file shows them: each face's text
// and, between two dice, the first separator that applies, else a space.
func (s *System) DiceText(res *Result) string { return s.diceText(res, 0, len(res.Dice)) }

// SideDiceText is DiceText of one side of an opposed roll (all the dice
// of a roll that is not opposed, as the active side's): each side's
// separators apply within its own dice (a split before its first pool
// is not written).
func (s *System) SideDiceText(res *Result, passive bool) string {
	from := passiveFrom(res)
	if passive {
		return s.diceText(res, from, len(res.Dice))
	}
	return s.diceText(res, 0, from)
}

// diceText writes the dice from..to-1 of res.
func (s *System) diceText(res *Result, from, to int) string {
	var sh Show
	if s.File.Show != nil {
		sh = *s.File.Show
	}
	splits := sh.Split
	if len(splits) == 0 {
		splits = []Split{{Sides: true, Text: " · "}}
	}
	var b strings.Builder
	for i := from; i < to; i++ {
		v := res.Dice[i]
		if i > from {
			b.WriteString(splitAt(splits, res, i))
		}
		if t, ok := sh.Faces[v]; ok {
			b.WriteString(t)
		} else {
			b.WriteString(strconv.Itoa(v))
		}
	}
	return b.String()
}

// splitAt is the separator before the i-th die (i > 0).
func splitAt(splits []Split, res *Result, i int) string {
	for _, sp := range splits {
		switch {
		case sp.Sides && i < len(res.Sides) && res.Sides[i] != res.Sides[i-1]:
			return sp.Text
		case sp.Before != "" && i < len(res.Pools) && res.Pools[i] == sp.Before && res.Pools[i-1] != sp.Before:
			return sp.Text
		}
	}
	return " "
}

// TotalText writes a check's total n in lang.
func (s *System) TotalText(n int, lang string) string {
	t := strconv.Itoa(n)
	sh := s.File.Show
	if sh == nil || sh.Total == nil {
		return t
	}
	if sh.Total.Signed {
		t = Signed(n)
	}
	if sh.Total.Text != nil {
		t = strings.Replace(sh.Total.Text.In(lang), "{n}", t, 1)
	}
	return t
}

// LevelText writes a level of success in lang, signed: the file's text,
// or "" when it gives none (the caller's own); shown is false when the
// file leaves a level of 0 out.
func (s *System) LevelText(level int, lang string) (text string, shown bool) {
	sh := s.File.Show
	if sh == nil || sh.Level == nil {
		return "", true
	}
	if sh.Level.HideZero && level == 0 {
		return "", false
	}
	if sh.Level.Text == nil {
		return "", true
	}
	return strings.Replace(sh.Level.Text.In(lang), "{n}", Signed(level), 1), true
}

// Signed is n with its sign, a minus sign (−) below 0: "+3", "0", "−2".
func Signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// AlsoNames are the names of a roll's further results, in lang, in the
// check's order.
func (s *System) AlsoNames(res *Result, lang string) []string {
	c, err := s.check(res.Check)
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range c.also {
		if o, ok := res.Also[a.key]; ok {
			out = append(out, s.OutcomeName(o, lang))
		}
	}
	return out
}

// JSONValues are the values the file's show gives --json by name: a
// let's whole value, a further result's outcome in lang; nil when none.
func (s *System) JSONValues(res *Result, lang string) map[string]any {
	if s.File.Show == nil {
		return nil
	}
	var out map[string]any
	for _, k := range s.File.Show.JSON {
		var v any
		if r, ok := res.Values[k]; ok && r.IsInt() {
			v = r.Num().Int64()
		} else if o, ok := res.Also[k]; ok {
			v = s.OutcomeName(o, lang)
		} else {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = v
	}
	return out
}

// Margin is the value --json gives as a roll's margin: the let the
// file's show names, when the roll has it.
func (s *System) Margin(res *Result) (float64, bool) {
	if s.File.Show == nil || s.File.Show.Margin == "" {
		return 0, false
	}
	r := res.Values[s.File.Show.Margin]
	if r == nil {
		return 0, false
	}
	f, _ := r.Float64()
	return f, true
}

// IsDevelopment reports whether word asks for the file's development
// phase (any case, accents or not).
func (s *System) IsDevelopment(word string) bool {
	d := s.File.Development
	if d == nil {
		return false
	}
	k := fold.Key(word)
	for _, w := range append([]string{d.Words.ES, d.Words.EL, d.Words.EN}, d.Keywords...) {
		if fold.Key(w) == k {
			return true
		}
	}
	return false
}

// Improves reports whether a development roll improves a value: over
// it, or at least the file's from.
func (d *Development) Improves(roll, value int) bool { return roll > value || roll >= d.From }
