package table

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/fold"
	"zaria/core/reply"
)

// Result is one roll on a table: the dice, the row they picked and its
// exact chance, the row's text with its [[…]] rolled, and the tables it
// named rolled in turn.
type Result struct {
	Table  Table
	Faces  []int
	Total  int
	Row    Row
	Chance *big.Rat
	Text   []reply.Span // the row with every [[…]] replaced by what it rolled
	Nested []*Result    // tables the row named, in order
	// Notes are [[…]] left as written: Names of tables not found, or
	// nested deeper than MaxDepth, or past MaxRolls.
	Missing, TooDeep []string
}

// Plain is the row's text as one string.
func (r *Result) Plain() string {
	var b strings.Builder
	for _, s := range r.Text {
		b.WriteString(s.Text)
	}
	return b.String()
}

// roller rolls tables of one chat for one command.
type roller struct {
	ctx    context.Context
	store  Store
	chat   core.ChatRef
	src    dice.Source
	budget *command.Budget
	rolls  int
}

var errNoLookup = errors.New("table: no sheet values in a table's dice")

// roll throws t's dice and reads the row, rolling what it holds.
func (ro *roller) roll(t Table, depth int) (*Result, error) {
	ro.rolls++
	if err := ro.budget.Spend(len(t.Dice.Sides()) + len(t.Rows)); err != nil {
		return nil, err
	}
	faces, total := t.Dice.Roll(ro.src)
	row, ok := t.RowOf(total)
	if !ok {
		return nil, fmt.Errorf("table %q: no row for %d", t.Key, total)
	}
	res := &Result{Table: t, Faces: faces, Total: total, Row: row, Chance: t.Dice.Chance(t.Dice.Ways(), row.Lo, row.Hi)}
	text := row.Text
	for {
		i := strings.Index(text, "[[")
		if i < 0 {
			break
		}
		j := strings.Index(text[i+2:], "]]")
		if j < 0 {
			break
		}
		if i > 0 {
			res.Text = append(res.Text, reply.T(text[:i]))
		}
		inner := strings.TrimSpace(text[i+2 : i+2+j])
		text = text[i+2+j+2:]
		spans, err := ro.inline(res, inner, depth)
		if err != nil {
			return nil, err
		}
		res.Text = append(res.Text, spans...)
	}
	if text != "" {
		res.Text = append(res.Text, reply.T(text))
	}
	return res, nil
}

// inline rolls one [[…]] of a row: a table of the chat by its name, else
// dice; else it stays as written.
func (ro *roller) inline(res *Result, inner string, depth int) ([]reply.Span, error) {
	asWritten := []reply.Span{reply.T("[[" + inner + "]]")}
	if ro.rolls >= MaxRolls {
		res.TooDeep = append(res.TooDeep, inner)
		return asWritten, nil
	}
	t, err := ro.store.Table(ro.ctx, ro.chat, fold.Key(inner))
	switch {
	case err == nil:
		if depth+1 >= MaxDepth {
			res.TooDeep = append(res.TooDeep, inner)
			return asWritten, nil
		}
		sub, err := ro.roll(t, depth+1)
		if err != nil {
			return nil, err
		}
		res.Nested = append(res.Nested, sub)
		return sub.Text, nil
	case !errors.Is(err, core.ErrNotFound):
		return nil, fmt.Errorf("table %q: %w", inner, err)
	}
	e, err := dice.Parse(inner)
	if err != nil || e.Repeat != 1 {
		res.Missing = append(res.Missing, inner)
		return asWritten, nil
	}
	if err := ro.budget.Spend(e.Cost()); err != nil {
		return nil, err
	}
	r, err := e.Roll(ro.src, func(string, string) (int, error) { return 0, errNoLookup })
	if err != nil {
		if errors.Is(err, dice.ErrSource) {
			return nil, err
		}
		res.Missing = append(res.Missing, inner)
		return asWritten, nil
	}
	ro.rolls++
	return []reply.Span{reply.B(strconv.FormatInt(r.Total(), 10))}, nil
}
