package engine

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// System is a loaded, checked file: its declarations compiled, every
// vector held.
type System struct {
	File   File
	Source []byte

	rules      map[string]*HouseRule
	numbers    map[string]int
	tables     map[string]*table
	outcomes   map[string]*Outcome
	inputs     map[string]*Input
	inputSlots []string // env.v's first slots: the inputs, in file order
	ruleSlots  []string // then the house rules
	checks     []*check
	cache      oddsCache
	layout     map[string][]compiledLine // each check's reply lines (layout.go)
	// layoutChance: the layout's expressions name the exact chance.
	layoutChance bool
	jsonOutcome  map[string][]compiledOutcome // show's json_outcome, by check
	// stepwise walks every roll of the last pool one by one, without the
	// runs of sym.go (the tests compare the two ways).
	stepwise bool
}

var keyRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// reserved are the names an expression reads as its own (an opposed
// result's won, true, false): a let or pool so named could not be read.
var reserved = map[string]bool{"won": true, "true": true, "false": true}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// Load reads, checks and compiles a system file, then replays its
// vectors. The error is an *Error naming the limit, the line or the first
// vector that fails.
func Load(src []byte) (*System, error) {
	if len(src) > MaxFileBytes {
		return nil, limitErr("file_size", MaxFileBytes, len(src))
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, yamlErr(err, src)
	}
	if n := countNodes(&root, 0); n > MaxFileBytes/2 {
		return nil, limitErr("file_size", MaxFileBytes, n*2)
	}
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, yamlErr(err, src)
	}
	s := &System{File: f, Source: src}
	err := s.compile()
	if err == nil {
		err = s.compileSheet() // sheet.go
	}
	if err == nil {
		err = s.compileShow() // show.go
	}
	if err == nil {
		err = s.compileNames() // names.go
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			if e.Line == 0 {
				e.Line = guessLine(&root, e)
			}
			return nil, e
		}
		return nil, fileErr(0, "%v", err)
	}
	if err := s.runVectors(); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Line == 0 {
			e.Line = vectorLine(&root, e)
		}
		return nil, err
	}
	return s, nil
}

// yamlErr tells what go-yaml refused in the GM's terms, with its line:
// a value of the wrong type, a field the format lacks, a key twice, and
// the common slips of indentation, tabs, colons and brackets; anything
// else a plain "not valid YAML here".
func yamlErr(err error, src []byte) *Error {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil { // the first, when several
		line, _ = strconv.Atoi(m[1])
	}
	if m := yamlType.FindStringSubmatch(msg); m != nil {
		got := strconv.Quote(m[2])
		switch m[1] {
		case "!!seq":
			got = "[…]"
		case "!!map":
			got = "{…}"
		}
		into := m[3]
		switch {
		case strings.HasPrefix(into, "[]"):
			return fileErr(line, "a list goes here (one - item a line, or [a, b]), not %s", got)
		case strings.HasPrefix(into, "map[") || strings.HasPrefix(into, "engine."):
			return fileErr(line, "keys go here (key: value, one a line, or {key: value}), not %s", got)
		case strings.HasPrefix(into, "int") || strings.HasPrefix(into, "uint"):
			return fileErr(line, "a whole number goes here, not %s", got)
		case into == "string":
			return fileErr(line, "a text goes here, not %s", got)
		case into == "bool":
			return fileErr(line, "true or false goes here, not %s", got)
		}
		return fileErr(line, "this value does not fit here: %s", got)
	}
	if m := yamlField.FindStringSubmatch(msg); m != nil {
		return fileErr(line, "%q is no field of the format here: check its spelling and its indentation", m[1])
	}
	if m := yamlTwice.FindStringSubmatch(msg); m != nil {
		first, _ := strconv.Atoi(m[2])
		return fileErr(line, "the key %s is written twice (first on line %d)", m[1], first)
	}
	switch {
	case strings.Contains(msg, "tab character"), strings.Contains(msg, "cannot start any token") && tabLine(src) > 0:
		// go-yaml names the line before the tab, or the block's: the
		// first line indented with a tab is the one to fix.
		if t := tabLine(src); t > 0 {
			line = t
		}
		return fileErr(line, "a tab in the indentation: indent with spaces only")
	case strings.Contains(msg, "cannot start any token"):
		return fileErr(line, "a character no value can start with: indent with spaces, not tabs, and put a text starting with @, ` or %% in quotes")
	case strings.Contains(msg, "did not find expected key"), strings.Contains(msg, "did not find expected '-' indicator"):
		return fileErr(line, "the indentation does not line up: the keys of one map, and the - of one list, each at the same indentation, with spaces")
	case strings.Contains(msg, "mapping values are not allowed"):
		return fileErr(line, "a colon where none can go: put a text with \": \" in quotes, or check the indentation")
	case strings.Contains(msg, "could not find expected ':'"):
		return fileErr(line, "a key without its colon: write key: value")
	case strings.Contains(msg, "did not find expected ',' or"):
		return fileErr(line, "a [ or { not closed: every [ needs its ], every { its }, and commas between items")
	case strings.Contains(msg, "block sequence entries are not allowed"):
		return fileErr(line, "a list item (- …) where a value goes: put the list on the next lines, indented")
	case strings.Contains(msg, "unknown escape character"):
		return fileErr(line, "a \\ in a text in double quotes: put the text in single quotes, or write the \\ twice")
	case strings.Contains(msg, "unexpected end of stream"):
		return fileErr(line, "the file ends inside a quoted text or a bracket: close it")
	}
	return fileErr(line, "this is not valid YAML: check the indentation (spaces, no tabs), the colons and the quotes")
}

