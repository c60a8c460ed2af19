package engine

import (
	"slices"

	"zaria/core/fold"
)

// A system whose command runs several checks (Dungeon Hack's "/dh
// ataque", "/dh rompe", "/dh uso") names the check by the first word:
// its word in es, el or en (Check.Word, else its names) or one of its
// keywords, without accents or case.

// SubWord is a word that names a check as a sub-command.
type SubWord struct {
	Word  string
	Check *Check
}

// SubWords are the words that name the file's checks as sub-commands,
// in the file's order, each check's es, en and el words and then its
// keywords.
func (s *System) SubWords() []SubWord {
	var out []SubWord
	for i := range s.File.Checks {
		c := &s.File.Checks[i]
		w := c.SubName()
		for _, n := range append([]string{w.ES, w.EN, w.EL}, c.Keywords...) {
			out = append(out, SubWord{Word: n, Check: c})
		}
	}
	return out
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

// checkSubWords refuses, in a file that gives its checks words or
// keywords, a word without all three languages, an empty keyword, and a
// word that names two checks.
func checkSubWords(f *File) error {
	if !slices.ContainsFunc(f.Checks, func(c Check) bool { return c.Word != nil || len(c.Keywords) > 0 }) {
		return nil
	}
	of := map[string]string{} // folded word → its check
	for i := range f.Checks {
		c := &f.Checks[i]
		if c.Word != nil {
			if err := checkNames(*c.Word, "check "+c.Key+": word"); err != nil {
				return err
			}
		}
		w := c.SubName()
		for _, n := range append([]string{w.ES, w.EN, w.EL}, c.Keywords...) {
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
