package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"zaria/core/fold"
)

// A system whose command runs several checks (Dungeon Hack's "/dh
// ataque", "/dh rompe", "/dh uso") names the check by the first word:
// its word in es, el or en (Check.Word), its names or one of its
// keywords, without accents or case.

// SubWord is a word that names a check as a sub-command.
type SubWord struct {
	Word  string
	Check *Check
}

// SubWords are the words that name the file's checks as sub-commands,
// in the file's order, each check's es, en and el words, its names and
// then its keywords.
func (s *System) SubWords() []SubWord {
	var out []SubWord
	for i := range s.File.Checks {
		c := &s.File.Checks[i]
		for _, n := range c.subWords() {
			out = append(out, SubWord{Word: n, Check: c})
		}
	}
	return out
}

func (c *Check) subWords() []string {
	w := c.SubName()
	out := []string{w.ES, w.EN, w.EL}
	if c.Word != nil {
		out = append(out, c.Names.ES, c.Names.EN, c.Names.EL)
	}
	return append(out, c.Keywords...)
}

// SubCommand is the check that word names as a sub-command (nil: none).
func (s *System) SubCommand(word string) *Check {
	k := fold.Key(word)
	for _, sw := range s.SubWords() {
		if fold.Key(sw.Word) == k {
			return sw.Check
		}
	}
	return nil
}

// SubName is the check's word as a sub-command, in each language: its
// word, else its names.
func (c *Check) SubName() Names {
	if c.Word != nil {
		return *c.Word
	}
	return c.Names
}

// ParseCheck reads the words of the check key, one side and no "vs"
// (a sub-command's words: "/dh pen 17"), refusing a number out of its
// input's range; a ParseError names the check (its errors).
func (s *System) ParseCheck(key string, words []string) (*Parsed, error) {
	c, err := s.check(key)
	if err != nil || key == "" {
		return nil, fmt.Errorf("engine: no check %q", key)
	}
	sd, err := s.parseSide(c, s.checkInputs(c), words, true)
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		pe.Check = c.def
	}
	if err != nil {
		return nil, err
	}
	return &Parsed{Check: key, Active: sd}, nil
}

// ParseWords reads a command's words as a system's own command takes
// them: in a file that gives its checks words or keywords, a first word
// naming a check (SubCommand) reads the words after it as that check's
// (ParseCheck: "/iron progreso 6"); any other words are Parse's.
func (s *System) ParseWords(words []string) (*Parsed, error) {
	if len(words) > 0 && slices.ContainsFunc(s.File.Checks, func(c Check) bool { return c.Word != nil || len(c.Keywords) > 0 }) {
		if c := s.SubCommand(words[0]); c != nil {
			return s.ParseCheck(c.Key, words[1:])
		}
	}
	return s.Parse(words)
}

// checkSubWords refuses a check's error of no kind or no catalog key
// and, in a file that gives its checks words or
// keywords, a word without all three languages, an empty keyword, and a
// word that names two checks.
func checkSubWords(f *File) error {
	for _, c := range f.Checks {
		for _, kind := range slices.Sorted(maps.Keys(c.Errors)) {
			if !errorKinds[kind] && !fileErrorKinds[kind] {
				return fileErr(0, "check %s: errors: %q is no kind of error", c.Key, kind)
			}
			if !catalogKeyRE.MatchString(c.Errors[kind]) {
				return fileErr(0, "check %s: errors: %s: %q is no catalog key", c.Key, kind, c.Errors[kind])
			}
		}
	}
	if !slices.ContainsFunc(f.Checks, func(c Check) bool { return c.Word != nil || len(c.Keywords) > 0 }) {
		return nil
	}
	of := map[string]string{} // folded word → its check
	for i := range f.Checks {
		c := &f.Checks[i]
		if c.Word != nil {
			if err := checkNames(*c.Word, label("check %s: word", c.Key)); err != nil {
				return err
			}
		}
		for _, n := range c.subWords() {
			k := fold.Key(n)
			if k == "" {
				return fileErr(0, "check %s: an empty keyword", c.Key)
			}
			if other, ok := of[k]; ok && other != c.Key {
				return fileErr(0, "check %s: the word %q names check %s too", c.Key, n, other)
			}
			of[k] = c.Key
		}
	}
	return nil
}
