package engine

import (
	"math/big"
	"strings"
)

// table is a compiled Table: cells[row-from][col-from], impossible for "-".
type table struct {
	key        string
	rows, cols Axis
	twoD       bool
	cells      [][]num
}

func compileTable(t Table) (*table, error) {
	tb := &table{key: t.Key, rows: t.Rows, twoD: t.Cols != nil}
	nr := t.Rows.To - t.Rows.From + 1
	nc := 1
	if tb.twoD {
		tb.cols = *t.Cols
		nc = t.Cols.To - t.Cols.From + 1
	} else {
		nc = nr
		nr = 1
	}
	if nr < 1 || nc < 1 {
		return nil, fileErr(0, "table %s: from must not be above to", t.Key)
	}
	if nr*nc > MaxTableCells {
		return nil, limitErr("table_cells", MaxTableCells, nr*nc)
	}
	if len(t.Bounds) > 0 && len(t.Bounds) != nc && (tb.twoD || len(t.Bounds) != 1) {
		return nil, fileErr(0, "table %s: bounds: one per column", t.Key)
	}
	if len(t.Cells) != nr {
		return nil, fileErr(0, "table %s: %d rows of cells, its axis has %d", t.Key, len(t.Cells), nr)
	}
	for i, row := range t.Cells {
		if len(row) != nc {
			return nil, fileErr(0, "table %s: row %d has %d cells, not %d", t.Key, i+1, len(row), nc)
		}
		cr := make([]num, nc)
		for j, c := range row {
			c = strings.TrimSpace(c)
			if c == "-" {
				cr[j] = impossible
				continue
			}
			v, ok := parseNum(c)
			if !ok {
				return nil, fileErr(0, "table %s: cell %q is neither a number nor -", t.Key, c)
			}
			if len(t.Bounds) > 0 {
				b := t.Bounds[min(j, len(t.Bounds)-1)]
				if r := v.Rat(); !r.IsInt() || r.Cmp(big.NewRat(int64(b.Min), 1)) < 0 || r.Cmp(big.NewRat(int64(b.Max), 1)) > 0 {
					return nil, fileErr(0, "table %s: a cell of %s, outside %d..%d", t.Key, c, b.Min, b.Max)
				}
			}
			cr[j] = v
		}
		tb.cells = append(tb.cells, cr)
	}
	return tb, nil
}

// compile is NAME(row) or NAME(row, column); out of range is impossible.
func (tb *table) compile(args []node, p *parser) (node, error) {
	want := 1
	if tb.twoD {
		want = 2
	}
	if len(args) != want || args[0].fn == nil || (want == 2 && args[1].fn == nil) {
		return node{}, p.errorf("table %s takes %d values", tb.key, want)
	}
	f, sy, sh := p.kids(args...)
	r := f[0]
	if !tb.twoD {
		return node{shape: sh, sy: symConstArgs(tb.cell, sy), fn: func(e *env) num {
			return tb.cell1(r(e))
		}}, nil
	}
	c := f[1]
	return node{shape: sh, sy: symConstArgs(tb.cell, sy), fn: func(e *env) num {
		return tb.cell2(r(e), c(e))
	}}, nil
}

// cell is the table's cell at args (a row, and a column if 2-D).
func (tb *table) cell(args []num) num {
	if !tb.twoD {
		return tb.cell1(args[0])
	}
	return tb.cell2(args[0], args[1])
}

func (tb *table) cell1(x num) num {
	if !x.isInt() || x.n < int64(tb.rows.From) || x.n > int64(tb.rows.To) {
		return impossible
	}
	return tb.cells[0][x.n-int64(tb.rows.From)]
}

func (tb *table) cell2(x, y num) num {
	if !x.isInt() || !y.isInt() || x.n < int64(tb.rows.From) || x.n > int64(tb.rows.To) || y.n < int64(tb.cols.From) || y.n > int64(tb.cols.To) {
		return impossible
	}
	return tb.cells[x.n-int64(tb.rows.From)][y.n-int64(tb.cols.From)]
}
