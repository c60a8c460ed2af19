package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/fold"
)

// The chat's words for a check, read from the file's input declarations
// in any order (docs/systems-format.md#chat-grammar):
//
//	@Name                     whose sheet (one per side)
//	vs / contra / εναντίον …  the passive side follows (an opposed check)
//	a flag's keyword          npc
//	prefix and number         dc15, dc 15
//	a named value             medio, "muy difícil", Μέτριο (es, el, en, keywords)
//	a+b                       a terms input: numbers or sheet keys
//	a number                  the first number or terms input not yet given
//	a word                    a sheet key, for a terms input not yet given

// Term is one term of a terms input: a number, or a sheet key to read.
type Term struct {
	N     int
	Key   string
	Times int // a characteristic's multiplier (Input.Times), 0 for none
}

// Side is what one side's words gave.
type Side struct {
	Who    string
	Inputs map[string]int
	Terms  map[string][]Term   // the terms inputs, before the sheet is read
	Words  map[string][]string // the words that gave each input, as typed
	// Sheets are sheet keys whose text gives more tagged counts (a
	// tagged count input with sheet: true; Kingdom Hearts' specialty
	// "fuerza" = "2s 1i"): the caller reads each and calls More.
	Sheets []string
	// Adds are what relative and lookup words add to each input's value
	// ("pen+2 pen-1": 1), for the caller to add to the value it ends with.
	Adds map[string]int

	again map[string]string // the check's Again
}

// once reports whether in typed again is a "twice" error (no again:
// add or last), a tagged count too.
func (sd *Side) once(in *Input) bool {
	a := sd.againOf(in)
	return a != "add" && a != "last"
}

// againOf is what in typed again does on this side (Input.Again, or its
// check's Again).
func (sd *Side) againOf(in *Input) string {
	if a, ok := sd.again[in.Key]; ok {
		return a
	}
	return in.Again
}

// Parsed is a check's words read.
type Parsed struct {
	Check   string
	Active  Side
	Passive *Side
}

// ParseError says which word or input is wrong: Kind "word" (a word
// that means nothing here), "range" (a number outside its input's range:
// Min, Max), "twice" (an input given twice), "missing" (a required
// input not given), "terms" (a terms input with too many parts), "vs"
// ("vs" twice), "opposed" (a "vs" where the system has no opposed
// check), "check" (a word of an input of the system that this check does
// not take: Input; Daegon's "d2" in an opposed test), "sheet" (a sheet
// key's text that gives none of the input's tagged counts: More).
type ParseError struct {
	Kind     string
	Input    *Input
	Got      string
	Min, Max int
	Part     *Part  // the term's part out of range ("range"), if one
	Times    *Times // a characteristic ("range") or its multiplier ("by") out of range
	Value    int    // the number out of range ("range")
	Number   string // the number as typed, when too long to read ("range")
	// Unnamed, for a word that fits nothing ("word", no Input), is the
	// first input of the check not yet given that has named values, or
	// the one whose named value the word follows: the words may misspell
	// one of its values. Rest are the side's words from the wrong one (or
	// that value) on ("muy dificl", "δύσκολο πολύ πολύ").
	Unnamed *Input
	Rest    []string
	// Before is the sheet key typed just before the wrong word, which
	// may be the first word of a misspelt name ("muy dificl").
	Before string
	// Check is the check whose words were read by name (ParseCheck),
	// whose errors name the error before the file's.
	Check *Check
	// First is the word that gave the input first ("twice").
	First string
	// Count is a dice word's count input ("dice": Input is its sides).
	Count *Input
	// Rests are the side's rest inputs, in order, whose values the words
	// from Rest named none of ("name": Input is the first).
	Rests []*Input
}

func (e *ParseError) Error() string {
	k := ""
	if e.Input != nil {
		k = " " + e.Input.Key
	}
	return "engine: " + e.Kind + k + " " + strconv.Quote(e.Got)
}

var vsWords = map[string]bool{"vs": true, "vs.": true, "v": true, "contra": true, "versus": true, "against": true, "εναντιον": true, "κατα": true}

// IsVs reports whether a word means "against" in es, el or en.
func IsVs(w string) bool { return vsWords[fold.Key(w)] }

