package command

import "strings"

// quotePairs are the quotes Words accepts around a word with spaces:
// straight, Spanish and Greek «», and curly.
var quotePairs = map[rune]rune{'"': '"', '«': '»', '“': '”', '„': '“'}

// Words splits s at spaces into words; a word written in quotes
// ("Orco 2", «Orco 2», “Orco 2”) may hold spaces and is returned without
// its quotes. quoted[i] says whether word i was quoted. ok is false when
// a quote is left open.
func Words(s string) (words []string, quoted []bool, ok bool) {
	rs := []rune(strings.TrimSpace(s))
	for i := 0; i < len(rs); {
		if rs[i] == ' ' || rs[i] == '\t' || rs[i] == '\n' {
			i++
			continue
		}
		if end, isQuote := quotePairs[rs[i]]; isQuote {
			j := i + 1
			for j < len(rs) && rs[j] != end {
				j++
			}
			if j >= len(rs) {
				return nil, nil, false
			}
			words = append(words, strings.Join(strings.Fields(string(rs[i+1:j])), " "))
			quoted = append(quoted, true)
			i = j + 1
			continue
		}
		j := i
		for j < len(rs) && rs[j] != ' ' && rs[j] != '\t' && rs[j] != '\n' {
			j++
		}
		words = append(words, string(rs[i:j]))
		quoted = append(quoted, false)
		i = j
	}
	return words, quoted, true
}
