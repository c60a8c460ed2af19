package sqlite

import (
	"context"
	"testing"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/sheet"
)

// fillMoveChat stores one of everything in chat: settings, a GM, a
// character with a value (active for its owner), an alias and a roll.
func fillMoveChat(t *testing.T, db *DB, chat core.ChatRef, name string) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.SaveSettings(ctx, chat, core.Settings{Lang: "el", Options: map[string]string{"system": "daegon"}}))
	if _, err := db.AddGM(ctx, chat, gm.GM{UserID: "9", Name: "Irene"}, 10); err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateCharacter(ctx, chat, sheet.Character{Owner: "1", OwnerName: "Ana", Name: name, Key: name,
		Values: []sheet.Value{{Name: "fuerza", Key: "fuerza", Text: "3"}}}, sheet.Quota{PerOwner: 10})
	must(err)
	must(db.SetActive(ctx, chat, "1", c.ID))
	must(db.SetAlias(ctx, chat, alias.Alias{UserID: "1", Name: "ataque", Key: "ataque", Text: "/roll 1d20+fuerza"}, 10))
	must(db.AppendRoll(ctx, history.Roll{Chat: chat, UserID: "1", UserName: "Ana", Command: "/roll 1d20", Dice: []int{7}, Sides: []int{20}, Result: "7"}, 100))
}

func checkMoved(t *testing.T, db *DB, chat core.ChatRef, name string) {
	t.Helper()
	ctx := context.Background()
	s, err := db.Settings(ctx, chat)
	if err != nil || s.Lang != "el" || s.Options["system"] != "daegon" {
		t.Errorf("settings of %s: %+v %v", chat, s, err)
	}
	if ok, err := db.IsGM(ctx, chat, "9"); !ok || err != nil {
		t.Errorf("GM of %s: %v %v", chat, ok, err)
	}
	c, err := db.ActiveCharacter(ctx, chat, "1")
	if err != nil || c.Name != name || len(c.Values) != 1 || c.Values[0].Text != "3" {
		t.Errorf("active character of %s: %+v %v", chat, c, err)
	}
	if a, err := db.Alias(ctx, chat, "1", "ataque"); err != nil || a.Text != "/roll 1d20+fuerza" {
		t.Errorf("alias of %s: %+v %v", chat, a, err)
	}
	if r, err := db.LastRolls(ctx, chat, 10); err != nil || len(r) == 0 {
		t.Errorf("history of %s: %+v %v", chat, r, err)
	}
}

func moveIntegrityOK(t *testing.T, db *DB) {
	t.Helper()
	var res string
	if err := db.r.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Errorf("integrity_check: %q %v", res, err)
	}
	rows, err := db.r.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Error("foreign_key_check reports violations")
	}
}

// TestMoveChat: a group becoming a supergroup takes everything along, in
// one transaction with the adapter's state; moving again (the second
// migration message, a restart) changes nothing and is not an error.
func TestMoveChat(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	old := core.ChatRef{Platform: "telegram", ID: "-42"}
	sup := core.ChatRef{Platform: "telegram", ID: "-10042"}
	other := core.ChatRef{Platform: "telegram", ID: "-7"}
	fillMoveChat(t, db, old, "Lira")
	fillMoveChat(t, db, other, "Otro")

	moved, err := db.MoveChat(ctx, old, sup, map[string]string{"telegram.1.moved.-42": "-10042"})
	if err != nil || !moved {
		t.Fatalf("MoveChat = %v, %v", moved, err)
	}
	checkMoved(t, db, sup, "Lira")
	checkMoved(t, db, other, "Otro")
	if v, ok, _ := db.State(ctx, "telegram.1.moved.-42"); !ok || v != "-10042" {
		t.Errorf("state written with the move: %q %v", v, ok)
	}
	if l, _ := db.ListCharacters(ctx, old); len(l) != 0 {
		t.Errorf("the old chat still has %d characters", len(l))
	}
	for i := 0; i < 2; i++ {
		moved, err = db.MoveChat(ctx, old, sup, map[string]string{"telegram.1.moved.-42": "-10042"})
		if err != nil || moved {
			t.Fatalf("MoveChat again = %v, %v; want false, nil", moved, err)
		}
	}
	checkMoved(t, db, sup, "Lira")
	moveIntegrityOK(t, db)
}

// TestMoveChatMerge: the supergroup was used before the move was handled
// (its own character and alias): both chats' data end up in it, the
// supergroup's own rows win where both have the same key.
func TestMoveChatMerge(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	old := core.ChatRef{Platform: "telegram", ID: "-42"}
	sup := core.ChatRef{Platform: "telegram", ID: "-10042"}
	fillMoveChat(t, db, old, "Lira")
	c, err := db.CreateCharacter(ctx, sup, sheet.Character{Owner: "2", OwnerName: "Bea", Name: "Nube", Key: "nube"}, sheet.Quota{PerOwner: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetActive(ctx, sup, "2", c.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAlias(ctx, sup, alias.Alias{UserID: "1", Name: "ataque", Key: "ataque", Text: "/roll 2d20"}, 10); err != nil {
		t.Fatal(err)
	}
	if moved, err := db.MoveChat(ctx, old, sup, nil); err != nil || !moved {
		t.Fatalf("MoveChat = %v, %v", moved, err)
	}
	l, err := db.ListCharacters(ctx, sup)
	if err != nil || len(l) != 2 {
		t.Fatalf("characters after the merge: %+v %v", l, err)
	}
	if a, _ := db.ActiveCharacter(ctx, sup, "1"); a.Name != "Lira" {
		t.Errorf("Ana's active character: %+v", a)
	}
	if a, _ := db.ActiveCharacter(ctx, sup, "2"); a.Name != "Nube" {
		t.Errorf("Bea's active character: %+v", a)
	}
	if a, _ := db.Alias(ctx, sup, "1", "ataque"); a.Text != "/roll 2d20" {
		t.Errorf("the supergroup's own alias was replaced: %+v", a)
	}
	if s, _ := db.Settings(ctx, sup); s.Lang != "el" {
		t.Errorf("language after the merge: %q", s.Lang)
	}
	moveIntegrityOK(t, db)
}