// Parse reads a check's words, refusing a number out of its input's range.
func (s *System) Parse(words []string) (*Parsed, error) { return s.parse(words, true) }

// ParseUnchecked reads a check's words without checking the numbers'
// ranges, for a caller that checks them with messages of its own.
func (s *System) ParseUnchecked(words []string) (*Parsed, error) { return s.parse(words, false) }

func (s *System) parse(words []string, strict bool) (*Parsed, error) {
	words = s.joinVsPrefix(words) // vsprefix.go
	left, right, vs := words, []string(nil), false
	for i, w := range words {
		if IsVs(w) {
			if vs {
				return nil, &ParseError{Kind: "vs", Got: w}
			}
			left, right, vs = words[:i], words[i+1:], true
		}
	}
	// The opposed check, or with "vs" a check with passive inputs (RQ's
	// offensive against defensive); without "vs", the first check that
	// is neither.
	var c *check
	for _, ck := range s.checks {
		if ck.opposed == vs && s.hasPassive(ck) == (vs && !ck.opposed) {
			c = ck
			break
		}
	}
	if c == nil && vs {
		for _, ck := range s.checks {
			if !ck.opposed && s.hasPassive(ck) {
				c = ck
				break
			}
		}
	}
	if c == nil {
		return nil, &ParseError{Kind: "opposed", Got: "vs"}
	}
	act, pas := s.checkInputs(c), s.checkInputs(c)
	if !c.opposed && vs {
		act, pas = nil, nil
		for _, in := range s.checkInputs(c) {
			if in.Passive {
				pas = append(pas, in)
			} else {
				act = append(act, in)
			}
		}
	}
	p := &Parsed{Check: c.def.Key}
	var err error
	if p.Active, err = s.parseSide(c, act, left, strict); err != nil {
		return nil, err
	}
	if vs {
		pas, err := s.parseSide(c, pas, right, strict)
		if err != nil {
			return nil, err
		}
		p.Passive = &pas
	}
	return p, nil
}

func (s *System) hasPassive(c *check) bool {
	for _, in := range s.checkInputs(c) {
		if in.Passive {
			return true
		}
	}
	return false
}

// sideOpts are how a side's words are read: whether "@Name" names its
// sheet, and whether an input left out is a "missing" error.
type sideOpts struct {
	who, missing bool
	lastWho      bool // a second "@Name" replaces the first
}

func (s *System) parseSide(c *check, inputs []*Input, words []string, strict bool) (Side, error) {
	return s.readSide(c, inputs, words, strict, sideOpts{who: true, missing: true})
}

