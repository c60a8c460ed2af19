package roll

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
)

// advantageWords are the words that, after a roll with one d20, roll it
// twice and keep the higher (+1) or the lower (−1), in the three
// languages: /tirar 1d20+5 ventaja is /tirar 2d20kh1+5.
var advantageWords = map[string]int{
	"ventaja": 1, "desventaja": -1,
	"adv": 1, "dis": -1, "advantage": 1, "disadvantage": -1,
	"πλεονεκτημα": 1, "μειονεκτημα": -1, // folded: πλεονέκτημα, μειονέκτημα
}

// advantage finds an advantage word in args, a word of its own outside
// the label, and returns args with the roll's one d20 made 2d20kh1 or
// 2d20kl1, and the key of the line that says so. Without such a word it
// returns args unchanged and key "". A roll without exactly one d20, or
// whose d20 already keeps or drops, is a user error saying why.
func advantage(args string) (string, string, error) {
	cut := labelStart(args)
	start, end, sign := -1, -1, 0
	for i := 0; i < cut; {
		r := rune(args[i])
		if r >= 0x80 {
			r, _ = utf8.DecodeRuneInString(args[i:])
		}
		if !unicode.IsLetter(r) {
			i++
			continue
		}
		j := i
		for j < cut {
			r2, n := utf8.DecodeRuneInString(args[j:])
			if !unicode.IsLetter(r2) {
				break
			}
			j += n
		}
		if s, ok := advantageWords[fold.Key(args[i:j])]; ok && alone(args, i, j) {
			if sign != 0 {
				return "", "", command.Errorf("dice.err.duplicate", "near", args[i:j])
			}
			start, end, sign = i, j, s
		}
		i = j
	}
	if sign == 0 {
		return args, "", nil
	}
	word := args[start:end]
	rest := strings.TrimSpace(args[:start]) + " " + strings.TrimSpace(args[end:])
	rest = strings.TrimSpace(rest)
	e, err := dice.Parse(rest)
	if err != nil {
		return "", "", userError(err)
	}
	n := 0
	var d20 *dice.Dice
	for _, d := range e.Terms() {
		if d.Sides == 20 && !d.Fudge && d.CountX == nil && d.SidesX == nil {
			n += d.Count
			d20 = d
		}
	}
	near := strings.TrimSpace(e.Text)
	if n != 1 {
		return "", "", command.Errorf("dice.err.adv_count", "word", word, "near", near, "n", n)
	}
	if d20.Keep.Mode != dice.NoKeep {
		return "", "", command.Errorf("dice.err.adv_keep", "word", word, "near", d20.Text)
	}
	// "1d20r1" → "2d20kh1r1": the count and sides replaced, the modifiers kept
	text := d20.Text
	i := strings.Index(text, "20")
	for i >= 0 && i+2 < len(text) && text[i+2] >= '0' && text[i+2] <= '9' {
		i = -1 // 1d200 is not a d20 (Sides says so already)
	}
	if i < 0 {
		return "", "", command.Errorf("dice.err.adv_count", "word", word, "near", near, "n", 0)
	}
	keep, key := "kh1", "dice.advantage"
	if sign < 0 {
		keep, key = "kl1", "dice.disadvantage"
	}
	pos := d20.Pos()
	out := rest[:pos] + "2d20" + keep + text[i+2:] + rest[pos+len(text):]
	return out, key, nil
}

// alone reports whether args[i:j] is a word of its own in the roll, not
// part of an expression: not next to an operator, a bracket or a name.
func alone(args string, i, j int) bool {
	before := strings.TrimRightFunc(args[:i], unicode.IsSpace)
	after := strings.TrimLeftFunc(args[j:], unicode.IsSpace)
	if len(before) == i || before == "" { // glued to what precedes, or first
		return false
	}
	if strings.ContainsAny(before[len(before)-1:], "+-*/(,{@.:%") {
		return false
	}
	if after != "" && len(after) == len(args[j:]) { // glued to what follows
		return strings.ContainsAny(after[:1], "?;#")
	}
	return after == "" || !strings.ContainsAny(after[:1], "+-*/)}(,.:%[")
}

// labelStart is where a "# label" starts in args (len(args) when none):
// a '#' not glued to the digits of a repeat (6#4d6).
func labelStart(args string) int {
	for i := 0; i < len(args); i++ {
		if args[i] != '#' {
			continue
		}
		j := i
		for j > 0 && args[j-1] >= '0' && args[j-1] <= '9' {
			j--
		}
		if j == i || strings.TrimSpace(args[:j]) != "" {
			return i
		}
	}
	return len(args)
}
