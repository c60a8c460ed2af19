package engine

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A file's reply layout (docs/systems-format.md#reply): the lines a
// check's reply writes, each a row of styled spans, each span a row of
// parts: a text of no letters, a catalog message with its args, or one
// value written by a formatter. No loops and no scripting: a line, a span
// or a part is shown or left out by a condition (an expression over the
// inputs and the lets, the outcome, the winner), and a part that writes
// a pool's dice is left out when the pool rolled none. A file without a
// layout gets the plain look (core/systems rollFile).

// MaxReplyLines is how many lines a layout lists, MaxReplyParts how
// many parts a span (or a value made of parts) has; a line's spans and a
// message's args are at most MaxShowList each, a text at most
// MaxShowText characters.
const (
	MaxReplyLines = 32 // Dungeon Hack's file lays out seven sub-commands
	MaxReplyParts = 16
)

// ReplyLine is one line of the reply.
type ReplyLine struct {
	// If is an expression over the check's inputs and lets: the line is
	// written when it holds.
	If string `yaml:"if,omitempty"`
	// Outcome lists the outcomes the line is written for; "none" is a
	// roll with no outcome (no target given).
	Outcome []string `yaml:"outcome,omitempty"`
	// Winner is "active" or "passive": an opposed check's line for who won.
	Winner string `yaml:"winner,omitempty"`
	// Side "passive" writes an opposed check's passive side: its inputs,
	// lets, dice and words; "active" (the default) the roller's.
	Side string `yaml:"side,omitempty"`
	// Checks lists the checks the line is for; none: every check.
	Checks []string `yaml:"checks,omitempty"`
	// Missing lists inputs the line is for when the words did not give
	// them (Daegon's default difficulty); NotTimes, inputs not typed as
	// a characteristic × a multiplier.
	Missing  []string    `yaml:"missing,omitempty"`
	NotTimes []string    `yaml:"not_times,omitempty"`
	Spans    []ReplySpan `yaml:"spans"`
}

// ReplySpan is a run of text in one style: plain (the default), bold
// or italic.
type ReplySpan struct {
	Style string      `yaml:"style,omitempty"`
	If    string      `yaml:"if,omitempty"`
	Parts []ReplyPart `yaml:"parts"`
}

// ReplyPart is one of: text (no letters: "🎲 ", " · ", " = "), say (a
// catalog message, with args) or value (one value formatted); before
// and after (no letters) are written before and after it when it is
// written.
type ReplyPart struct {
	If string `yaml:"if,omitempty"`
	// Given and Missing: inputs the words gave, or did not; NotTimes:
	// inputs not typed as a characteristic × a multiplier (RQ's c14x5).
	Given    []string            `yaml:"given,omitempty"`
	Missing  []string            `yaml:"missing,omitempty"`
	NotTimes []string            `yaml:"not_times,omitempty"`
	Before   string              `yaml:"before,omitempty"`
	After    string              `yaml:"after,omitempty"`
	Text     string              `yaml:"text,omitempty"`
	Say      string              `yaml:"say,omitempty"`
	Args     map[string]ReplyArg `yaml:"args,omitempty"`
	Value    *ReplyArg           `yaml:"value,omitempty"`
}

// ReplyArg is a value a part writes: an expression's whole number (as
// "int", the default) or what a formatter writes (replyFormats).
type ReplyArg struct {
	As    string   `yaml:"as,omitempty"`
	Of    string   `yaml:"of,omitempty"`    // an expression, or an input's key
	Pools []string `yaml:"pools,omitempty"` // as dice: the pools whose faces it lists
	Sep   string   `yaml:"sep,omitempty"`   // as dice: between two faces (", ")
	Add   string   `yaml:"add,omitempty"`   // as command: a word added
	// Check (as command): that check's command as the user types
	// commands, not the command typed ("/dh uso", "!dh σπάσε").
	Check string `yaml:"check,omitempty"`
	// Parts make the value of parts written one after the other (no
	// parts inside them), as a span's.
	Parts []ReplyPart `yaml:"parts,omitempty"`
	// As named: a value between two named values is written by the
	// catalog message between (args low, high), one beyond the last by
	// above (arg name); without them, the name at or below.
	Between string `yaml:"between,omitempty"`
	Above   string `yaml:"above,omitempty"`
	// Exact (as named): only a value that is a named one has a name.
	Exact bool `yaml:"exact,omitempty"`
	// Cap (as named, or a value of parts): its first letter upper case,
	// as a line begins («Coraza: se hunde…», «Tu armadura: …»).
	Cap bool `yaml:"cap,omitempty"`
	// Say (as outcome, as named): the name is the catalog message
	// Say.KEY (RQ's rq.outcome.critical «¡Crítico!»), a chat's fork's own
	// name where it renamed the outcome.
	Say string `yaml:"say,omitempty"`
}

