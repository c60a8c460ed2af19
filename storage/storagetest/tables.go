package storagetest

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/table"
)

// RunTables checks a table.Store: a table round-trips with its dice and
// rows, replacing keeps one, the quota counts new tables only, renaming
// refuses a taken name, and chats (and platforms) share nothing.
func RunTables(t *testing.T, open func(t *testing.T) table.Store) {
	ctx := context.Background()
	s := open(t)
	enc := table.Table{Name: "Encuentros", Key: "encuentros", Dice: table.Dice{N: 1, S: 6}, Updated: t0,
		Rows: []table.Row{{Lo: 1, Hi: 2, Text: "Lobos"}, {Lo: 3, Hi: 5, Text: "Bandidos ([[1d4]] de ellos)"}, {Lo: 6, Hi: 6, Text: "Un dragón"}}}
	must(t, s.SaveTable(ctx, chatA, enc, 2))
	got, err := s.Table(ctx, chatA, "encuentros")
	must(t, err)
	if got.Name != enc.Name || got.Dice != enc.Dice || len(got.Rows) != 3 || got.Rows[1] != enc.Rows[1] || !got.Updated.Equal(t0) {
		t.Fatalf("read back %+v, want %+v", got, enc)
	}
	d66 := table.Table{Name: "Nombres", Key: "nombres", Dice: table.Dice{D66: true}, Rows: []table.Row{{Lo: 11, Hi: 66, Text: "Ana"}}}
	must(t, s.SaveTable(ctx, chatA, d66, 2))
	if got, err := s.Table(ctx, chatA, "nombres"); err != nil || !got.Dice.D66 {
		t.Fatalf("d66 table read back %+v, %v", got, err)
	}
	third := table.Table{Name: "Botín", Key: "botin", Dice: table.Dice{N: 2, S: 6}, Rows: []table.Row{{Lo: 2, Hi: 12, Text: "Nada"}}}
	wantErr(t, s.SaveTable(ctx, chatA, third, 2), core.ErrQuota, "a third table beyond 2")
	enc.Rows[0].Text = "Lobos hambrientos"
	must(t, s.SaveTable(ctx, chatA, enc, 2)) // replacing is not a new one
	if got, _ := s.Table(ctx, chatA, "encuentros"); got.Rows[0].Text != "Lobos hambrientos" {
		t.Fatalf("replaced row reads %q", got.Rows[0].Text)
	}
	ts, err := s.ListTables(ctx, chatA)
	must(t, err)
	if len(ts) != 2 || ts[0].Key != "encuentros" || ts[1].Key != "nombres" {
		t.Fatalf("list %+v", ts)
	}

	// Other chats, and the same id on another platform, see none.
	for _, c := range []core.ChatRef{chatB, chatC} {
		if ts, err := s.ListTables(ctx, c); err != nil || len(ts) != 0 {
			t.Fatalf("%s lists %d tables, %v", c, len(ts), err)
		}
		_, err := s.Table(ctx, c, "encuentros")
		wantErr(t, err, core.ErrNotFound, "a table of another chat")
		wantErr(t, s.DeleteTable(ctx, c, "encuentros"), core.ErrNotFound, "delete from another chat")
	}

	ren := enc
	ren.Name, ren.Key = "Nombres", "nombres"
	wantErr(t, s.RenameTable(ctx, chatA, "encuentros", ren), core.ErrExists, "rename onto a taken name")
	ren.Name, ren.Key = "Encuentros del bosque", "encuentros del bosque"
	wantErr(t, s.RenameTable(ctx, chatA, "nada", ren), core.ErrNotFound, "rename a missing table")
	wantErr(t, s.RenameTable(ctx, chatB, "encuentros", ren), core.ErrNotFound, "rename in another chat")
	must(t, s.RenameTable(ctx, chatA, "encuentros", ren))
	if got, err := s.Table(ctx, chatA, "encuentros del bosque"); err != nil || got.Name != "Encuentros del bosque" || len(got.Rows) != 3 {
		t.Fatalf("renamed table %+v, %v", got, err)
	}
	_, err = s.Table(ctx, chatA, "encuentros")
	wantErr(t, err, core.ErrNotFound, "the old name after a rename")

	must(t, s.DeleteTable(ctx, chatA, "nombres"))
	wantErr(t, s.DeleteTable(ctx, chatA, "nombres"), core.ErrNotFound, "delete twice")
	must(t, s.SaveTable(ctx, chatA, third, 2)) // room again
}
