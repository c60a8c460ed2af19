package table_test

import (
	"slices"
	"testing"

	"zaria/core/table"
)

// TestSource: a table is given back as it is typed to /tabla crear —
// plain lines when each row is one total from 1 up, "lo-hi text" with
// its dice otherwise — and those lines build the same rows again.
func TestSource(t *testing.T) {
	for _, tc := range []struct {
		rows     []string
		dice     string // as given to /tabla crear, "" for none
		wantDice string
		want     []string
	}{
		{[]string{"Lobos", "Bandidos", "Nada"}, "", "", []string{"Lobos", "Bandidos", "Nada"}},
		{[]string{"1-3 Lobos", "4 Bandidos", "5-6 Nada"}, "", "1d6", []string{"1-3 Lobos", "4 Bandidos", "5-6 Nada"}},
		{[]string{"2-6 Lobos", "7 Bandidos", "8-12 Nada"}, "2d6", "2d6", []string{"2-6 Lobos", "7 Bandidos", "8-12 Nada"}},
	} {
		var given *table.Dice
		if tc.dice != "" {
			d, ok := table.ParseDice(tc.dice)
			if !ok {
				t.Fatalf("dice %q", tc.dice)
			}
			given = &d
		}
		d, rows, err := table.Build(tc.rows, given)
		if err != nil {
			t.Fatalf("%q: %v", tc.rows, err)
		}
		src := table.Table{Name: "Encuentros", Dice: d, Rows: rows}.Source()
		if src.Dice != tc.wantDice || !slices.Equal(src.Rows, tc.want) {
			t.Errorf("%q: source %+v, want %q %q", tc.rows, src, tc.wantDice, tc.want)
		}
		given = nil
		if src.Dice != "" {
			dd, _ := table.ParseDice(src.Dice)
			given = &dd
		}
		d2, rows2, err := table.Build(src.Rows, given)
		if err != nil || d2.String() != d.String() || !slices.Equal(rows2, rows) {
			t.Errorf("%q: built again %v %+v %v", tc.rows, d2, rows2, err)
		}
	}
}