// replyFormats are the formatters and what each takes: an expression,
// an input with named values, an input, pools, nothing.
var replyFormats = map[string]string{
	"int":         "expr",    // a whole number: 12, -3 (a count: the catalog's plural)
	"half":        "expr",    // a whole or half number in the chat's language: 6, 6,5, 6.5
	"signed_half": "expr",    // the same with its sign: +1,5, −0,5, 0
	"number":      "expr",    // with the minus sign: −3
	"signed":      "expr",    // with its sign: +3, 0, −3
	"named":       "named",   // the name of the input's named value at or below it
	"typed":       "input",   // the input as typed: "fisico 6" from a sheet, "6"
	"dice":        "pools",   // the pools' faces, in rolling order
	"total":       "none",    // the check's total, as show.total writes it
	"outcome":     "outcome", // the outcome's name, or of's: an outcome's key
	"command":     "none",    // the command as typed, or check's, and add
	"name":        "name",    // a name the bot gives (a character's, a combatant's)
	"chance":      "chance",  // the exact chance of the check, in the chat's language: 28,49 %
	"percent":     "expr",    // a whole percentage in the chat's language: 38 %; "–" for impossible
	"d100":        "expr",    // a d100 roll in two digits at least: 07, 49, 00, 100
}

// compiledLine is a ReplyLine compiled for one check.
type compiledLine struct {
	def   *ReplyLine
	cond  evalFn
	spans []compiledSpan
}

type compiledSpan struct {
	style string
	cond  evalFn
	parts []compiledPart
}

type compiledPart struct {
	def   *ReplyPart
	cond  evalFn
	args  map[string]compiledArg
	value *compiledArg
}

type compiledArg struct {
	def   *ReplyArg
	fn    evalFn
	parts []compiledPart
}

func hasAlso(c *check, k string) bool {
	return slices.ContainsFunc(c.also, func(a namedVerdict) bool { return a.key == k })
}