// tabLine is the first line indented with a tab, 0 when none is.
func tabLine(src []byte) int {
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t") {
			return i + 1
		}
	}
	return 0
}

var (
	// go-yaml's "cannot unmarshal !!str `x` into int" (a scalar's value in
	// backquotes, a list's or map's none).
	yamlType  = regexp.MustCompile("cannot unmarshal (!!\\w+)(?: `([^`]*)`)? into (\\S+)")
	yamlField = regexp.MustCompile(`field (\S+) not found in type`)
	yamlTwice = regexp.MustCompile(`mapping key ("[^"]*") already defined at line (\d+)`)
)

// countNodes counts the nodes of a tree, aliases expanded, stopping early
// (an alias bomb).
func countNodes(n *yaml.Node, depth int) int {
	if depth > 64 {
		return MaxFileBytes
	}
	c := 1
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return c + countNodes(n.Alias, depth+1)
	}
	for _, k := range n.Content {
		if c += countNodes(k, depth+1); c > MaxFileBytes {
			return c
		}
	}
	return c
}

// guessLine finds the line of the first scalar equal to the error's
// "at" argument, for errors raised while compiling; with none, of the
// first scalar equal to one of its format's texts, the last first (the
// value refused, most often).
func guessLine(root *yaml.Node, e *Error) int {
	if name, _ := e.Args["at"].(string); name != "" {
		return findScalar(root, name)
	}
	for i := len(e.Params) - 1; i >= 0; i-- {
		if v := paramText(e.Params[i]); v != "" {
			if l := findScalar(root, v); l > 0 {
				return l
			}
		}
	}
	return 0
}

// paramText is a refusal's argument as the file writes it: a text, or a
// label in English ("title"); "" for any other.
func paramText(p any) string {
	switch p := p.(type) {
	case string:
		return p
	case fileLabel:
		return p.String()
	}
	return ""
}

func findScalar(n *yaml.Node, v string) int {
	if n.Kind == yaml.ScalarNode && n.Value == v {
		return n.Line
	}
	for _, k := range n.Content {
		if l := findScalar(k, v); l > 0 {
			return l
		}
	}
	return 0
}

func vectorLine(root *yaml.Node, e *Error) int {
	name, _ := e.Args["vector"].(string)
	if name == "" {
		return 0
	}
	return findScalar(root, name)
}

func at(err error, name string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		e = fileErr(0, "%v", err)
	}
	if e.Args == nil {
		e.Args = map[string]any{}
	}
	if _, ok := e.Args["at"]; !ok {
		e.Args["at"] = name
	}
	if w, ok := e.Args["what"].(string); ok && !namesIt(w, name) {
		e.Args["what"] = name + ": " + w
		e.Prefix = name + ": " + e.Prefix
	}
	return e
}

