package engine

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"zaria/core/fold"
)

// How the bot names a system outside its checks
// (docs/systems-format.md#top-level): the words that name it (its key,
// command, aliases and spellings: "/odds runequest 45", "/pj crear Lyra
// rq"), its place in the bot's lists (order) and the example /odds gives
// (odds_example, else example).

// Limits of the names. Each one has a message "engine.limit.<name>" in the
// es, el and en catalogs.
const (
	MaxSpellings = 8   // words of spellings
	MaxOrder     = 999 // the highest order
)

// compileNames checks the spellings, the order and the /odds example.
func (s *System) compileNames() error {
	f := &s.File
	if len(f.Spellings) > MaxSpellings {
		return limitErr("spellings", MaxSpellings, len(f.Spellings))
	}
	seen := map[string]bool{}
	for _, w := range append([]string{f.Command}, f.Aliases...) {
		seen[fold.Key(w)] = true
	}
	for _, w := range f.Spellings {
		k := fold.Key(w)
		if k == "" || strings.ContainsFunc(w, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) || utf8.RuneCountInString(w) > 32 {
			return at(fileErr(0, "spellings: one word of at most 32 characters, got %q", w), "spellings")
		}
		if seen[k] {
			return at(fileErr(0, "spellings: %q names the system twice (its command, an alias or another spelling)", w), "spellings")
		}
		seen[k] = true
	}
	if f.Order < 0 || f.Order > MaxOrder {
		return at(fileErr(0, "order: a number from 0 to %d, got %d", MaxOrder, f.Order), "order")
	}
	if ex := f.OddsExample; ex != nil {
		if err := namesText("odds_example", *ex, false); err != nil {
			return at(err, "odds_example")
		}
		// After a sub-command ("/odds dh ataque espada-larga vs coraza")
		// the words are the command's to read, not checked here.
		for _, t := range []string{ex.ES, ex.EL, ex.EN} {
			if words := strings.Fields(t); s.SubCommand(words[0]) != nil {
				continue
			}
			if _, err := s.Parse(strings.Fields(t)); err != nil {
				return at(fileErr(0, "odds_example: /%s %s is not a check the command reads (%v)", f.Command, t, err), "odds_example")
			}
		}
	}
	return nil
}

// Names reports whether word names the system: its key, command, an alias
// or a spelling, in any case and without accents.
func (s *System) Names(word string) bool {
	k := fold.Key(word)
	if k == "" {
		return false
	}
	for _, w := range append(append([]string{s.File.System, s.File.Command}, s.File.Aliases...), s.File.Spellings...) {
		if fold.Key(w) == k {
			return true
		}
	}
	return false
}

// OddsExample is a check's words for /odds in lang: odds_example, else
// example ("" when the file has neither).
func (s *System) OddsExample(lang string) string {
	if s.File.OddsExample != nil {
		return s.File.OddsExample.In(lang)
	}
	return s.Example(lang)
}

// Listed is the shipped systems in the bot's order: by order, those
// without one after, then by key.
func Listed() []string {
	keys := Shipped()
	order := func(k string) int {
		if o := MustBuiltin(k).File.Order; o > 0 {
			return o
		}
		return MaxOrder + 1
	}
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(order(a), order(b)) })
	return keys
}

// Named is the shipped system word names (System.Names), "" when none.
func Named(word string) string {
	for _, k := range Listed() {
		if MustBuiltin(k).Names(word) {
			return k
		}
	}
	return ""
}
