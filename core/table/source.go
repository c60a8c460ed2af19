package table

// Source is a table as it is typed to /tabla crear: what a form to edit
// it starts from (the page's tables screen).
type Source struct {
	// Dice is the dice to keep on an edit: "" when the rows decide (plain
	// lines, one total each from 1 up), else the table's ("2d6").
	Dice string
	// Rows are the table's lines: its texts when Dice is "", else
	// "lo-hi text" ("4 text" for a single total).
	Rows []string
}

// Source gives t as typed: Build(s.Rows, the dice of s.Dice) makes t's
// rows again.
func (t Table) Source() Source {
	plain := t.Dice.Min() == 1 && t.Dice.Max() == len(t.Rows)
	for j, r := range t.Rows {
		if r.Lo != j+1 || r.Hi != j+1 {
			plain = false
		}
	}
	s := Source{Rows: make([]string, len(t.Rows))}
	for j, r := range t.Rows {
		if plain {
			s.Rows[j] = r.Text
		} else {
			s.Rows[j] = r.Line()
		}
	}
	if !plain {
		s.Dice = t.Dice.String()
	}
	return s
}

// Line writes r as a line of /tabla crear: "3-5 text", "4 text".
func (r Row) Line() string { return rangeText(r.Lo, r.Hi) + " " + r.Text }