func (s *System) readSide(c *check, inputs []*Input, words []string, strict bool, opts sideOpts) (Side, error) {
	sd := Side{Inputs: map[string]int{}, Terms: map[string][]Term{}, Words: map[string][]string{}, Adds: map[string]int{}, again: c.def.Again}
	given := sd.given
	set := func(in *Input, v int, got string) error { return sd.set(in, v, got, strict) }
	lastSheet := -1 // the index of the last word read as a sheet key
	var lastNamed namedAt
	restIn := restInput(inputs)
	var rest []string // the words no input took, for restIn
	if in := s.inputs[c.def.Alone]; in != nil && len(words) == 1 && slices.Contains(inputs, in) {
		if n, ok := number(words[0]); ok {
			err := sd.set(in, n, words[0], strict)
			sd.Words[in.Key] = words
			return sd, err
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		k := fold.Key(w)
		start := i
		typed := func(in *Input) { sd.Words[in.Key] = words[start : i+1] }
		if strings.HasPrefix(w, "@") && len(w) > 1 && (sd.Who == "" || opts.lastWho) && opts.who {
			sd.Who = w[1:]
			continue
		}
		if took, err := s.vocabulary(c, inputs, &sd, w, strict); took || err != nil {
			if err != nil {
				return sd, err
			}
			continue
		}
		if in := flagOf(inputs, k); in != nil {
			if err := set(in, 1, w); err != nil {
				return sd, err
			}
			typed(in)
			continue
		}
		if in, rest := prefixed(inputs, w); in != nil && !c.def.Glued {
			got := w
			if rest == "" && i+1 < len(words) {
				i++
				rest = words[i]
				got = w + " " + rest // "hambre 9" named whole in a range error
			}
			n, ok := number(rest)
			if !ok {
				if err := tooLong(in, got, rest); err != nil {
					return sd, err
				}
				return sd, &ParseError{Kind: "word", Input: in, Got: w}
			}
			if err := set(in, n, got); err != nil {
				return sd, err
			}
			typed(in)
			continue
		}
		if in, t, used, err := s.times(inputs, given, words[i:], strict); in != nil || err != nil {
			if err != nil {
				return sd, err
			}
			i += used - 1
			sd.Terms[in.Key] = []Term{t}
			typed(in)
			continue
		}
		if in, n, ok := suffixed(inputs, w); in != nil && !c.def.Glued {
			if !ok {
				if err := tooLong(in, w, strings.TrimRight(w, "abcdefghijklmnopqrstuvwxyz")); err != nil {
					return sd, err
				}
				return sd, &ParseError{Kind: "word", Input: in, Got: w}
			}
			if err := set(in, n, w); err != nil {
				return sd, err
			}
			typed(in)
			continue
		}
		if in, v, used := named(inputs, words[i:]); in != nil {
			if err := set(in, v, strings.Join(words[i:i+used], " ")); err != nil {
				return sd, err
			}
			lastNamed = namedAt{in: in, start: i, end: i + used - 1}
			i += used - 1
			typed(in)
			continue
		}
		if n, ok := number(w); ok {
			in := firstFree(inputs, given)
			if c.def.Bare != nil || hasSigned(inputs) {
				in = bareInput(c, inputs, &sd, w)
			}
			if in == nil && restIn != nil {
				rest = append(rest, w)
				continue
			}
			if tw := signedTwice(inputs, &sd, w); in == nil && tw != nil {
				return sd, &ParseError{Kind: "twice", Input: tw, Got: w, First: strings.Join(sd.Words[tw.Key], " ")}
			}
			if in == nil {
				return sd, s.wordErr(inputs, given, words, i, lastSheet, lastNamed)
			}
			if in.Type == "terms" {
				sd.Terms[in.Key] = []Term{{N: n}}
				typed(in)
				continue
			}
			if err := set(in, n, w); err != nil {
				return sd, err
			}
			typed(in)
			continue
		}
		if restIn != nil {
			rest = append(rest, w)
			continue
		}
		// a+b, or a sheet key: the first terms input not yet given.
		var in *Input
		for _, x := range inputs {
			if x.Type == "terms" && !given(x) {
				in = x
				break
			}
		}
		if in == nil && !strings.HasPrefix(w, "@") && !strings.Contains(w, "+") {
			// A sheet key for a number input that reads one (sheet: true).
			for _, x := range inputs {
				if x.Sheet && x.Type == "number" && len(x.Suffixes) == 0 && !given(x) {
					if _, isNum := number(w); !isNum {
						sd.Terms[x.Key] = []Term{{Key: w}}
						typed(x)
						in = x
					}
					break
				}
			}
			// A sheet key whose text gives tagged counts (a specialty).
			if sx := sheetCounts(inputs); in == nil && sx != nil && len(sd.Sheets) == 0 {
				if _, isNum := number(w); !isNum {
					sd.Sheets = append(sd.Sheets, w)
					in = sx
				}
			}
			if in != nil {
				lastSheet = i
				continue
			}
		}
		if in == nil || strings.HasPrefix(w, "@") {
			return sd, s.wordErr(inputs, given, words, i, lastSheet, lastNamed)
		}
		parts := strings.Split(w, "+")
		if len(parts) > len(in.Parts) {
			return sd, &ParseError{Kind: "terms", Input: in, Got: w}
		}
		var ts []Term
		for _, p := range parts {
			if p == "" {
				return sd, &ParseError{Kind: "word", Input: in, Got: w}
			}
			if n, ok := number(p); ok {
				ts = append(ts, Term{N: n})
			} else {
				ts = append(ts, Term{Key: p})
			}
		}
		sd.Terms[in.Key] = ts
		typed(in)
	}
	if len(rest) > 0 {
		// The first rest input whose value the words name; none: the
		// first one's error.
		in, v, ok := restIn, 0, false
		for _, x := range inputs {
			if x.Rest {
				if v, ok = restName(x, rest); ok {
					in = x
					break
				}
			}
		}
		if !ok {
			pe := &ParseError{Kind: "name", Input: restIn, Got: strings.Join(rest, " "), Rest: rest}
			for _, x := range inputs {
				if x.Rest {
					pe.Rests = append(pe.Rests, x)
				}
			}
			return sd, pe
		}
		if err := set(in, v, strings.Join(rest, " ")); err != nil {
			return sd, err
		}
		sd.Words[in.Key] = rest
	}
	for _, in := range inputs {
		if v, ok := sd.Inputs[in.Key]; ok && in.Gives != nil {
			s.Give(&sd, in.Key, v)
		}
	}
	for _, in := range inputs {
		if opts.missing && !given(in) && in.Type != "flag" && !in.Optional && in.Default == nil {
			return sd, &ParseError{Kind: "missing", Input: in}
		}
	}
	return sd, nil
}

// Resolve turns a side's terms into numbers (sheet reads a sheet key),
// checking each part's range and the sum's; the labels show each term as
// typed ("4", "fuerza 4").
func (s *System) Resolve(sd *Side, sheet func(key string) (int, error)) (labels map[string][]string, err error) {
	labels = map[string][]string{}
	for key, ts := range sd.Terms {
		in := s.inputs[key]
		sum := 0
		for j, t := range ts {
			v, label := t.N, strconv.Itoa(t.N)
			if t.Key != "" {
				if v, err = sheet(t.Key); err != nil {
					return nil, err
				}
				label = t.Key + " " + strconv.Itoa(v)
			}
			if tm := in.Times; t.Times > 0 && tm != nil {
				if v < tm.Min || v > tm.Max {
					return nil, &ParseError{Kind: "range", Input: in, Times: tm, Got: strconv.Itoa(v), Min: tm.Min, Max: tm.Max, Value: v}
				}
				if t.Key != "" { // a characteristic as the rules name it: "con", "συν"
					label = fold.Key(t.Key) + " " + strconv.Itoa(v)
				}
				label += "×" + strconv.Itoa(t.Times)
				v *= t.Times
			} else if lo, hi, _ := chatRange(in); in.Chat != nil && (v < lo || v > hi) {
				return nil, &ParseError{Kind: "range", Input: in, Got: strconv.Itoa(v), Min: lo, Max: hi, Value: v}
			}
			if len(ts) > 1 { // a+b: each term in its part's range, the parts typed in order
				p := &in.Parts[j]
				if v < p.Min || v > p.Max {
					return nil, &ParseError{Kind: "range", Input: in, Part: p, Got: strconv.Itoa(v), Min: p.Min, Max: p.Max, Value: v}
				}
			}
			sum += v
			labels[key] = append(labels[key], label)
		}
		if sum < *in.Min || sum > *in.Max {
			return nil, &ParseError{Kind: "range", Input: in, Got: strconv.Itoa(sum), Min: *in.Min, Max: *in.Max, Value: sum}
		}
		sd.Inputs[key] = sum
	}
	return labels, nil
}

// wordErr is the error of rest[0], a word that fits no input of the
// check: "check" when it fits an input of the system that the check does
// not take, else "word", naming the input it may misspell.
// namedAt is where a named value was read: its input and words.
type namedAt struct {
	in         *Input
	start, end int
}

func (s *System) wordErr(inputs []*Input, given func(*Input) bool, words []string, i, lastSheet int, lastNamed namedAt) error {
	rest := words[i:]
	w := rest[0]
	var others []*Input
	for i := range s.File.Inputs {
		in := s.inputs[s.File.Inputs[i].Key]
		if !slices.Contains(inputs, in) {
			others = append(others, in)
		}
	}
	if in := flagOf(others, fold.Key(w)); in != nil {
		return &ParseError{Kind: "check", Input: in, Got: w}
	}
	if in, _ := prefixed(others, w); in != nil {
		return &ParseError{Kind: "check", Input: in, Got: w}
	}
	if in, _, _ := suffixed(others, w); in != nil {
		return &ParseError{Kind: "check", Input: in, Got: w}
	}
	if in, _, used := named(others, rest); in != nil {
		return &ParseError{Kind: "check", Input: in, Got: strings.Join(rest[:used], " ")}
	}
	pe := &ParseError{Kind: "word", Got: w, Rest: rest}
	if lastSheet == i-1 && lastSheet >= 0 {
		pe.Before = words[lastSheet]
	}
	for _, in := range inputs {
		if len(in.Named) > 0 && !given(in) {
			pe.Unnamed = in
			break
		}
	}
	// Right after a named value, the words may be a longer name misspelt
	// ("δύσκολο πολύ πολύ"): that input's, from the name on.
	if pe.Unnamed == nil && lastNamed.in != nil && lastNamed.end == i-1 {
		pe.Unnamed, pe.Rest = lastNamed.in, words[lastNamed.start:]
	}
	return pe
}

func (sd *Side) given(in *Input) bool {
	_, a := sd.Inputs[in.Key]
	_, b := sd.Terms[in.Key]
	return a || b
}

// set gives an input its value: a tagged count given again adds up
// ("2s" and a specialty's "1s"); another input given twice is an error.
func (sd *Side) set(in *Input, v int, got string, strict bool) error {
	add := 0 // what the input had, when this word adds to it
	if sd.given(in) {
		switch {
		case sd.againOf(in) == "add":
			add = sd.Inputs[in.Key]
		case sd.againOf(in) == "last":
		case len(in.Suffixes) == 0 || sd.againOf(in) == "twice":
			return &ParseError{Kind: "twice", Input: in, Got: got, First: strings.Join(sd.Words[in.Key], " ")}
		default:
			v += sd.Inputs[in.Key]
		}
	}
	// An input typed again to add up has each word's number in range,
	// not the sum ("+30 +30").
	if lo, hi, ok := chatRange(in); strict && ok && (v < lo || v > hi) {
		return &ParseError{Kind: "range", Input: in, Got: got, Min: lo, Max: hi, Value: v}
	}
	sd.Inputs[in.Key] = v + add
	return nil
}

// chatRange is the range of a number the chat's words give an input.
func chatRange(in *Input) (lo, hi int, ok bool) {
	if in.Chat != nil {
		return in.Chat.Min, in.Chat.Max, true
	}
	if in.Min == nil {
		return 0, 0, false
	}
	return *in.Min, *in.Max, true
}

func (s *System) checkInputs(c *check) []*Input {
	inputs := make([]*Input, 0, len(c.inputs))
	for _, k := range c.inputs {
		inputs = append(inputs, s.inputs[k])
	}
	return inputs
}

// sheetCounts is the first tagged count input whose counts a sheet key
// may give (sheet: true).
func sheetCounts(inputs []*Input) *Input {
	for _, in := range inputs {
		if in.Sheet && len(in.Suffixes) > 0 {
			return in
		}
	}
	return nil
}

// More reads a sheet key's text (one of sd.Sheets) as more tagged counts
// of the side ("2s 1i", commas allowed), each adding to what the words
// gave. A word of the text that is no tagged count is a "sheet" error of
// the input that took the key (Got: the key; Rest: the text).
func (s *System) More(check string, sd *Side, key, text string) error {
	c, err := s.check(check)
	if err != nil {
		return err
	}
	inputs := s.checkInputs(c)
	for _, w := range strings.Fields(strings.ReplaceAll(text, ",", " ")) {
		in, n, ok := suffixed(inputs, w)
		if in == nil || !ok {
			return &ParseError{Kind: "sheet", Input: sheetCounts(inputs), Got: key, Rest: []string{text}}
		}
		if err := sd.set(in, n, w, true); err != nil {
			return err
		}
	}
	return nil
}

// tooLong is a "range" error for a number too long to read ("dc" and
// twenty digits): never read as another word.
func tooLong(in *Input, got, digits string) error {
	d := strings.TrimLeft(strings.ReplaceAll(digits, "−", "-"), "+-")
	if d == "" || in.Min == nil || strings.Trim(d, "0123456789") != "" {
		return nil
	}
	return &ParseError{Kind: "range", Input: in, Got: got, Min: *in.Min, Max: *in.Max, Number: digits}
}

func flagOf(inputs []*Input, k string) *Input {
	for _, in := range inputs {
		if in.Type == "flag" {
			for _, kw := range in.Keywords {
				if fold.Key(kw) == k {
					return in
				}
			}
		}
	}
	return nil
}

// prefixed finds a prefix ("dc", "tn") at the start of w, in any case:
// the input and what follows it ("15", "-2", or "" when the number is the
// next word).
func prefixed(inputs []*Input, w string) (*Input, string) {
	lw := strings.ToLower(w)
	for _, in := range inputs {
		for _, p := range in.Prefixes {
			if rest, ok := strings.CutPrefix(lw, strings.ToLower(p)); ok {
				if _, isNum := number(rest); isNum || rest == "" || tooLong(in, w, rest) != nil {
					return in, rest
				}
			}
		}
	}
	return nil, ""
}

// suffixed reads a tagged count, "2s" or "+1i": the input whose suffix
// ends w, and the number before it (ok false when that is no number).
func suffixed(inputs []*Input, w string) (*Input, int, bool) {
	lw := strings.ToLower(w)
	for _, in := range inputs {
		for _, sfx := range in.Suffixes {
			if rest, ok := strings.CutSuffix(lw, strings.ToLower(sfx)); ok && rest != "" {
				if _, isNum := number(rest); isNum || strings.ContainsAny(rest, "0123456789") {
					n, ok := number(rest)
					return in, n, ok
				}
			}
		}
	}
	return nil, 0, false
}

// named matches the longest run of words (up to MaxNamedWords) that
// names a value, in any language or by a keyword.
func named(inputs []*Input, words []string) (*Input, int, int) {
	for n := min(MaxNamedWords, len(words)); n >= 1; n-- {
		k := fold.Key(strings.Join(words[:n], " "))
		for _, in := range inputs {
			if in.Rest {
				continue // its names are the side's leftover words together (restName)
			}
			for _, nv := range in.Named {
				cands := append([]string{nv.Names.ES, nv.Names.EL, nv.Names.EN}, nv.Keywords...)
				for _, c := range cands {
					if fold.Key(c) == k {
						return in, nv.Value, n
					}
				}
			}
		}
	}
	return nil, 0, 0
}

// firstFree is the input a bare number goes to: the first number or terms
// input not yet given, other than a tagged count ("2s" carries its tag).
func firstFree(inputs []*Input, given func(*Input) bool) *Input {
	for _, in := range inputs {
		if (in.Type == "number" || in.Type == "terms") && len(in.Suffixes) == 0 && !given(in) {
			return in
		}
	}
	return nil
}

func number(s string) (int, bool) {
	s = strings.ReplaceAll(s, "−", "-")
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil || n > 1_000_000 || n < -1_000_000 {
		return 0, false
	}
	return n, true
}

// Input is the file's input of that key (nil when none).
func (s *System) Input(key string) *Input { return s.inputs[key] }

// times reads a characteristic times a multiplier (Input.Times) at the
// start of words, for the first input not yet given that takes one: the
// input, its term and how many words it took (in nil when the words are
// no characteristic).
func (s *System) times(inputs []*Input, given func(*Input) bool, words []string, strict bool) (*Input, Term, int, error) {
	var in *Input
	for _, x := range inputs {
		if x.Times != nil && !given(x) {
			in = x
			break
		}
	}
	if in == nil {
		return nil, Term{}, 0, nil
	}
	tm := in.Times
	w, used := words[0], 1
	var t Term
	lw := strings.ToLower(w)
	found, by := false, ""
	for _, p := range tm.Prefixes {
		rest, ok := strings.CutPrefix(lw, strings.ToLower(p))
		if !ok {
			continue
		}
		orig := w[len(w)-len(rest):]
		switch {
		case rest == "" && len(words) > 1 && !IsVs(words[1]):
			t.Key, used, found = words[1], 2, true
		case strings.HasPrefix(rest, ":") && len(rest) > 1:
			t.Key, found = orig[1:], true
		case rest != "" && strings.Trim(rest, "0123456789") == "" || s.splitTimes(tm, rest) != "":
			num := rest
			if k, b := s.cutTimes(tm, rest); b != "" {
				num, by = k, b
			}
			if strings.Trim(num, "0123456789") != "" || num == "" {
				continue
			}
			n, ok := number(num)
			if !ok || strict && (n < tm.Min || n > tm.Max) {
				return in, t, 0, &ParseError{Kind: "range", Input: in, Times: tm, Got: w, Min: tm.Min, Max: tm.Max, Value: n, Number: map[bool]string{true: "", false: num}[ok]}
			}
			t.N, found = n, true
		}
		if found {
			break
		}
	}
	if !found && tm.Kind != "" && s.File.Sheet != nil {
		name, _ := s.cutTimes(tm, w)
		for _, k := range s.File.Sheet.Keys {
			if k.Kind != tm.Kind {
				continue
			}
			for _, n := range []string{k.Names.ES, k.Names.EL, k.Names.EN} {
				if fold.Key(n) == fold.Key(name) {
					t.Key, found = w, true
				}
			}
		}
	}
	if !found {
		return nil, Term{}, 0, nil
	}
	// The multiplier: glued ("c14x5", "c:fuex5") or the next word ("x5").
	t.Times = tm.By
	if t.Key != "" {
		t.Key, by = s.cutTimes(tm, t.Key)
	}
	if by == "" && used < len(words) {
		if k, b := s.cutTimes(tm, words[used]); k == "" && b != "" {
			by, used = b, used+1
		}
	}
	if by != "" {
		n, ok := number(by)
		if !ok || strict && (n < tm.ByMin || n > tm.ByMax) {
			got := "×" + by
			return in, t, 0, &ParseError{Kind: "by", Input: in, Times: tm, Got: got, Min: tm.ByMin, Max: tm.ByMax, Value: n, Number: map[bool]string{true: "", false: by}[ok]}
		}
		t.Times = n
	}
	return in, t, used, nil
}

// cutTimes cuts a multiplier off the end of w ("fuex5": "fue", "5";
// "x5": "", "5"); by is "" when w ends in none.
func (s *System) cutTimes(tm *Times, w string) (rest, by string) {
	lw := strings.ToLower(w)
	for _, sign := range tm.Signs {
		i := strings.LastIndex(lw, strings.ToLower(sign))
		if i < 0 {
			continue
		}
		digits := lw[i+len(strings.ToLower(sign)):]
		if digits != "" && strings.Trim(digits, "0123456789") == "" {
			return w[:i], digits
		}
	}
	return w, ""
}

// splitTimes is the characteristic's digits of "14x5" ("14"), or "".
func (s *System) splitTimes(tm *Times, rest string) string {
	k, by := s.cutTimes(tm, rest)
	if by == "" {
		return ""
	}
	return k
}

// hasSigned reports whether an input of the side takes only a signed
// number alone.
func hasSigned(inputs []*Input) bool {
	return slices.ContainsFunc(inputs, func(in *Input) bool { return in.Signed })
}

// bareInput is the input a number alone (w) goes to: among the check's
// bare inputs (Check.Bare; every number or terms input when it names
// none) of the side that are not yet given or may be typed again
// (adding up, or the last one counting), and that take w's sign
// (Input.Signed), a signed word's first signed one ("/dh2 +10 35": the
// modifier), else the first; nil when none.
func bareInput(c *check, inputs []*Input, sd *Side, w string) *Input {
	given := sd.given
	signed := strings.ContainsAny(w[:1], "+-−") || strings.HasPrefix(w, "−")
	ok := func(in *Input) bool {
		return (in.Type == "number" || in.Type == "terms") && len(in.Suffixes) == 0 &&
			(!given(in) || !sd.once(in)) && (signed || !in.Signed)
	}
	cands := inputs
	if c.def.Bare != nil {
		cands = nil
		for _, k := range c.def.Bare {
			for _, in := range inputs {
				if in.Key == k {
					cands = append(cands, in)
				}
			}
		}
	}
	first := (*Input)(nil)
	for _, in := range cands {
		if !ok(in) {
			continue
		}
		if !signed || in.Signed {
			return in
		}
		if first == nil {
			first = in
		}
	}
	return first
}

// signedTwice is the signed input (Input.Signed) that a signed number w
// would go to but for its being given already: GURPS' modifier in
// "12 -2 -1"; nil when w has no sign or none is given.
func signedTwice(inputs []*Input, sd *Side, w string) *Input {
	if !strings.ContainsAny(w[:1], "+-−") && !strings.HasPrefix(w, "−") {
		return nil
	}
	for _, in := range inputs {
		if in.Signed && sd.given(in) && sd.once(in) {
			return in
		}
	}
	return nil
}

// restInput is the side's first input that the words no other input
// takes may name (Input.Rest; the others are tried after it).
func restInput(inputs []*Input) *Input {
	for _, in := range inputs {
		if in.Rest {
			return in
		}
	}
	return nil
}

// restName is the value of in that words name together, in any
// language or by a keyword, a Greek name also as a sentence declines it
// ("εναντίον θώρακα" for "θώρακας").
func restName(in *Input, words []string) (int, bool) {
	k := fold.Key(strings.Join(words, " "))
	for _, nv := range in.Named {
		for _, kw := range nv.Keywords {
			if fold.Key(kw) == k {
				return nv.Value, true
			}
		}
	}
	for _, nv := range in.Named {
		for _, n := range []string{nv.Names.ES, nv.Names.EL, nv.Names.EN} {
			if fold.Key(n) == k {
				return nv.Value, true
			}
		}
	}
	if stem := GreekStem(k); stem != k || strings.IndexFunc(k, isGreek) >= 0 {
		for _, nv := range in.Named {
			if GreekStem(fold.Key(nv.Names.EL)) == stem {
				return nv.Value, true
			}
		}
	}
	return 0, false
}

func isGreek(r rune) bool { return unicode.Is(unicode.Greek, r) }

// GreekStem drops the final σ of each Greek word of a folded key, so that
// the nominative "φολιδωτοσ θωρακασ" and the accusative "φολιδωτο θωρακα"
// compare equal. A key without Greek letters is returned as it is.
func GreekStem(k string) string {
	if strings.IndexFunc(k, isGreek) < 0 {
		return k
	}
	words := strings.Fields(k)
	for i, w := range words {
		if utf8.RuneCountInString(w) > 2 && strings.HasSuffix(w, "σ") {
			words[i] = strings.TrimSuffix(w, "σ")
		}
	}
	return strings.Join(words, " ")
}

// Give sets the inputs that value of the named input gives (its
// Input.Gives: a weapon's damage dice and penetration), each one the
// side's words did not type; a "-" cell gives nothing.
func (s *System) Give(sd *Side, input string, value int) {
	in := s.inputs[input]
	if in == nil || in.Gives == nil {
		return
	}
	for k, col := range in.Gives.Inputs {
		if _, typed := sd.Words[k]; typed {
			continue
		}
		if v, ok := s.Cell(in.Gives.Table, value, col); ok && v.IsInt() {
			sd.Inputs[k] = int(v.Num().Int64())
		}
	}
}

// ParseInputs reads the words of the check key as one side of all its
// inputs, "@Name" being the caller's, none required: a sub-command whose
// inputs the command completes (Dungeon Hack's repair: the intact DB
// from the sheet). A ParseError names the check.
func (s *System) ParseInputs(key string, words []string) (*Side, error) {
	c, err := s.check(key)
	if err != nil || key == "" {
		return nil, fmt.Errorf("engine: no check %q", key)
	}
	return s.sideOf(c, s.checkInputs(c), words)
}

func (s *System) sideOf(c *check, inputs []*Input, words []string) (*Side, error) {
	sd, err := s.readSide(c, inputs, words, true, sideOpts{})
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		pe.Check = c.def
	}
	if err != nil {
		return nil, err
	}
	return &sd, nil
}

// ParseSide reads one side of the check key: the words before "vs"
// (passive false: the check's inputs that are not passive; "@Name" is
// the caller's) or after it (passive: the passive inputs, the last
// "@Name" naming whose sheet). An input the words leave out is no error: the
// caller fills it (a character's weapon from the sheet) or it takes its
// default. A ParseError names the check.
func (s *System) ParseSide(key string, passive bool, words []string) (*Side, error) {
	c, err := s.check(key)
	if err != nil || key == "" {
		return nil, fmt.Errorf("engine: no check %q", key)
	}
	var inputs []*Input
	for _, in := range s.checkInputs(c) {
		if in.Passive == passive {
			inputs = append(inputs, in)
		}
	}
	if !passive {
		return s.sideOf(c, inputs, words)
	}
	sd, err := s.readSide(c, inputs, words, true, sideOpts{who: true, lastWho: true})
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		pe.Check = c.def
	}
	if err != nil {
		return nil, err
	}
	return &sd, nil
}