func mapValues(m map[string]ReplyArg) []ReplyArg {
	out := make([]ReplyArg, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// layoutScope is what a layout's expressions name: the inputs, then the
// check's lets; layoutEnv fills the same slots.
func (s *System) layoutScope(c *check) *scope {
	sc := &scope{sys: s, vars: map[string]int{}, pools: map[string]*rollStep{}}
	for _, k := range s.inputSlots {
		sc.vars[k] = len(sc.vars)
	}
	for _, k := range c.letOrder() {
		sc.vars[k] = len(sc.vars)
	}
	// The exact chance, where no input or let is named so.
	if _, ok := sc.vars["chance"]; !ok {
		sc.vars["chance"] = len(sc.vars)
	}
	// An opposed check's layout names both sides (active.total,
	// passive.epic) and who won (won).
	sc.result, sc.sideVars = c.opposed, sc.vars
	return sc
}

// letOrder is the check's lets, sorted (a stable order of slots).
func (c *check) letOrder() []string {
	ks := make([]string, 0, len(c.slots))
	for k := range c.slots {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// compileJSONOutcomes checks and compiles the show's json_outcome.
func (s *System) compileJSONOutcomes(js []JSONOutcome) error {
	if len(js) > MaxShowList {
		return limitErr("show_list", MaxShowList, len(js))
	}
	s.jsonOutcome = map[string][]compiledOutcome{}
	for i, j := range js {
		where := fmt.Sprintf("json_outcome %d", i+1)
		if (j.Winner == "") == (j.Outcome == "") || j.Outcome != "" && !keyRE.MatchString(j.Outcome) || j.If == "" ||
			j.Winner != "" && j.Winner != "active" && j.Winner != "passive" {
			return fileErr(0, "%s: an outcome's word of a-z, 0-9 and _, or a winner (active, passive), and its if", where)
		}
		for _, k := range j.Checks {
			if _, err := s.check(k); err != nil || k == "" {
				return fileErr(0, "%s: no check %q", where, k)
			}
		}
		for _, c := range s.checks {
			if len(j.Checks) > 0 && !slices.Contains(j.Checks, c.def.Key) {
				continue
			}
			fn, err := s.layoutCond(c, j.If)
			if err != nil {
				return at(err, where)
			}
			s.jsonOutcome[c.def.Key] = append(s.jsonOutcome[c.def.Key], compiledOutcome{fn: fn, outcome: j.Outcome, winner: j.Winner})
		}
	}
	return nil
}

type compiledOutcome struct {
	fn              evalFn
	outcome, winner string
}

// JSONOutcome is the outcome --json gives a roll: the file's word for
// it where one of its show's json_outcome holds, else its outcome.
func (s *System) JSONOutcome(res *Result, pr Params) string {
	if o := s.jsonFact(res, pr, func(j compiledOutcome) string { return j.outcome }); o != "" {
		return o
	}
	return res.Outcome
}

// JSONWinner is the winner --json gives a roll: the opposed check's, or
// the one a json_outcome names where it holds.
func (s *System) JSONWinner(res *Result, pr Params) string {
	if w := s.jsonFact(res, pr, func(j compiledOutcome) string { return j.winner }); w != "" {
		return w
	}
	return res.Winner
}

func (s *System) jsonFact(res *Result, pr Params, field func(compiledOutcome) string) string {
	js := s.jsonOutcome[res.Check]
	if len(js) == 0 {
		return ""
	}
	c, err := s.check(res.Check)
	if err != nil {
		return ""
	}
	e := s.layoutEnv(c, res.Values, pr.Inputs, nil)
	for _, j := range js {
		if v := field(j); v != "" && j.fn(e).truth() {
			return v
		}
	}
	return ""
}

// compileLayout checks the show's reply lines against every check they
// are for, and compiles them.
func (s *System) compileLayout(lines []ReplyLine) error {
	if len(lines) > MaxReplyLines {
		return limitErr("reply_lines", MaxReplyLines, len(lines))
	}
	s.layout = map[string][]compiledLine{}
	for i := range lines {
		l := &lines[i]
		where := fmt.Sprintf("reply line %d", i+1)
		for _, k := range l.Checks {
			if _, err := s.check(k); err != nil || k == "" {
				return fileErr(0, "%s: no check %q", where, k)
			}
		}
		for _, o := range l.Outcome {
			if o != "none" && s.outcomes[o] == nil {
				return fileErr(0, "%s: no outcome %q", where, o)
			}
		}
		if l.Winner != "" && l.Winner != "active" && l.Winner != "passive" {
			return fileErr(0, "%s: winner is active or passive, got %q", where, l.Winner)
		}
		for _, k := range slices.Concat(l.Missing, l.NotTimes) {
			if s.inputs[k] == nil {
				return fileErr(0, "%s: missing: no input %q", where, k)
			}
		}
		if l.Side != "" && l.Side != "active" && l.Side != "passive" {
			return fileErr(0, "%s: side is active or passive, got %q", where, l.Side)
		}
		if len(l.Spans) == 0 || len(l.Spans) > MaxShowList {
			return at(limitErr("show_list", MaxShowList, len(l.Spans)), where)
		}
		for _, c := range s.checks {
			if len(l.Checks) > 0 && !slices.Contains(l.Checks, c.def.Key) {
				continue
			}
			if (l.Winner != "" || l.Side == "passive") && !c.opposed {
				if len(l.Checks) > 0 {
					return fileErr(0, "%s: check %s is not opposed: no winner, no passive side", where, c.def.Key)
				}
				continue
			}
			cl, err := s.compileLine(c, l)
			if err != nil {
				return at(err, where)
			}
			s.layout[c.def.Key] = append(s.layout[c.def.Key], cl)
		}
	}
	return nil
}

func (s *System) compileLine(c *check, l *ReplyLine) (compiledLine, error) {
	cl := compiledLine{def: l}
	var err error
	if cl.cond, err = s.layoutCond(c, l.If); err != nil {
		return cl, err
	}
	for j := range l.Spans {
		sp := &l.Spans[j]
		if sp.Style != "" && sp.Style != "plain" && sp.Style != "bold" && sp.Style != "italic" {
			return cl, fileErr(0, "span %d: style is plain, bold or italic, got %q", j+1, sp.Style)
		}
		if len(sp.Parts) == 0 || len(sp.Parts) > MaxReplyParts {
			return cl, limitErr("reply_parts", MaxReplyParts, len(sp.Parts))
		}
		cs := compiledSpan{style: sp.Style}
		if cs.cond, err = s.layoutCond(c, sp.If); err != nil {
			return cl, err
		}
		for k := range sp.Parts {
			cp, err := s.compilePart(c, &sp.Parts[k])
			if err != nil {
				return cl, at(err, fmt.Sprintf("span %d part %d", j+1, k+1))
			}
			cs.parts = append(cs.parts, cp)
		}
		cl.spans = append(cl.spans, cs)
	}
	return cl, nil
}

func (s *System) layoutCond(c *check, x string) (evalFn, error) {
	if x == "" {
		return nil, nil
	}
	if toks, err := lex(x); err == nil {
		for _, t := range toks {
			s.layoutChance = s.layoutChance || t.kind == "ident" && t.text == "chance"
		}
	}
	return compileExpr(x, s.layoutScope(c))
}

func (s *System) compilePart(c *check, p *ReplyPart) (compiledPart, error) {
	cp := compiledPart{def: p}
	kinds := 0
	for _, set := range []bool{p.Text != "", p.Say != "", p.Value != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return cp, fileErr(0, "a part is one of text, say or value")
	}
	var err error
	if cp.cond, err = s.layoutCond(c, p.If); err != nil {
		return cp, err
	}
	for _, k := range slices.Concat(p.Given, p.Missing, p.NotTimes) {
		if s.inputs[k] == nil {
			return cp, fileErr(0, "no input %q", k)
		}
	}
	for _, t := range []string{p.Text, p.Before, p.After} {
		if t == "" {
			continue
		}
		if err := showText("text", t); err != nil {
			return cp, err
		}
		if hasWord(t) {
			return cp, fileErr(0, "text %q: a word is a catalog message (say)", t)
		}
	}
	switch {
	case p.Text != "":
	case p.Say != "":
		if !catalogKeyRE.MatchString(p.Say) {
			return cp, fileErr(0, "say: a catalog key such as kh.dc, got %q", p.Say)
		}
		if len(p.Args) > MaxShowList {
			return cp, limitErr("show_list", MaxShowList, len(p.Args))
		}
		cp.args = map[string]compiledArg{}
		for name, a := range p.Args {
			if !keyRE.MatchString(name) {
				return cp, fileErr(0, "say %s: an arg's name of a-z, 0-9 and _, got %q", p.Say, name)
			}
			ca, err := s.compileArg(c, a)
			if err != nil {
				return cp, at(err, "arg "+name)
			}
			cp.args[name] = ca
		}
	default:
		if len(p.Args) > 0 {
			return cp, fileErr(0, "a value takes no args")
		}
		ca, err := s.compileArg(c, *p.Value)
		if err != nil {
			return cp, at(err, "value")
		}
		cp.value = &ca
	}
	return cp, nil
}

func (s *System) compileArg(c *check, a ReplyArg) (compiledArg, error) {
	ca := compiledArg{def: &a}
	if len(a.Parts) > 0 {
		if a.As != "" || a.Of != "" || len(a.Pools) > 0 || a.Sep != "" || a.Add != "" || a.Check != "" || a.Between != "" || a.Above != "" {
			return ca, fileErr(0, "a value of parts is its parts alone")
		}
		if len(a.Parts) > MaxReplyParts {
			return ca, limitErr("reply_parts", MaxReplyParts, len(a.Parts))
		}
		for i := range a.Parts {
			p := &a.Parts[i]
			if p.Value != nil && len(p.Value.Parts) > 0 || slices.ContainsFunc(mapValues(p.Args), func(x ReplyArg) bool { return len(x.Parts) > 0 }) {
				return ca, fileErr(0, "parts within parts")
			}
			cp, err := s.compilePart(c, p)
			if err != nil {
				return ca, at(err, fmt.Sprintf("part %d", i+1))
			}
			ca.parts = append(ca.parts, cp)
		}
		return ca, nil
	}
	as := a.As
	if as == "" {
		as = "int"
	}
	ca.def.As = as
	takes, ok := replyFormats[as]
	if !ok {
		return ca, fileErr(0, "as: no formatter %q", a.As)
	}
	if takes == "outcome" && a.Of != "" && s.outcomes[a.Of] == nil && !hasAlso(c, a.Of) {
		return ca, fileErr(0, "as outcome: no outcome or further result %q", a.Of)
	}
	if as == "chance" && a.Of != "" {
		also, o, _ := strings.Cut(a.Of, ".")
		if o == "" && s.outcomes[also] == nil && !hasAlso(c, also) || o != "" && (!hasAlso(c, also) || s.outcomes[o] == nil) {
			return ca, fileErr(0, "as chance: of an outcome, a further result or its outcome (roll.critical), got %q", a.Of)
		}
	}
	if (takes == "pools") != (len(a.Pools) > 0) || (takes == "none" || takes == "pools") && a.Of != "" || (takes == "outcome" || takes == "chance") && len(a.Pools) > 0 {
		return ca, fileErr(0, "as %s: of %q, pools %v", as, a.Of, a.Pools)
	}
	if a.Sep != "" && takes != "pools" && takes != "input" || a.Add != "" && as != "command" || (a.Between != "" || a.Above != "") && as != "named" {
		return ca, fileErr(0, "as %s: no sep, add, between or above", as)
	}
	if a.Check != "" && as != "command" {
		return ca, fileErr(0, "as %s: no check", as)
	}
	if a.Check != "" {
		if _, err := s.check(a.Check); err != nil {
			return ca, fileErr(0, "as command: no check %q", a.Check)
		}
	}
	if a.Cap && as != "named" {
		return ca, fileErr(0, "as %s: no cap", as)
	}
	if a.Exact && as != "named" || a.Say != "" && as != "named" && as != "outcome" {
		return ca, fileErr(0, "as %s: no exact or say", as)
	}
	for _, k := range []string{a.Between, a.Above, a.Say} {
		if k != "" && !catalogKeyRE.MatchString(k) {
			return ca, fileErr(0, "as named: a catalog key such as zaria.dc_between, got %q", k)
		}
	}
	for _, t := range []string{a.Sep, a.Add} {
		if t != "" {
			if err := showText("sep", t); err != nil {
				return ca, err
			}
		}
	}
	switch takes {
	case "expr":
		fn, err := s.layoutCond(c, a.Of)
		if err != nil {
			return ca, err
		}
		if fn == nil {
			return ca, fileErr(0, "as %s: of, an expression", as)
		}
		ca.fn = fn
	case "named", "input":
		in := s.inputs[a.Of]
		// A named value may be of an input the bot gives the check (Dungeon
		// Hack's armour of the sheet, /dh rompe).
		if in == nil || takes == "input" && !slices.Contains(c.inputs, a.Of) || takes == "named" && len(in.Named) == 0 {
			return ca, fileErr(0, "as %s: no input %q of the check with that", as, a.Of)
		}
	case "name":
		if !keyRE.MatchString(a.Of) || len(a.Pools) > 0 {
			return ca, fileErr(0, "as name: of, a name's key of a-z, 0-9 and _, got %q", a.Of)
		}
	case "pools":
		for _, k := range a.Pools {
			if !slices.ContainsFunc(c.pools, func(p *rollStep) bool { return p.name == k }) {
				return ca, fileErr(0, "as dice: no pool %q in the check", k)
			}
		}
	}
	return ca, nil
}

// Shown is a line of a reply the layout wrote: its spans.
type Shown []ShownSpan

// ShownSpan is a span's style ("", "bold", "italic") and text.
type ShownSpan struct {
	Style string
	Text  string
}

// ReplyIn is what a layout reads besides the roll: the chat's language,
// its catalog, the command as typed (the "command" formatter's).
type ReplyIn struct {
	Lang    string
	T       func(key string, args map[string]any) string
	Command string
	// Labels are each side's terms as typed ("fuerza 4", "2"), by input.
	Labels [2]map[string][]string
	// Prefix is the one the user typed ("/", "!"), for the commands the
	// reply names (the "command" formatter's check); "/" when none.
	Prefix string
	// Names are the texts the bot gives the layout by key (the "name"
	// formatter): a character's name, a combatant's.
	Names map[string]string
	// Chance writes the check's exact chance (the "chance" formatter).
	Chance func() string
	// ChanceRat is the check's exact chance, the name chance of the
	// layout's expressions; Percent writes a chance in the chat's language.
	ChanceRat func() *big.Rat
	Percent   func(*big.Rat) string
	// SetChance gives --json the chance a layout writes of a further
	// result's success (RQ's opposed roll, before its 1D4).
	SetChance func(p *big.Rat, exact bool)
}

// HasLayout reports whether the file lays out the replies of check.
func (s *System) HasLayout(check string) bool { return len(s.layout[check]) > 0 }

// Layout writes a roll's reply by the file's layout: res rolled from p
// with params pr.
func (s *System) Layout(res *Result, p *Parsed, pr Params, in ReplyIn) []Shown {
	c, err := s.check(res.Check)
	if err != nil {
		return nil
	}
	var chance *big.Rat
	if s.layoutChance && in.ChanceRat != nil {
		chance = in.ChanceRat()
	}
	act := s.layoutEnv(c, res.Values, pr.Inputs, chance)
	pas := act
	if c.opposed {
		pas = s.layoutEnv(c, res.Passive, pr.Passive, chance)
	}
	for _, e := range []*env{act, pas} {
		e.sides = [2]*env{act, pas}
		e.won = boolean(res.Winner == "active")
	}
	var out []Shown
	for _, l := range s.layout[res.Check] {
		from := min(passiveFrom(res), len(res.Dice), len(res.Pools))
		e, side := act, sideOf{pr: pr, other: in.Labels[1], res: res, labels: in.Labels[0], dice: res.Dice[:from], pools: res.Pools[:from], inputs: pr.Inputs, side: &p.Active}
		if l.def.Side == "passive" {
			e, side = pas, sideOf{pr: pr, other: in.Labels[0], res: res, labels: in.Labels[1], dice: res.Dice[from:], pools: res.Pools[from:], inputs: pr.Passive, side: p.Passive}
		}
		if !l.shows(e, res, side.inputs, side.side) {
			continue
		}
		var line Shown
		for _, sp := range l.spans {
			if sp.cond != nil && !sp.cond(e).truth() {
				continue
			}
			var b strings.Builder
			for _, cp := range sp.parts {
				if t, ok := s.writePart(cp, e, side, in); ok {
					b.WriteString(cp.def.Before + t + cp.def.After)
				}
			}
			if b.Len() > 0 {
				line = append(line, ShownSpan{Style: strings.TrimPrefix(sp.style, "plain"), Text: b.String()})
			}
		}
		if len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

func (l compiledLine) shows(e *env, res *Result, inputs map[string]int, side *Side) bool {
	if l.def.Outcome != nil {
		o := res.Outcome
		if o == "" {
			o = "none"
		}
		if !slices.Contains(l.def.Outcome, o) {
			return false
		}
	}
	if l.def.Winner != "" && l.def.Winner != res.Winner {
		return false
	}
	for _, k := range l.def.Missing {
		if _, given := inputs[k]; given {
			return false
		}
	}
	if timesTyped(side, l.def.NotTimes) {
		return false
	}
	return l.cond == nil || l.cond(e).truth()
}

// timesTyped reports whether one of the inputs was typed as a
// characteristic × a multiplier on side sd.
func timesTyped(sd *Side, inputs []string) bool {
	if sd == nil {
		return false
	}
	for _, k := range inputs {
		for _, t := range sd.Terms[k] {
			if t.Times > 0 {
				return true
			}
		}
	}
	return false
}

// sideOf is what a line reads of one side of the roll.
type sideOf struct {
	pr     Params
	other  map[string][]string // the other side's words
	res    *Result
	labels map[string][]string
	dice   []int
	pools  []string
	inputs map[string]int
	side   *Side
}

// passiveFrom is where the passive side's dice start (all the dice: no
// passive side).
func passiveFrom(res *Result) int {
	if res.Winner == "" {
		return len(res.Dice)
	}
	return res.PassiveFrom
}

func (s *System) layoutEnv(c *check, values map[string]*big.Rat, inputs map[string]int, chance *big.Rat) *env {
	sc := s.layoutScope(c)
	e := &env{v: make([]num, len(sc.vars))}
	for k, slot := range sc.vars {
		if _, let := c.slots[k]; k == "chance" && !let && s.inputs[k] == nil {
			e.v[slot] = impossible
			if chance != nil {
				e.v[slot] = fromRat(chance)
			}
			continue
		}
		if v, ok := inputs[k]; ok && slot < len(s.inputSlots) {
			e.v[slot] = integer(int64(v))
		} else if r := values[k]; r != nil && slot >= len(s.inputSlots) {
			e.v[slot] = fromRat(r)
		} else if in := s.inputs[k]; in != nil && in.Default != nil {
			e.v[slot] = integer(int64(*in.Default))
		} else {
			e.v[slot] = impossible
		}
	}
	return e
}

// fromRat is r as a num (its parts fit: the engine's values do).
func fromRat(r *big.Rat) num { return ratio(r.Num().Int64(), r.Denom().Int64()) }

// writePart is a part's text, and false when it is left out (its
// condition fails, or a pool it writes rolled no dice).
func (s *System) writePart(cp compiledPart, e *env, sd sideOf, in ReplyIn) (string, bool) {
	if cp.cond != nil && !cp.cond(e).truth() || timesTyped(sd.side, cp.def.NotTimes) {
		return "", false
	}
	for _, k := range cp.def.Given {
		if _, ok := sd.inputs[k]; !ok {
			return "", false
		}
	}
	for _, k := range cp.def.Missing {
		if _, ok := sd.inputs[k]; ok {
			return "", false
		}
	}
	switch {
	case cp.def.Text != "":
		return cp.def.Text, true
	case cp.value != nil:
		v, ok := s.writeArg(*cp.value, e, sd, in)
		return fmt.Sprint(v), ok
	}
	args := map[string]any{}
	for name, a := range cp.args {
		v, ok := s.writeArg(a, e, sd, in)
		if !ok {
			return "", false
		}
		args[name] = v
	}
	return in.T(cp.def.Say, args), true
}

// writeArg is an arg's value (a whole number for "int", a count the
// catalog may read as one; else its text), and false when it has none
// (an input not given, a pool that rolled no dice).
func (s *System) writeArg(a compiledArg, e *env, sd sideOf, in ReplyIn) (any, bool) {
	d := a.def
	res := sd.res
	if len(a.parts) > 0 {
		var b strings.Builder
		for _, cp := range a.parts {
			if t, ok := s.writePart(cp, e, sd, in); ok {
				b.WriteString(cp.def.Before + t + cp.def.After)
			}
		}
		if d.Cap {
			return upperFirst(b.String()), b.Len() > 0
		}
		return b.String(), b.Len() > 0
	}
	switch d.As {
	case "percent":
		v := a.fn(e)
		if v.imp {
			return "–", true
		}
		if in.Percent == nil {
			return "", false
		}
		return in.Percent(new(big.Rat).Mul(v.Rat(), big.NewRat(1, 100))), true
	case "d100":
		v := a.fn(e)
		if v.imp || v.d != 1 {
			return "", false
		}
		return fmt.Sprintf("%02d", v.n), true
	case "int", "number", "signed", "half", "signed_half":
		v := a.fn(e)
		if v.imp {
			return "", false
		}
		if d.As == "half" || d.As == "signed_half" {
			v2 := v.mul(integer(2))
			if v2.d != 1 {
				return "", false
			}
			if d.As == "half" {
				return halfText(in.Lang, int(v2.n)), true
			}
			return SignedText(halfText(in.Lang, int(v2.n))), true
		}
		if v.d != 1 {
			return "", false
		}
		n := int(v.n)
		switch d.As {
		case "number":
			return minus(n), true
		case "signed":
			return Signed(n), true
		}
		return n, true
	case "named":
		v, ok := s.inputValue(sd.inputs, d.Of)
		if !ok {
			return "", false
		}
		t := s.namedText(d, v, in)
		if d.Cap {
			t = upperFirst(t)
		}
		return t, t != ""
	case "typed":
		v, ok := s.inputValue(sd.inputs, d.Of)
		if !ok {
			return "", false
		}
		if ls := sd.labels[d.Of]; len(ls) > 0 {
			return strings.Join(ls, cmpOr(d.Sep, " + ")), true
		}
		if ls := sd.other[d.Of]; len(ls) > 0 && s.inputs[d.Of].Passive { // what "vs" gives to a check that is not opposed (RQ's def)
			return strings.Join(ls, cmpOr(d.Sep, " + ")), true
		}
		if sd.side != nil {
			if ts := sd.side.Terms[d.Of]; len(ts) == 1 && ts[0].Key != "" {
				return ts[0].Key + " " + strconv.Itoa(v), true
			}
		}
		return strconv.Itoa(v), true
	case "dice":
		var faces []string
		for _, k := range d.Pools {
			for i, pool := range sd.pools {
				if pool == k && i < len(sd.dice) {
					faces = append(faces, strconv.Itoa(sd.dice[i]))
				}
			}
		}
		return strings.Join(faces, cmpOr(d.Sep, ", ")), len(faces) > 0
	case "total":
		if res.Total == nil || !res.Total.IsInt() {
			return "", false
		}
		return s.TotalText(int(res.Total.Num().Int64()), in.Lang), true
	case "outcome":
		o := cmpOr(d.Of, res.Outcome)
		if a, ok := res.Also[d.Of]; ok {
			o = a
		} else if d.Of != "" && s.outcomes[d.Of] == nil {
			return "", false // a further result that gave none
		}
		if o == "" {
			return "", false
		}
		if n, renamed := s.Renamed(o, in.Lang); d.Say == "" || renamed {
			return n, true
		}
		return in.T(d.Say+"."+o, nil), true
	case "command":
		if d.Check != "" {
			return s.checkCommand(d, in), true
		}
		return in.Command + " " + d.Add, true
	case "name":
		t := in.Names[d.Of]
		return t, t != ""
	case "chance":
		if d.Of == "" {
			if in.Chance == nil {
				return "", false
			}
			return in.Chance(), true
		}
		return s.chanceOf(d.Of, sd, in)
	}
	return "", false
}

// checkCommand is the command of d's check as the user types commands:
// the prefix typed, the file's command, the check's word in the chat's
// language, then add ("/dh uso", "!dh σπάσε").
func (s *System) checkCommand(d *ReplyArg, in ReplyIn) string {
	t := cmpOr(in.Prefix, "/") + s.File.Command
	if c, err := s.check(d.Check); err == nil && c.def.Key != "" {
		t += " " + c.def.SubName().In(in.Lang)
	}
	if d.Add != "" {
		t += " " + d.Add
	}
	return t
}

// inputValue is the input's value as the words gave it, else its
// default.
func (s *System) inputValue(inputs map[string]int, k string) (int, bool) {
	if v, ok := inputs[k]; ok {
		return v, true
	}
	if d := s.inputs[k].Default; d != nil {
		return *d, true
	}
	return 0, false
}

// chanceOf writes the exact chance of an outcome ("critical"), of a
// further result's outcome ("roll.critical") or of a further result's
// success ("roll", the one --json gives as the chance: SetChance).
func (s *System) chanceOf(of string, sd sideOf, in ReplyIn) (string, bool) {
	od, err := s.Outcomes(sd.res.Check, sd.pr)
	if err != nil || in.Percent == nil {
		return "", false
	}
	also, o, _ := strings.Cut(of, ".")
	p := new(big.Rat)
	switch {
	case o != "":
		if q := od.Also[also][o]; q != nil {
			p.Set(q)
		}
	case s.outcomes[also] != nil:
		if q := od.Outcomes[also]; q != nil {
			p.Set(q)
		}
	default:
		for k, q := range od.Also[also] {
			if oc := s.outcomes[k]; oc != nil && oc.Success {
				p.Add(p, q)
			}
		}
		if in.SetChance != nil {
			in.SetChance(p, od.Exact)
		}
	}
	return in.Percent(p), true
}

// namedText is the name of the named value at or below v (the first
// when v is below them all); a value between two, the message between
// names both, one beyond the last, above names it.
func (s *System) namedText(d *ReplyArg, v int, in ReplyIn) string {
	named := s.inputs[d.Of].Named
	// The highest named value not above v, else the lowest; next, the
	// lowest above it (in any order the file lists them).
	at, next := -1, -1
	for j, x := range named {
		if x.Value <= v && (at < 0 || x.Value > named[at].Value) {
			at = j
		}
	}
	if at < 0 {
		for j, x := range named {
			if at < 0 || x.Value < named[at].Value {
				at = j
			}
		}
	}
	for j, x := range named {
		if x.Value > named[at].Value && (next < 0 || x.Value < named[next].Value) {
			next = j
		}
	}
	if d.Exact && named[at].Value != v {
		return ""
	}
	name := func(j int) string {
		if d.Say != "" {
			return in.T(d.Say+"."+named[j].Key, nil)
		}
		return named[j].Names.In(in.Lang)
	}
	switch {
	case named[at].Value == v || d.Between == "" && d.Above == "":
		return name(at)
	case next >= 0 && d.Between != "":
		return in.T(d.Between, map[string]any{"low": name(at), "high": name(next)})
	case d.Above != "":
		return in.T(d.Above, map[string]any{"name": name(at)})
	}
	return name(at)
}

// upperFirst is t with its first letter upper case.
func upperFirst(t string) string {
	for i, r := range t {
		return string(unicode.ToUpper(r)) + t[i+utf8.RuneLen(r):]
	}
	return t
}

// hasWord reports whether t has two letters in a row: a text writes
// symbols, numbers and a letter alone ("D" of Daegon's "D3"), a word
// is a catalog message.
func hasWord(t string) bool {
	prev := false
	for _, r := range t {
		l := unicode.IsLetter(r)
		if l && prev {
			return true
		}
		prev = l
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// halfText writes v2/2, a whole or half number, in lang: "6", "6,5"
// (es, el), "6.5" (en), "-0,5".
func halfText(lang string, v2 int) string {
	t := strconv.Itoa(v2 / 2)
	if v2%2 != 0 {
		if v2 < 0 && v2/2 == 0 {
			t = "-0"
		}
		if lang == "en" {
			t += ".5"
		} else {
			t += ",5"
		}
	}
	return t
}

// SignedText writes a number's text with its sign: "+3", "−4", "0".
func SignedText(t string) string {
	switch {
	case strings.HasPrefix(t, "-"):
		return "−" + t[1:]
	case t == "0":
		return t
	}
	return "+" + t
}

// minus is n with the typographic minus sign: "−3".
func minus(n int) string {
	if n < 0 {
		return "−" + strings.TrimPrefix(strconv.Itoa(n), "-")
	}
	return strconv.Itoa(n)
}