// namesIt reports whether what already names name, as a word of its own:
// "band weak can never be reached" needs no "weak: " before it.
func namesIt(what, name string) bool {
	if name == "" {
		return true
	}
	for i := 0; i < len(what); {
		j := strings.Index(what[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isKeyByte(what[j-1])) && (end == len(what) || !isKeyByte(what[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

func isKeyByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func checkNames(n Names, what fileLabel) error {
	if n.ES == "" || n.EL == "" || n.EN == "" {
		return fileErr(0, "%s: names in es, el and en", what)
	}
	return nil
}

func (s *System) compile() error {
	f := &s.File
	if !keyRE.MatchString(f.System) {
		return fileErr(0, "system: a key of a-z, 0-9 and _, got %q", f.System)
	}
	if !keyRE.MatchString(f.Command) {
		return fileErr(0, "command: a key of a-z, 0-9 and _, got %q", f.Command)
	}
	if err := checkNames(f.Title, label("title")); err != nil {
		return err
	}
	if len(f.Inputs) > MaxInputs {
		return limitErr("inputs", MaxInputs, len(f.Inputs))
	}
	if len(f.HouseRules) > MaxRules {
		return limitErr("rules", MaxRules, len(f.HouseRules))
	}
	if len(f.Tables) > MaxTables {
		return limitErr("tables", MaxTables, len(f.Tables))
	}
	if len(f.Checks) > MaxChecks {
		return limitErr("checks", MaxChecks, len(f.Checks))
	}
	if len(f.Outcomes) > MaxOutcomes {
		return limitErr("outcomes", MaxOutcomes, len(f.Outcomes))
	}
	if len(f.Vectors) > MaxVectors {
		return limitErr("vectors", MaxVectors, len(f.Vectors))
	}
	if len(f.Checks) == 0 {
		return fileErr(0, "checks: at least one")
	}
	seen := map[string]bool{}
	taken := func(k string, what fileLabel) error {
		if !keyRE.MatchString(k) {
			return fileErr(0, "%s: a key of a-z, 0-9 and _, got %q", what, k)
		}
		if seen[k] {
			return fileErr(0, "%s: the name %q is used twice", what, k)
		}
		seen[k] = true
		return nil
	}
	if err := checkErrors(f); err != nil {
		return err
	}
	if err := checkSubWords(f); err != nil {
		return err
	}
	s.inputs = map[string]*Input{}
	for i := range f.Inputs {
		in := &f.Inputs[i]
		if err := taken(in.Key, label("input")); err != nil {
			return err
		}
		if err := checkInput(in); err != nil {
			return at(err, in.Key)
		}
		s.inputs[in.Key] = in
		s.inputSlots = append(s.inputSlots, in.Key)
	}
	s.rules = map[string]*HouseRule{}
	for i := range f.HouseRules {
		h := &f.HouseRules[i]
		if err := taken(h.Key, label("house rule")); err != nil {
			return err
		}
		if err := checkNames(h.Names, label("house rule %s", h.Key)); err != nil {
			return at(err, h.Key)
		}
		if len(h.Choices) < 2 || h.index(h.Default) < 0 {
			return at(fileErr(0, "house rule %s: two choices or more, and a default among them", h.Key), h.Key)
		}
		for _, c := range h.Choices {
			if err := checkNames(c.Names, label("choice %s", c.Key)); err != nil {
				return at(err, h.Key)
			}
		}
		s.rules[h.Key] = h
		s.ruleSlots = append(s.ruleSlots, h.Key)
	}
	if len(f.Numbers) > MaxNumbers {
		return limitErr("numbers", MaxNumbers, len(f.Numbers))
	}
	s.numbers = map[string]int{}
	for _, n := range f.Numbers {
		if err := taken(n.Key, label("number")); err != nil {
			return err
		}
		if err := checkNames(n.Names, label("number %s", n.Key)); err != nil {
			return at(err, n.Key)
		}
		if n.Min > n.Max || n.Value < n.Min || n.Value > n.Max || n.Min < -1_000_000 || n.Max > 1_000_000 {
			return at(fileErr(0, "number %s: %d outside %d..%d", n.Key, n.Value, n.Min, n.Max), n.Key)
		}
		s.numbers[n.Key] = n.Value
	}
	s.tables = map[string]*table{}
	for _, t := range f.Tables {
		if err := taken(t.Key, label("table")); err != nil {
			return err
		}
		tb, err := compileTable(t)
		if err != nil {
			return at(err, t.Key)
		}
		s.tables[t.Key] = tb
	}
	for i := range f.Inputs {
		if err := s.checkVocabulary(&f.Inputs[i]); err != nil {
			return at(err, f.Inputs[i].Key)
		}
	}
	s.outcomes = map[string]*Outcome{}
	for i := range f.Outcomes {
		o := &f.Outcomes[i]
		if !keyRE.MatchString(o.Key) || s.outcomes[o.Key] != nil {
			return fileErr(0, "outcome %q: a new key of a-z, 0-9 and _", o.Key)
		}
		if err := checkNames(o.Names, label("outcome %s", o.Key)); err != nil {
			return at(err, o.Key)
		}
		s.outcomes[o.Key] = o
	}
	ckSeen := map[string]bool{}
	for i := range f.Checks {
		def := &f.Checks[i]
		if !keyRE.MatchString(def.Key) || ckSeen[def.Key] {
			return fileErr(0, "check %q: a new key of a-z, 0-9 and _", def.Key)
		}
		ckSeen[def.Key] = true
		c, err := s.compileCheck(def)
		if err != nil {
			return at(err, def.Key)
		}
		if err := s.checkForm(def); err != nil {
			return at(err, def.Key)
		}
		s.checks = append(s.checks, c)
	}
	return nil
}

// errorKinds are the kinds of ParseError an input's errors may name,
// and "name" (a word that names none of its values).
// "below" and "above" are a range error's two ends, each in place of
// "range"; a file's own errors (no input) are "word", "vs", "opposed"
// and "missing".
var errorKinds = map[string]bool{"dice": true, "faces": true, "lookup": true, "by": true, "range": true, "below": true, "above": true, "twice": true, "missing": true, "word": true, "terms": true, "check": true, "name": true, "sheet": true}

var fileErrorKinds = map[string]bool{"word": true, "vs": true, "opposed": true, "missing": true}

func checkErrors(f *File) error {
	for kind, key := range f.Errors {
		if !fileErrorKinds[kind] {
			return fileErr(0, "errors: %q is no kind of error of a whole file (word, vs, opposed, missing)", kind)
		}
		if !catalogKeyRE.MatchString(key) {
			return fileErr(0, "errors: %s: %q is no catalog key", kind, key)
		}
	}
	return nil
}

// catalogKeyRE is a message's key in the catalogs: "daegon.error.d".
var catalogKeyRE = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)

func checkInput(in *Input) error {
	if err := checkNames(in.Names, label("input %s", in.Key)); err != nil {
		return err
	}
	if len(in.Named) > MaxNamed {
		return limitErr("named", MaxNamed, len(in.Named))
	}
	for kind, key := range in.Errors {
		if !errorKinds[kind] {
			return fileErr(0, "input %s: errors: %q is no kind of error (range, below, above, twice, missing, word, terms, check, name, sheet)", in.Key, kind)
		}
		if !catalogKeyRE.MatchString(key) {
			return fileErr(0, "input %s: errors: %s: %q is no catalog key", in.Key, kind, key)
		}
	}
	if in.Sheet && in.Type != "number" {
		return fileErr(0, "input %s: sheet is for a number input", in.Key)
	}
	if c := in.Chat; c != nil && (in.Type != "number" || c.Min > c.Max || in.Min == nil || c.Min < *in.Min || c.Max > *in.Max) {
		return fileErr(0, "input %s: chat is a range within a number input's min and max", in.Key)
	}
	if t := in.Times; t != nil {
		if in.Type != "number" || len(t.Prefixes) == 0 || len(t.Signs) == 0 || t.Min > t.Max || t.ByMin > t.By || t.By > t.ByMax || t.ByMin < 1 {
			return fileErr(0, "input %s: times: a number input's prefixes, signs, min not above max, by_min ≥ 1 and by within by_min..by_max", in.Key)
		}
		for kind, key := range t.Errors {
			if kind != "range" && kind != "by" || !catalogKeyRE.MatchString(key) {
				return fileErr(0, "input %s: times: errors: %s: %q is no range or by error's catalog key", in.Key, kind, key)
			}
		}
	}
	switch in.Type {
	case "number", "terms":
		if in.Min == nil || in.Max == nil || *in.Min > *in.Max || *in.Min < -1_000_000 || *in.Max > 1_000_000 {
			return fileErr(0, "input %s: min and max, min not above max, within ±1000000", in.Key)
		}
		if in.Default != nil && (*in.Default < *in.Min || *in.Default > *in.Max) {
			return fileErr(0, "input %s: default %d outside %d..%d", in.Key, *in.Default, *in.Min, *in.Max)
		}
		if in.Suggest != nil && (*in.Suggest < *in.Min || *in.Suggest > *in.Max) {
			return fileErr(0, "input %s: suggest %d outside %d..%d", in.Key, *in.Suggest, *in.Min, *in.Max)
		}
		for _, n := range in.Named {
			if n.Value < *in.Min || n.Value > *in.Max {
				return fileErr(0, "input %s: named value %s = %d outside %d..%d", in.Key, n.Key, n.Value, *in.Min, *in.Max)
			}
			if err := checkNames(n.Names, label("named value %s", n.Key)); err != nil {
				return err
			}
			if err := namedWords(in, n); err != nil {
				return err
			}
		}
		for _, p := range in.Prefixes {
			if r, _ := utf8.DecodeRuneInString(p); !unicode.IsLetter(r) {
				return fileErr(0, "input %s: prefix %q does not start with a letter: the chat reads a word that starts with a digit or a sign as a number or as a+b (8+6)", in.Key, p)
			}
		}
		if in.Type == "terms" {
			if len(in.Parts) < 2 || len(in.Parts) > 4 {
				return fileErr(0, "input %s: terms have 2 to 4 parts", in.Key)
			}
			for _, p := range in.Parts {
				for kind, key := range p.Errors {
					if kind != "range" && kind != "below" && kind != "above" || !catalogKeyRE.MatchString(key) {
						return fileErr(0, "input %s: part %s: errors: %s: %q is no range error's catalog key", in.Key, p.Key, kind, key)
					}
				}
				if p.Min > p.Max {
					return fileErr(0, "input %s: part %s's min above its max", in.Key, p.Key)
				}
				if err := checkNames(p.Names, label("part %s", p.Key)); err != nil {
					return err
				}
			}
		}
	case "flag":
		if len(in.Keywords) == 0 {
			return fileErr(0, "input %s: a flag needs keywords", in.Key)
		}
	default:
		return fileErr(0, "input %s: type is number, flag or terms, not %q", in.Key, in.Type)
	}
	return nil
}

// namedWords refuses a name or keyword of named value n that the chat
// could never type: more than MaxNamedWords words (a rest input's names
// are its leftover words together, of any length).
func namedWords(in *Input, n NamedValue) error {
	if in.Rest {
		return nil
	}
	for _, c := range append([]string{n.Names.ES, n.Names.EL, n.Names.EN}, n.Keywords...) {
		if w := len(strings.Fields(c)); w > MaxNamedWords {
			return fileErr(0, "input %s: named value %s: %q has %d words, and the chat reads a name of at most %d", in.Key, n.Key, c, w, MaxNamedWords)
		}
	}
	return nil
}

// check is a compiled Check.
type check struct {
	def    *Check
	inputs []string
	steps  []cstep
	pools  []*rollStep
	nvars  int
	nreads int
	slots  map[string]int
	total  evalFn
	verdict
	success evalFn // the result's success: expression (success.go)
	// The total's, the success's and the comparison's values over a run
	// of a pool's rolls (sym.go).
	totalS, successS symFn
	compareS         []symFn
	also             []namedVerdict
	opposed          bool
	tieAct           bool
	compare          []evalFn
	// passiveRef: an opposed check's result names the passive side's
	// values (else it reads only the active side's and who won).
	passiveRef bool
	refSlots   []int        // the sides' values the result names
	dynSlots   map[int]bool // the lets that read the dice
	reqs       []requirement
	walkers    sync.Pool // *walker: a walk's buffers, for the next one
}

// verdict is a compiled Verdict: overrides, then bands on a value.
type verdict struct {
	overr []cband
	on    evalFn
	onS   symFn
	bands []cband
}

type namedVerdict struct {
	key string
	v   *verdict
}

type cstep struct {
	roll  *rollStep
	slot  int
	cases []ccase
}

type ccase struct {
	when evalFn // nil: always
	is   evalFn
	// whenDyn, isDyn: they read the dice (else the inputs and house
	// rules only, the same for every roll of one check).
	whenDyn, isDyn bool
	whenS, isS     symFn // over a run of a pool's rolls (sym.go)
}

type cband struct {
	when    evalFn // overrides
	whenS   symFn
	bound   num
	strict  bool
	last    bool
	outcome string
	idx     int // the outcome's index in File.Outcomes
	level   evalFn
}

func (s *System) compileCheck(def *Check) (*check, error) {
	if err := checkNames(def.Names, label("check %s", def.Key)); err != nil {
		return nil, err
	}
	if len(def.Steps) > MaxSteps {
		return nil, limitErr("steps", MaxSteps, len(def.Steps))
	}
	c := &check{def: def, slots: map[string]int{}, opposed: def.Opposed != nil}
	for _, k := range def.Inputs {
		if s.inputs[k] == nil {
			return nil, fileErr(0, "check %s: no input %q", def.Key, k)
		}
	}
	c.inputs = def.Inputs
	for _, k := range slices.Sorted(maps.Keys(def.Again)) {
		if !slices.Contains(def.Inputs, k) || def.Again[k] != "add" && def.Again[k] != "last" && def.Again[k] != "twice" {
			return nil, fileErr(0, "check %s: again: %q is no input of the check, or %q no add, last or twice", def.Key, k, def.Again[k])
		}
		if def.Again[k] == "add" && s.inputs[k].Type != "number" {
			return nil, fileErr(0, "check %s: again: add is for a number input, not %q", def.Key, k)
		}
	}
	for _, k := range append(slices.Clip(def.Bare), def.Alone) {
		if k == "" {
			continue
		}
		if !slices.Contains(def.Inputs, k) || s.inputs[k].Type != "number" {
			return nil, fileErr(0, "check %s: bare and alone: %q is no number input of the check", def.Key, k)
		}
	}
	var err error
	if c.reqs, err = s.compileRequires(def); err != nil { // require.go
		return nil, err
	}
	sc := &scope{sys: s, vars: map[string]int{}, pools: map[string]*rollStep{}, opp: c.opposed, dynVars: map[int]bool{}, hoist: true, lvls: map[int]int{}}
	for _, k := range s.inputSlots {
		sc.vars[k] = len(sc.vars)
	}
	for _, k := range s.ruleSlots {
		sc.vars[k] = len(sc.vars)
	}
	for _, st := range def.Steps {
		switch {
		case st.Roll != "" && st.Let == "":
			if _, ok := sc.vars[st.Roll]; ok || sc.pools[st.Roll] != nil || !keyRE.MatchString(st.Roll) || reserved[st.Roll] {
				return nil, fileErr(0, "roll %q: a new key of a-z, 0-9 and _ (not won, true or false)", st.Roll)
			}
			rs := &rollStep{name: st.Roll, faces: st.Faces, memo: map[int]*poolDist{}, explode: map[int]bool{}, lvl: len(c.pools) + 1}
			if err := facesOf(rs, st, sc); err != nil {
				return nil, at(err, st.Roll)
			}
			// The count names earlier pools only through their readings:
			// its level is one more than theirs.
			before := map[*rollStep]int{}
			for _, p := range sc.pools {
				before[p] = len(p.reads)
			}
			cnt, err := compileExpr(st.Dice, sc)
			if err != nil {
				return nil, at(err, st.Roll)
			}
			for p, n := range before {
				if len(p.reads) > n || strings.Contains(st.Dice, p.name+".") {
					rs.level = max(rs.level, p.level+1)
				}
			}
			if rs.level > MaxGrantLevel {
				return nil, at(limitErr("grant_level", MaxGrantLevel, rs.level), st.Roll)
			}
			rs.count, rs.countDyn, rs.countS = cnt, sc.dyn, sc.sy
			if st.Explode != nil {
				if st.Explode.Times < 1 || st.Explode.Times > MaxExplode {
					return nil, at(limitErr("explode", MaxExplode, st.Explode.Times), st.Roll)
				}
				for _, f := range st.Explode.On {
					if f < 1 || f > st.Faces {
						return nil, fileErr(0, "roll %s: explode on %d, a d%d has 1..%d", st.Roll, f, st.Faces, st.Faces)
					}
					rs.explode[f] = true
				}
				if len(rs.explode) == st.Faces {
					return nil, fileErr(0, "roll %s: a die exploding on every face", st.Roll)
				}
				rs.times = st.Explode.Times
			}
			sc.pools[st.Roll] = rs
			c.pools = append(c.pools, rs)
			c.steps = append(append(c.steps, sc.temps...), cstep{roll: rs})
			sc.temps = nil
		case st.Let != "" && st.Roll == "":
			if _, ok := sc.vars[st.Let]; ok || sc.pools[st.Let] != nil || !keyRE.MatchString(st.Let) || s.tables[st.Let] != nil || s.hasNumber(st.Let) || reserved[st.Let] {
				return nil, fileErr(0, "let %q: a new key of a-z, 0-9 and _ (not won, true or false)", st.Let)
			}
			var cases []ccase
			lvl := 0 // the last pool it reads (shape.lvl)
			if (st.Is == "") == (len(st.Cases) == 0) {
				return nil, fileErr(0, "let %s: either is or cases", st.Let)
			}
			if st.Is != "" {
				fn, err := compileExpr(st.Is, sc)
				if err != nil {
					return nil, at(err, st.Let)
				}
				cases = []ccase{{is: fn, isDyn: sc.dyn, isS: sc.sy}}
				lvl = sc.lvl
			}
			for i, cs := range st.Cases {
				var cc ccase
				var err error
				if cs.When != "" {
					if cc.when, err = compileExpr(cs.When, sc); err != nil {
						return nil, at(err, st.Let)
					}
					cc.whenDyn, cc.whenS = sc.dyn, sc.sy
					lvl = max(lvl, sc.lvl)
				} else if i != len(st.Cases)-1 {
					return nil, fileErr(0, "let %s: only the last case goes without when", st.Let)
				}
				if cc.is, err = compileExpr(cs.Is, sc); err != nil {
					return nil, at(err, st.Let)
				}
				cc.isDyn, cc.isS = sc.dyn, sc.sy
				lvl = max(lvl, sc.lvl)
				cases = append(cases, cc)
			}
			slot := len(sc.vars)
			for _, cc := range cases {
				if cc.whenDyn || cc.isDyn {
					sc.dynVars[slot] = true
				}
			}
			sc.vars[st.Let] = slot
			sc.lvls[slot] = lvl
			c.slots[st.Let] = slot
			c.steps = append(append(c.steps, sc.temps...), cstep{slot: slot, cases: cases})
			sc.temps = nil
		default:
			return nil, fileErr(0, "check %s: a step is a roll (roll, dice, faces) or a let (let, is or cases)", def.Key)
		}
	}
	c.nvars = len(sc.vars)
	c.dynSlots = sc.dynVars
	if def.Total != "" {
		if c.total, err = compileExpr(def.Total, sc); err != nil {
			return nil, at(err, "total")
		}
		c.totalS = sc.sy
	}
	rsc := sc
	if c.opposed {
		if def.Opposed.Tie != "active" && def.Opposed.Tie != "passive" {
			return nil, fileErr(0, "check %s: opposed.tie is active or passive", def.Key)
		}
		c.tieAct = def.Opposed.Tie == "active"
		if len(def.Opposed.Compare) == 0 {
			return nil, fileErr(0, "check %s: opposed.compare lists what decides", def.Key)
		}
		for _, x := range def.Opposed.Compare {
			fn, err := compileExpr(x, sc)
			if err != nil {
				return nil, at(err, "compare")
			}
			c.compare = append(c.compare, fn)
			c.compareS = append(c.compareS, sc.sy)
		}
		rsc = &scope{sys: s, vars: map[string]int{}, pools: map[string]*rollStep{}, result: true, sideVars: sc.vars, refSlots: map[int]bool{}}
	}
	err = s.compileResult(&c.verdict, def.Key, def.Result, rsc)
	if err == nil {
		err = s.compileSuccess(c, rsc)
	}
	for _, a := range def.Also {
		if err != nil {
			break
		}
		if !keyRE.MatchString(a.Key) {
			return nil, fileErr(0, "also %q: a key of a-z, 0-9 and _", a.Key)
		}
		v := &verdict{}
		err = at(s.compileResult(v, def.Key, a.Result, rsc), a.Key)
		c.also = append(c.also, namedVerdict{a.Key, v})
	}
	// The values hoisted out of the total, the comparison and the result.
	c.steps = append(c.steps, sc.temps...)
	sc.temps = nil
	c.nvars = len(sc.vars)
	ordered(c.steps, sc.lvls)
	c.passiveRef = rsc.passive
	for slot := range rsc.refSlots {
		c.refSlots = append(c.refSlots, slot)
	}
	sort.Ints(c.refSlots)
	// Every reading is known now (the result may read the pools too).
	for _, st := range c.steps {
		if st.roll != nil {
			st.roll.first = c.nreads
			c.nreads += len(st.roll.reads)
		}
	}
	return c, err
}

// ordered moves each let right after the last pool it reads (before the
// first pool when it reads none), the lets and the pools otherwise in
// the file's order: a let reads only earlier steps, whose own places are
// no later than its own, so every value is still computed before it is
// read; the walk then computes a value once per roll of the pools it
// reads, not of them all (Kingdom Hearts' total of four pools).
func ordered(steps []cstep, lvls map[int]int) {
	key := func(st cstep) int {
		if st.roll != nil {
			return 2 * st.roll.lvl
		}
		return 2*lvls[st.slot] + 1
	}
	sort.SliceStable(steps, func(i, j int) bool { return key(steps[i]) < key(steps[j]) })
}

func (s *System) compileResult(c *verdict, checkKey string, r Verdict, sc *scope) error {
	if len(r.Overrides)+len(r.Bands) > MaxBands {
		return limitErr("bands", MaxBands, len(r.Overrides)+len(r.Bands))
	}
	if len(r.Overrides)+len(r.Bands) == 0 {
		return fileErr(0, "check %s: a result needs overrides or bands", checkKey)
	}
	outcome := func(k string) error {
		if s.outcomes[k] == nil {
			return fileErr(0, "check %s: no outcome %q among outcomes", checkKey, k)
		}
		return nil
	}
	level := func(x string) (evalFn, error) {
		if x == "" {
			return nil, nil
		}
		return compileExpr(x, sc)
	}
	for _, o := range r.Overrides {
		if err := outcome(o.Outcome); err != nil {
			return err
		}
		w, err := compileExpr(o.When, sc)
		if err != nil {
			return at(err, o.Outcome)
		}
		ws := sc.sy
		l, err := level(o.Level)
		if err != nil {
			return at(err, o.Outcome)
		}
		c.overr = append(c.overr, cband{when: w, whenS: ws, outcome: o.Outcome, idx: s.outcomeIndex(o.Outcome), level: l})
	}
	if len(r.Bands) == 0 {
		return nil
	}
	needOn := len(r.Bands) > 1
	if needOn {
		fn, err := compileExpr(r.On, sc)
		if err != nil {
			return at(err, "on")
		}
		c.on, c.onS = fn, sc.sy
	}
	var prev *cband
	for i, b := range r.Bands {
		if err := outcome(b.Outcome); err != nil {
			return err
		}
		cb := cband{outcome: b.Outcome, idx: s.outcomeIndex(b.Outcome)}
		last := i == len(r.Bands)-1
		switch {
		case b.AtLeast != nil && b.Above == nil && !last:
			v, ok := parseNum(*b.AtLeast)
			if !ok {
				return fileErr(0, "band %s: at_least is a number, not %q", b.Outcome, *b.AtLeast)
			}
			cb.bound = v
		case b.Above != nil && b.AtLeast == nil && !last:
			v, ok := parseNum(*b.Above)
			if !ok {
				return fileErr(0, "band %s: above is a number, not %q", b.Outcome, *b.Above)
			}
			cb.bound, cb.strict = v, true
		case b.Above == nil && b.AtLeast == nil && last:
			cb.last = true
		default:
			return at(fileErr(0, "band %s: every band but the last has at_least or above; the last has neither", b.Outcome), b.Outcome)
		}
		if prev != nil && !cb.last {
			c := cb.bound.cmp(prev.bound)
			if c > 0 || (c == 0 && (cb.strict || !prev.strict)) {
				return at(fileErr(0, "band %s can never be reached: bands go from the highest bound down", b.Outcome), b.Outcome)
			}
		}
		l, err := level(b.Level)
		if err != nil {
			return at(err, b.Outcome)
		}
		cb.level = l
		c.bands = append(c.bands, cb)
		p := cb
		prev = &p
	}
	return nil
}

// Check returns the compiled check named key ("" = the first).
func (s *System) check(key string) (*check, error) {
	for _, c := range s.checks {
		if key == "" || c.def.Key == key {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no check %q", key)
}

func (s *System) outcomeIndex(k string) int {
	for i, o := range s.File.Outcomes {
		if o.Key == k {
			return i
		}
	}
	return -1
}

func (s *System) hasNumber(k string) bool { _, ok := s.numbers[k]; return ok }

// checkVocabulary checks an input's word vocabulary (count, again,
// signed, relative, lookup, faces, rest, gives) against the file's
// inputs and tables.
func (s *System) checkVocabulary(in *Input) error {
	num := in.Type == "number"
	bad := func(what string) error { return fileErr(0, "input %s: %s", in.Key, what) }
	if in.Count != "" {
		c := s.inputs[in.Count]
		if !num || c == nil || c == in || c.Type != "number" || len(in.Prefixes) == 0 {
			return bad("count is another number input, of a number input with prefixes")
		}
	}
	if in.Again != "" && in.Again != "add" && in.Again != "last" && in.Again != "twice" {
		return bad("again is add, last or twice")
	}
	if in.Again == "add" && !num {
		return bad("again: add is for a number input")
	}
	if in.Signed && !num {
		return bad("signed is for a number input")
	}
	if r := in.Relative; r != nil {
		if !num || len(r.Up)+len(r.Down) == 0 || r.Max != nil && *r.Max < 0 {
			return bad("relative: a number input's up or down prefixes, max not below 0")
		}
		for _, p := range append(append([]string{}, r.Up...), r.Down...) {
			if foldWord(p) == "" {
				return bad("relative: an empty prefix")
			}
		}
	}
	if l := in.Lookup; l != nil {
		tb := s.tables[l.Table]
		if !num || len(l.Prefixes) == 0 || tb == nil || tb.twoD {
			return bad("lookup: a number input's prefixes and a one-row table")
		}
	}
	for _, f := range in.Faces {
		if !num || f < *in.Min || f > *in.Max {
			return bad("faces are numbers of a number input, within its min and max")
		}
	}
	if in.Rest && len(in.Named) == 0 {
		return bad("rest is for an input with named values")
	}
	if g := in.Gives; g != nil {
		if len(g.Inputs) > MaxGives {
			return limitErr("gives", MaxGives, len(g.Inputs))
		}
		tb := s.tables[g.Table]
		if len(in.Named) == 0 || tb == nil || !tb.twoD || len(g.Inputs) == 0 {
			return bad("gives: an input with named values, a two-way table and inputs")
		}
		for _, k := range slices.Sorted(maps.Keys(g.Inputs)) {
			col, to := g.Inputs[k], s.inputs[k]
			if to == nil || to == in || to.Type != "number" || col < tb.cols.From || col > tb.cols.To {
				return fileErr(0, "input %s: gives: %s is no other number input, or %d no column of %s", in.Key, k, col, g.Table)
			}
			for _, nv := range in.Named {
				if nv.Value < tb.rows.From || nv.Value > tb.rows.To {
					return fileErr(0, "input %s: gives: named value %s is no row of %s", in.Key, nv.Key, g.Table)
				}
			}
		}
	}
	return nil
}
