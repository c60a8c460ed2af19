package storagetest

import (
	"context"
	"testing"

	"zaria/core/sheet"
)

// RunMarks checks that a sheet.Store keeps development marks (issue 33):
// values whose names begin with sheet.MarkPrefix, kept on the sheet as
// any value is (no migration), their key byte for byte, their points
// changed in place, removed by an edit with the other values in order,
// and another chat's character untouched.
func RunMarks(t *testing.T, open func(t *testing.T) sheet.Store) {
	ctx := context.Background()
	s := open(t)
	a, err := s.CreateCharacter(ctx, chatA, newSheet("u1", "Lyra", "FUE", "10", "espadas", "45"), sheet.Quota{})
	must(t, err)
	b, err := s.CreateCharacter(ctx, chatB, newSheet("u1", "Lyra", "espadas", "45"), sheet.Quota{})
	must(t, err)
	mark := sheet.Value{Name: sheet.MarkPrefix + "espadas", Key: sheet.MarkPrefix + "espadas", Text: "1"}
	_, err = s.EditCharacter(ctx, chatA, a.ID, func(c *sheet.Character) error {
		c.Values = append(c.Values, mark)
		return nil
	})
	must(t, err)
	_, err = s.EditCharacter(ctx, chatA, a.ID, func(c *sheet.Character) error {
		c.Values[2].Text = "2"
		return nil
	})
	must(t, err)
	got, err := s.Character(ctx, chatA, a.Key)
	must(t, err)
	if len(got.Values) != 3 || got.Values[2].Key != mark.Key || got.Values[2].Name != mark.Name || got.Values[2].Text != "2" {
		t.Fatalf("the mark as stored: %+v", got.Values)
	}
	other, err := s.Character(ctx, chatB, b.Key)
	must(t, err)
	if len(other.Values) != 1 {
		t.Errorf("another chat's Lyra: %+v", other.Values)
	}
	_, err = s.EditCharacter(ctx, chatA, a.ID, func(c *sheet.Character) error {
		c.Values = c.Values[:2]
		return nil
	})
	must(t, err)
	got, err = s.Character(ctx, chatA, a.Key)
	must(t, err)
	if len(got.Values) != 2 || got.Values[0].Name != "FUE" || got.Values[1].Name != "espadas" {
		t.Errorf("after the GM cleared the marks: %+v", got.Values)
	}
}
