package transfer

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/deck"
	"zaria/core/fold"
	"zaria/core/table"
)

// exportTable is a random table in the export document.
type exportTable struct {
	Name string           `json:"name"`
	Dice string           `json:"dice"`
	Rows []exportTableRow `json:"rows"`
}

type exportTableRow struct {
	Lo   int    `json:"lo"`
	Hi   int    `json:"hi"`
	Text string `json:"text"`
}

// exportDeck is a deck in the export document: a GM's (kind "", its
// cards) or the state of a built-in one (its kind), and what was drawn.
type exportDeck struct {
	Name  string   `json:"name"`
	Kind  string   `json:"kind,omitempty"`
	Cards []string `json:"cards,omitempty"`
	Drawn []int    `json:"drawn,omitempty"`
}

// exportGMTools writes the chat's random tables and decks into doc.
func (s *Service) exportGMTools(ctx context.Context, chat core.ChatRef, doc *exportDoc) error {
	ts, err := s.store.ListTables(ctx, chat)
	if err != nil {
		return internal("list tables", err)
	}
	ets := make([]exportTable, 0, len(ts))
	for _, t := range ts {
		et := exportTable{Name: t.Name, Dice: t.Dice.String(), Rows: make([]exportTableRow, len(t.Rows))}
		for i, r := range t.Rows {
			et.Rows[i] = exportTableRow{Lo: r.Lo, Hi: r.Hi, Text: r.Text}
		}
		ets = append(ets, et)
	}
	ds, err := s.store.ListDecks(ctx, chat)
	if err != nil {
		return internal("list decks", err)
	}
	eds := make([]exportDeck, 0, len(ds))
	for _, d := range ds {
		eds = append(eds, exportDeck{Name: d.Name, Kind: d.Kind, Cards: d.Cards, Drawn: d.Drawn})
	}
	doc.Tables, doc.Decks = &ets, &eds
	return nil
}

// importGMTools checks a document's tables and decks as /tabla and /mazo
// check what they store, into out.
func importGMTools(doc *exportDoc, out *ChatData) error {
	if doc.Tables != nil {
		if len(*doc.Tables) > table.MaxTables {
			return command.Errorf("import.tables_many", "max", table.MaxTables, "got", len(*doc.Tables))
		}
		out.Tables = make([]table.Table, 0, len(*doc.Tables))
		seen := map[string]bool{}
		for _, et := range *doc.Tables {
			t, err := importTable(et)
			if err != nil || seen[t.Key] {
				return command.Errorf("import.bad_table", "name", fold.Cut(fold.Clean(et.Name), 40))
			}
			seen[t.Key] = true
			out.Tables = append(out.Tables, t)
		}
	}
	if doc.Decks != nil {
		out.Decks = make([]deck.Deck, 0, len(*doc.Decks))
		seen := map[string]bool{}
		own := 0
		for _, ed := range *doc.Decks {
			d, err := importDeck(ed)
			if d.Kind == "" {
				own++
			}
			if err != nil || seen[d.Key] || own > deck.MaxDecks {
				return command.Errorf("import.bad_deck", "name", fold.Cut(fold.Clean(ed.Name), 40))
			}
			seen[d.Key] = true
			out.Decks = append(out.Decks, d)
		}
	}
	return nil
}

// importTable rebuilds a table from its rows as /tabla crear would, so
// that a gap, an overlap or a row too long is refused.
func importTable(et exportTable) (table.Table, error) {
	if err := table.CheckName(et.Name); err != nil {
		return table.Table{}, err
	}
	d, ok := table.ParseDice(et.Dice)
	if !ok {
		return table.Table{}, fmt.Errorf("dice %q", et.Dice)
	}
	lines := make([]string, len(et.Rows))
	for i, r := range et.Rows {
		if strings.ContainsAny(r.Text, "\n\r") || r.Text == "" {
			return table.Table{}, fmt.Errorf("row %d", i+1)
		}
		lines[i] = table.Row{Lo: r.Lo, Hi: r.Hi, Text: r.Text}.Line()
	}
	d, rows, err := table.Build(lines, &d)
	if err != nil {
		return table.Table{}, err
	}
	return table.Table{Name: et.Name, Key: fold.Key(et.Name), Dice: d, Rows: rows}, nil
}

// importDeck checks a deck as /mazo crear would, and its draws.
func importDeck(ed exportDeck) (deck.Deck, error) {
	d := deck.Deck{Name: ed.Name, Kind: ed.Kind, Cards: ed.Cards, Drawn: ed.Drawn}
	switch ed.Kind {
	case "":
		if err := deck.CheckName(ed.Name); err != nil {
			return d, err
		}
		if len(ed.Cards) < 2 || len(ed.Cards) > deck.MaxCards {
			return d, fmt.Errorf("%d cards", len(ed.Cards))
		}
		for _, c := range ed.Cards {
			if c == "" || fold.Clean(c) != c || utf8.RuneCountInString(c) > deck.MaxCardChars {
				return d, fmt.Errorf("card %q", c)
			}
		}
		d.Key = fold.Key(ed.Name)
	case deck.KindStandard, deck.KindJokers, deck.KindTarot:
		d.Key, d.Name, d.Cards = ed.Kind, ed.Kind, nil
	default:
		return d, fmt.Errorf("kind %q", ed.Kind)
	}
	taken := map[int]bool{}
	for _, i := range ed.Drawn {
		if i < 0 || i >= d.Size() || taken[i] {
			return d, fmt.Errorf("drawn %d", i)
		}
		taken[i] = true
	}
	return d, nil
}
