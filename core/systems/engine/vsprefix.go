package engine

import "zaria/core/fold"

// joinVsPrefix lets a system with no opposed check take "vs" as the prefix
// of a number input (Fate's "vs 2", Savage Worlds' "vs 6"): when one of
// its inputs declares a word of "vs" among its prefixes, "vs 2" is read
// as "vs2", and "vs Bueno" as the named value alone. Any other system's
// words are returned as they are (there "vs" starts the passive side).
func (s *System) joinVsPrefix(words []string) []string {
	for _, ck := range s.checks {
		if ck.opposed {
			return words
		}
	}
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !IsVs(w) || !s.hasPrefix(w) {
			out = append(out, w)
			continue
		}
		if i+1 == len(words) {
			out = append(out, w) // "vs" with nothing after it: named as wrong
			continue
		}
		if _, ok := number(words[i+1]); ok {
			out = append(out, w+words[i+1])
			i++
		}
		// "vs" before a named value: the value speaks for itself.
	}
	return out
}

// hasPrefix reports whether some input declares w as a prefix.
func (s *System) hasPrefix(w string) bool {
	k := fold.Key(w)
	for _, in := range s.inputs {
		for _, p := range in.Prefixes {
			if fold.Key(p) == k {
				return true
			}
		}
	}
	return false
}
