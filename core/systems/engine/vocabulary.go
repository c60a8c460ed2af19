package engine

import (
	"slices"
	"strings"

	"zaria/core/fold"
)

// The vocabulary of a sub-command's words (docs/systems-format.md#word-vocabulary):
// dice words ("2d8": Input.Count), relative words ("pen+2":
// Input.Relative), table lookups ("absd8": Input.Lookup), a die's size
// in a set (Input.Faces), and, in a glued check (Check.Glued), a
// prefix's or suffix's number glued to it.

// foldWord folds a word like fold.Key, without spaces, but keeps its
// signs, which fold.Key reads as separators: "Pen−1" is "pen-1".
func foldWord(w string) string {
	parts := strings.Split(strings.ReplaceAll(w, "−", "-"), "-")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(fold.Key(p), " ", "")
	}
	return strings.Join(parts, "-")
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// vocabulary reads w as one of the words of the vocabulary above, into
// sd: took reports whether it was one (an error is always one).
func (s *System) vocabulary(c *check, inputs []*Input, sd *Side, w string, strict bool) (took bool, err error) {
	fw := foldWord(w)
	long := func(in *Input, num string) error { // a number too long to read
		if c.def.Glued {
			num = w
		}
		return &ParseError{Kind: "range", Input: in, Got: w, Min: *in.Min, Max: *in.Max, Number: num}
	}
	for _, in := range inputs {
		if r := in.Relative; r != nil {
			for sign, ps := range map[int][]string{1: r.Up, -1: r.Down} {
				for _, p := range ps {
					rest, ok := strings.CutPrefix(fw, foldWord(p))
					if !ok || !digits(rest) {
						continue
					}
					n, ok := number(rest)
					if !ok {
						return true, long(in, rest)
					}
					if r.Max != nil && n > *r.Max {
						return true, &ParseError{Kind: "range", Input: in, Got: w, Min: 0, Max: *r.Max, Value: n}
					}
					sd.Adds[in.Key] += sign * n
					return true, nil
				}
			}
		}
		if l := in.Lookup; l != nil {
			for _, p := range l.Prefixes {
				rest, ok := strings.CutPrefix(fw, foldWord(p))
				if !ok || !digits(rest) {
					continue
				}
				n, ok := number(rest)
				v, found := s.Cell(l.Table, n, 0)
				if !ok || !found || !v.IsInt() {
					return true, &ParseError{Kind: "lookup", Input: in, Got: rest}
				}
				sd.Adds[in.Key] += int(v.Num().Int64())
				return true, nil
			}
		}
		if in.Count != "" {
			if took, err := s.dice(in, sd, w, fw); took {
				return true, err
			}
		}
	}
	if c.def.Glued {
		if in, num := gluedPrefix(inputs, fw); in != nil {
			return true, setGlued(in, sd, w, num, strict, long)
		}
		if in, num := gluedSuffix(inputs, fw); in != nil {
			return true, setGlued(in, sd, w, num, strict, long)
		}
	}
	// A signed number alone too long to read ("+99999…"), for the
	// signed input it would go to.
	if n := strings.TrimLeft(fw, "+-"); digits(n) && len(fw)-len(n) <= 1 && (c.def.Bare != nil || hasSigned(inputs)) {
		if _, ok := number(fw); !ok {
			if in := bareInput(c, inputs, sd, fw); in != nil && in.Signed {
				return true, long(in, fw)
			}
		}
	}
	return false, nil
}

// dice reads a dice word of in (its sides; Input.Count its count):
// "2d8", or "d8" for one die.
func (s *System) dice(in *Input, sd *Side, w, fw string) (bool, error) {
	cin := s.inputs[in.Count]
	for _, p := range in.Prefixes {
		cnt, sides, ok := strings.Cut(fw, foldWord(p))
		if !ok || cnt != "" && !digits(cnt) || !digits(sides) {
			continue
		}
		bad := &ParseError{Kind: "dice", Input: in, Count: cin, Got: w}
		n, okn := 1, true
		if cnt != "" {
			n, okn = number(cnt)
		}
		f, okf := number(sides)
		lo, hi, _ := chatRange(cin)
		flo, fhi, _ := chatRange(in)
		if !okn || !okf || n < lo || n > hi || f < flo || f > fhi {
			return true, bad
		}
		for _, x := range []*Input{cin, in} {
			if sd.given(x) && sd.once(x) {
				return true, &ParseError{Kind: "twice", Input: in, Got: w, First: strings.Join(sd.Words[x.Key], " ")}
			}
		}
		sd.Inputs[cin.Key], sd.Inputs[in.Key] = n, f
		sd.Words[cin.Key], sd.Words[in.Key] = []string{w}, []string{w}
		return true, nil
	}
	return false, nil
}

// gluedPrefix is the input whose prefix starts fw with digits glued
// after it ("n17"), and those digits; a dice word's sides are its own.
func gluedPrefix(inputs []*Input, fw string) (*Input, string) {
	for _, in := range inputs {
		if in.Count != "" {
			continue
		}
		for _, p := range in.Prefixes {
			if rest, ok := strings.CutPrefix(fw, foldWord(p)); ok && digits(rest) {
				return in, rest
			}
		}
	}
	return nil, ""
}

// gluedSuffix is the input whose suffix ends fw with digits before it
// ("3db"), and those digits.
func gluedSuffix(inputs []*Input, fw string) (*Input, string) {
	for _, in := range inputs {
		for _, sfx := range in.Suffixes {
			if rest, ok := strings.CutSuffix(fw, foldWord(sfx)); ok && digits(rest) {
				return in, rest
			}
		}
	}
	return nil, ""
}

// setGlued gives in the number num glued in w: a "twice" error first
// when in takes one word (Input.Again), then the number's size, its
// faces (Input.Faces) and its range.
func setGlued(in *Input, sd *Side, w, num string, strict bool, long func(*Input, string) error) error {
	if sd.given(in) && sd.once(in) { // a tagged count too: one word in a glued check
		return &ParseError{Kind: "twice", Input: in, Got: w, First: strings.Join(sd.Words[in.Key], " ")}
	}
	n, ok := number(num)
	if len(in.Faces) > 0 && (!ok || !slices.Contains(in.Faces, n)) {
		pe := &ParseError{Kind: "faces", Input: in, Got: w, Value: n}
		if !ok {
			pe.Number = num // "d99999…": the digits as typed
		}
		return pe
	}
	if !ok {
		return long(in, num)
	}
	if err := sd.set(in, n, w, strict); err != nil {
		return err
	}
	sd.Words[in.Key] = []string{w}
	return nil
}
