package fork

import (
	"strconv"

	"zaria/core/systems/engine"
)

// View is a chat's system as the page's rules screen shows it: what a
// fork's /sistema editar changes (its numbers, outcome names, band
// bounds, table cells, house rules) and what differs from the book, in
// words.
type View struct {
	Key, Title, Command string
	Own                 bool
	Numbers             []NumberView
	Names               []NameView // the outcomes' names, in the view's language
	Bands               []BandView
	Tables              []TableView
	Rules               []RuleView
	Changes             []string // "pifia: la del libro → 95"
}

// BandView is the bound of an outcome's first band (/sistema editar …
// banda OUTCOME N): Op is "≥" (at_least) or ">" (above).
type BandView struct {
	Key, Name, Op string
	Value         int
}

// TableView is a table whose cells a GM may change (/sistema editar …
// tabla KEY ROW COL VALUE): Cells[row-RowFrom][col-ColFrom], a number or
// "-" (impossible).
type TableView struct {
	Key                            string
	RowFrom, RowTo, ColFrom, ColTo int
	Cells                          [][]string
}

// RuleView is a house rule whose default a fork changes (/sistema
// editar … regla KEY CHOICE): Value is the chosen choice's key.
type RuleView struct {
	Key, Name, Value string
	Choices          []NameView
}

// NameView is an outcome's name a GM may change, by its key.
type NameView struct{ Key, Name string }

// NumberView is a number a GM may change, by its key.
type NumberView struct {
	Key, Name       string
	Value, Min, Max int
}

// Views are the chat's forks and own systems in tx's language; one the
// shipped file no longer admits says so.
func Views(fs []Fork, tx Texts) ([]View, error) {
	var out []View
	for _, f := range fs {
		var sys *engine.System
		var err error
		if f.Own() {
			sys, err = engine.Load(f.Source)
		} else if bs, ok := base(f.Base); ok {
			sys, _, err = Build(bs, f.Changes, tx.Lang)
		} else {
			continue
		}
		if err != nil {
			// No longer admitted by the shipped file: shown, not editable.
			out = append(out, View{Key: f.Key, Title: f.Key, Command: f.Key, Own: f.Own(),
				Changes: []string{tx.T("fork.broken", "cmd", "/system original "+f.Key)}})
			continue
		}
		v := View{Key: f.Key, Title: sys.File.Title.In(tx.Lang), Command: sys.File.Command, Own: f.Own()}
		if !f.Own() {
			bs, _ := base(f.Base)
			for _, n := range sys.File.Numbers {
				v.Numbers = append(v.Numbers, NumberView{Key: n.Key, Name: n.Names.In(tx.Lang), Value: n.Value, Min: n.Min, Max: n.Max})
			}
			for _, o := range sys.File.Outcomes {
				v.Names = append(v.Names, NameView{Key: o.Key, Name: o.Names.In(tx.Lang)})
				if b, ok := bandView(sys, o, tx.Lang); ok {
					v.Bands = append(v.Bands, b)
				}
			}
			for _, t := range sys.File.Tables {
				// A one-column table (no columns axis) is kept as one row
				// of cells, which a change by row does not reach yet.
				if t.Cols != nil {
					v.Tables = append(v.Tables, TableView{Key: t.Key, RowFrom: t.Rows.From, RowTo: t.Rows.To, ColFrom: t.Cols.From, ColTo: t.Cols.To, Cells: t.Cells})
				}
			}
			for _, h := range sys.File.HouseRules {
				r := RuleView{Key: h.Key, Name: h.Names.In(tx.Lang), Value: h.Default}
				for _, ch := range h.Choices {
					r.Choices = append(r.Choices, NameView{Key: ch.Key, Name: ch.Names.In(tx.Lang)})
				}
				v.Rules = append(v.Rules, r)
			}
			for _, c := range f.Changes {
				v.Changes = append(v.Changes, describe(tx, bs, c)+" → "+valueText(tx, sys, c))
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// bandView is the bound of o's first band in s, when it is a number.
func bandView(s *engine.System, o engine.Outcome, lang string) (BandView, bool) {
	f := s.File
	b := bandOf(&f, o.Key)
	if b == nil {
		return BandView{}, false
	}
	op, text := "≥", b.AtLeast
	if text == nil {
		op, text = ">", b.Above
	}
	n, err := strconv.Atoi(*text)
	if err != nil {
		return BandView{}, false
	}
	return BandView{Key: o.Key, Name: o.Names.In(lang), Op: op, Value: n}, true
}
