package table

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"zaria/core/command"
	"zaria/core/fold"
)

// Limits of the tables of a chat, each with its own message (es/el/en).
const (
	// MaxTables is how many tables one chat keeps.
	MaxTables = 50
	// MaxRows is how many rows one table has.
	MaxRows = 100
	// MaxRowChars is the longest row text, in characters.
	MaxRowChars = 200
	// MaxName is the longest table name, in characters.
	MaxName = 32
	// MaxInline is how many [[…]] one row holds.
	MaxInline = 5
	// MaxDepth is how deep a row may name another table that names
	// another: Encuentros → Botín → Gemas stops there.
	MaxDepth = 3
	// MaxRolls is how many tables and inline dice one command rolls.
	MaxRolls = 20
	// MaxInput is the longest /tabla message, in characters: a whole
	// table in one message (Telegram takes 4,096).
	MaxInput = 4000
)

// rangeRow is "1-2 Lobos", "3–5: Bandidos", "6. Un dragón", "96-00 Gema".
var rangeRow = regexp.MustCompile(`^(\d{1,4})(?:\s*[-–—]\s*(\d{1,4}))?\s*[:.)]?\s+(\S.*)$`)

// line is a row as written, before its dice are known.
type line struct {
	n      int // 1-based line number among the rows
	lo, hi int
	text   string
	ranged bool
}

// number reads a range bound; "00" is 100, as a d100 table writes it.
func number(s string) int {
	if s == "00" {
		return 100
	}
	v, _ := strconv.Atoi(s)
	return v
}

// OneLine splits the one-line form of a list (a table's rows, a deck's
// cards): by ';', by the Greek question mark U+037E a Greek keyboard
// types for it (it looks the same: issue 36), or by '|', which the Greek
// help teaches (';' is the Greek question mark).
func OneLine(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\u037e' || r == '|' })
}

// splitRows reads the rows of a create message: what follows the
// header's ':' split by OneLine, then every further line.
func splitRows(afterColon string, lines []string) []string {
	var out []string
	if strings.TrimSpace(afterColon) != "" {
		out = append(out, OneLine(afterColon)...)
	}
	out = append(out, lines...)
	var rows []string
	for _, r := range out {
		r = strings.TrimSpace(fold.StripInvisible(r))
		r = strings.TrimLeft(r, "•*-–— ")
		if r != "" {
			rows = append(rows, r)
		}
	}
	return rows
}

// Build checks rows as written and makes the table's rows and dice.
// given is the dice the GM named (nil: inferred from the ranges). Its
// errors are user errors naming the line that is wrong.
func Build(rows []string, given *Dice) (Dice, []Row, error) {
	if len(rows) == 0 {
		return Dice{}, nil, command.Errorf("table.err.no_rows")
	}
	if len(rows) > MaxRows {
		return Dice{}, nil, command.Errorf("table.err.too_many_rows", "max", MaxRows, "got", len(rows))
	}
	ls := make([]line, len(rows))
	for i, r := range rows {
		ls[i] = line{n: i + 1, text: r}
		if m := rangeRow.FindStringSubmatch(r); m != nil {
			ls[i].lo, ls[i].hi, ls[i].text, ls[i].ranged = number(m[1]), number(m[1]), m[3], true
			if m[2] != "" {
				ls[i].hi = number(m[2])
			}
		}
		if n := utf8.RuneCountInString(ls[i].text); n > MaxRowChars {
			return Dice{}, nil, command.Errorf("table.err.row_long", "line", i+1, "max", MaxRowChars, "got", n)
		}
		if fold.Clean(ls[i].text) != ls[i].text {
			ls[i].text = fold.Clean(ls[i].text)
		}
		if n := strings.Count(ls[i].text, "[["); n > MaxInline {
			return Dice{}, nil, command.Errorf("table.err.inline_many", "line", i+1, "max", MaxInline, "got", n)
		}
	}
	if !ls[0].ranged {
		// Text lines that weigh the same: 1 to n on a die of n sides
		// (a range-like start such as "3 goblins" is text here).
		if len(ls) < 2 {
			return Dice{}, nil, command.Errorf("table.err.one_row")
		}
		d := Dice{N: 1, S: len(ls)}
		if given != nil && *given != d {
			return Dice{}, nil, command.Errorf("table.err.weights_dice", "dice", given.String(), "n", len(ls))
		}
		out := make([]Row, len(ls))
		for i := range ls {
			out[i] = Row{Lo: i + 1, Hi: i + 1, Text: rows[i]}
			if fold.Clean(rows[i]) != rows[i] {
				out[i].Text = fold.Clean(rows[i])
			}
		}
		return d, out, nil
	}
	lo, hi := ls[0].lo, ls[0].hi
	for _, l := range ls {
		if !l.ranged {
			return Dice{}, nil, command.Errorf("table.err.mixed", "line", l.n, "text", fold.Cut(l.text, 40))
		}
		if l.hi < l.lo {
			return Dice{}, nil, command.Errorf("table.err.backwards", "line", l.n, "lo", l.lo, "hi", l.hi)
		}
		lo, hi = min(lo, l.lo), max(hi, l.hi)
	}
	var d Dice
	if given != nil {
		d = *given
	} else {
		var ok bool
		d, ok = inferDice(lo, hi, func(possible func(int) bool) bool {
			for _, l := range ls {
				if !possible(l.lo) || !possible(l.hi) {
					return false
				}
			}
			return true
		})
		if !ok {
			return Dice{}, nil, command.Errorf("table.err.no_dice", "lo", lo, "hi", hi)
		}
	}
	owner := make(map[int]int, d.Max()-d.Min()+1) // total → line
	for _, l := range ls {
		if !d.Possible(l.lo) || !d.Possible(l.hi) {
			return Dice{}, nil, command.Errorf("table.err.outside", "line", l.n, "text", rangeText(l.lo, l.hi),
				"dice", d.String(), "min", d.Min(), "max", d.Max())
		}
		for v := l.lo; v <= l.hi; v++ {
			if !d.Possible(v) {
				continue
			}
			if o, dup := owner[v]; dup {
				return Dice{}, nil, command.Errorf("table.err.overlap", "line", l.n, "other", o, "value", v)
			}
			owner[v] = l.n
		}
	}
	for v := d.Min(); v <= d.Max(); v++ {
		if d.Possible(v) && owner[v] == 0 {
			return Dice{}, nil, command.Errorf("table.err.gap", "value", v, "dice", d.String())
		}
	}
	out := make([]Row, len(ls))
	for i, l := range ls {
		out[i] = Row{Lo: l.lo, Hi: l.hi, Text: l.text}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lo < out[j].Lo })
	return d, out, nil
}

// rangeText writes a row's range: "4" or "3-5".
func rangeText(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
}

// RowOf finds the row of total v.
func (t Table) RowOf(v int) (Row, bool) {
	for _, r := range t.Rows {
		if v >= r.Lo && v <= r.Hi {
			return r, true
		}
	}
	return Row{}, false
}
