package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"zaria/core"
	"zaria/core/sheet"
)

// ActiveCharacterName names the active character of a user in a chat, ""
// for a user without one or a chat never seen, and follows /pj usar.
func TestActiveCharacterName(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "z.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	chat := core.ChatRef{Platform: "telegram", ID: "-5"}
	if n, err := db.ActiveCharacterName(ctx, chat, "1"); n != "" || err != nil {
		t.Errorf("a chat never seen: %q %v", n, err)
	}
	var ids []int64
	for _, name := range []string{"Drake", "Lira"} {
		c, err := db.CreateCharacter(ctx, chat, sheet.Character{Owner: "1", OwnerName: "Ana", Name: name, Key: name,
			Values: []sheet.Value{{Name: "fuerza", Key: "fuerza", Text: "3"}}}, sheet.Quota{PerOwner: 10})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	for i, want := range []string{"Drake", "Lira"} {
		if err := db.SetActive(ctx, chat, "1", ids[i]); err != nil {
			t.Fatal(err)
		}
		full, err := db.ActiveCharacter(ctx, chat, "1")
		if n, err2 := db.ActiveCharacterName(ctx, chat, "1"); n != want || err2 != nil || err != nil || full.Name != n {
			t.Errorf("active %d: %q %v, want %q (ActiveCharacter %q %v)", i, n, err2, want, full.Name, err)
		}
	}
	if n, err := db.ActiveCharacterName(ctx, chat, "2"); n != "" || err != nil {
		t.Errorf("a user without a character: %q %v", n, err)
	}
}
