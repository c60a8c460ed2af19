package i18n

import (
	"fmt"
	"strings"
	"unicode"
)

// vocative is the template function "vocative": a Greek name as one
// addresses it ("σειρά σου, Κώστα", "Γεια σου, Νίκο"), each Greek word
// of it declined as a masculine name in -ας, -ης or -ος is:
//
//	Κώστας → Κώστα, Γιάννης → Γιάννη, Νίκος → Νίκο (two syllables),
//	Αλέξανδρος → Αλέξανδρε (more).
//
// Any other word (a Latin name, a feminine name, a nickname) is left as
// written: the vocative of most names is the name itself.
func vocative(v any) string {
	words := strings.Split(fmt.Sprint(v), " ")
	for i, w := range words {
		words[i] = vocativeWord(w)
	}
	return strings.Join(words, " ")
}

func vocativeWord(w string) string {
	r := []rune(w)
	if len(r) < 4 {
		return w
	}
	for _, c := range r {
		if !unicode.Is(unicode.Greek, c) {
			return w
		}
	}
	last, prev := unicode.ToLower(r[len(r)-1]), plainGreek(unicode.ToLower(r[len(r)-2]))
	if last != 'ς' && last != 'σ' {
		return w
	}
	stem := r[:len(r)-1]
	switch prev {
	case 'α', 'η':
		return string(stem) // Κώστα, Γιάννη, Ανδρέα
	case 'ο':
		if greekSyllables(r) > 2 {
			e := 'ε'
			if unicode.IsUpper(r[len(r)-2]) {
				e = 'Ε'
			}
			return string(r[:len(r)-2]) + string(e) // Αλέξανδρε
		}
		return string(stem) // Νίκο
	}
	return w
}

// plainGreek is a lower-case Greek vowel without its accent.
func plainGreek(c rune) rune {
	switch c {
	case 'ά':
		return 'α'
	case 'έ':
		return 'ε'
	case 'ή':
		return 'η'
	case 'ί', 'ϊ', 'ΐ':
		return 'ι'
	case 'ό':
		return 'ο'
	case 'ύ', 'ϋ', 'ΰ':
		return 'υ'
	case 'ώ':
		return 'ω'
	}
	return c
}

// greekSyllables counts the syllables of a Greek word: its vowels, a
// diphthong (αι, ει, οι, ου, αυ, ευ, υι) as one, and an unaccented ι
// before a vowel as none (Γιώργος has two).
func greekSyllables(r []rune) int {
	n := 0
	for i := 0; i < len(r); i++ {
		c := unicode.ToLower(r[i])
		p := plainGreek(c)
		if !strings.ContainsRune("αεηιουω", p) {
			continue
		}
		if i+1 < len(r) {
			next := unicode.ToLower(r[i+1])
			pn := plainGreek(next)
			diaeresis := strings.ContainsRune("ϊϋΐΰ", next)
			if !diaeresis && (strings.ContainsRune("αεο", p) && pn == 'ι' || strings.ContainsRune("αεο", p) && pn == 'υ' || p == 'υ' && pn == 'ι') {
				i++ // a diphthong
			} else if c == 'ι' && strings.ContainsRune("αεηιουω", pn) {
				continue // ι before a vowel: no syllable of its own
			}
		}
		n++
	}
	return n
}
