package sqlite

import (
	"context"
	"fmt"
	"testing"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/pad"
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
	_, err = db.AddPadButton(ctx, chat, "1", pad.Button{Label: "Ataque", Command: "/ataque"}, 25)
	must(err)
	_, err = db.AddPadButton(ctx, chat, "", pad.Button{Label: "d20", Command: "/roll d20"}, 25)
	must(err)
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
	if b, err := db.PadButtons(ctx, chat, "1"); err != nil || len(b) != 1 || b[0].Command != "/ataque" {
		t.Errorf("Ana's pad in %s: %+v %v", chat, b, err)
	}
	if b, err := db.PadButtons(ctx, chat, ""); err != nil || len(b) != 1 || b[0].Command != "/roll d20" {
		t.Errorf("the chat's pad in %s: %+v %v", chat, b, err)
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
	// The supergroup already has a chat pad: it is kept; Ana's pad moves.
	if _, err := db.AddPadButton(ctx, sup, "", pad.Button{Label: "2d6", Command: "/roll 2d6"}, 25); err != nil {
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
	if b, _ := db.PadButtons(ctx, sup, "1"); len(b) != 1 || b[0].Command != "/ataque" {
		t.Errorf("Ana's pad after the merge: %+v", b)
	}
	if b, _ := db.PadButtons(ctx, sup, ""); len(b) != 1 || b[0].Command != "/roll 2d6" {
		t.Errorf("the supergroup's own pad after the merge: %+v", b)
	}
	moveIntegrityOK(t, db)
}

// TestMoveChatMergeStats: both chats rolled before the move; /stats of
// the supergroup then counts the dice of both histories (the face and size
// counts add up), the old chat has none left, and a later prune of the
// merged history subtracts from the merged counts.
func TestMoveChatMergeStats(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	old := core.ChatRef{Platform: "telegram", ID: "-42"}
	sup := core.ChatRef{Platform: "telegram", ID: "-10042"}
	roll := func(chat core.ChatRef, dice, sides []int, keep int) {
		t.Helper()
		if err := db.AppendRoll(ctx, history.Roll{Chat: chat, UserID: "1", UserName: "Ana", Command: "/roll", Dice: dice, Sides: sides, Result: "x"}, keep); err != nil {
			t.Fatal(err)
		}
	}
	roll(old, []int{1, 6, 6}, []int{6, 6, 6}, 100)
	roll(old, []int{7}, []int{20}, 100)
	roll(sup, []int{6, 2}, []int{6, 6}, 100)
	roll(sup, []int{7, 13}, []int{20, 20}, 100)
	if moved, err := db.MoveChat(ctx, old, sup, nil); err != nil || !moved {
		t.Fatalf("MoveChat = %v, %v", moved, err)
	}
	stats := func(chat core.ChatRef) string {
		t.Helper()
		sizes, more, err := db.DieStats(ctx, chat, 10)
		if err != nil || more != 0 {
			t.Fatalf("die stats of %s: +%d %v", chat, more, err)
		}
		return fmt.Sprint(sizes)
	}
	// Counted by hand from the four rolls above: d6 1,6,6,6,2; d20 7,7,13.
	want := fmt.Sprint([]history.SizeCount{
		{Sides: 6, N: 5, Faces: []history.FaceCount{{Sides: 6, Face: 1, Count: 1}, {Sides: 6, Face: 2, Count: 1}, {Sides: 6, Face: 6, Count: 3}}},
		{Sides: 20, N: 3, Faces: []history.FaceCount{{Sides: 20, Face: 7, Count: 2}, {Sides: 20, Face: 13, Count: 1}}},
	})
	if got := stats(sup); got != want {
		t.Errorf("stats of the supergroup after the merge:\n got %s\nwant %s", got, want)
	}
	if got := stats(old); got != "[]" {
		t.Errorf("the old chat still has counts: %s", got)
	}
	var left int
	if err := db.r.QueryRow(`SELECT (SELECT count(*) FROM face_counts WHERE chat NOT IN (SELECT id FROM chats)) +
		(SELECT count(*) FROM size_counts WHERE chat NOT IN (SELECT id FROM chats))`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d count rows of no chat (%v)", left, err)
	}
	// Moving again changes nothing.
	if moved, err := db.MoveChat(ctx, old, sup, nil); err != nil || moved {
		t.Fatalf("MoveChat again = %v, %v", moved, err)
	}
	if got := stats(sup); got != want {
		t.Errorf("stats after moving again: %s", got)
	}
	// Keep 2 of the five merged rolls: the three oldest (old's two and
	// sup's 6,2) leave the counts.
	roll(sup, []int{4}, []int{6}, 2)
	want = fmt.Sprint([]history.SizeCount{
		{Sides: 20, N: 2, Faces: []history.FaceCount{{Sides: 20, Face: 7, Count: 1}, {Sides: 20, Face: 13, Count: 1}}},
		{Sides: 6, N: 1, Faces: []history.FaceCount{{Sides: 6, Face: 4, Count: 1}}},
	})
	if got := stats(sup); got != want {
		t.Errorf("stats after a prune of the merged history:\n got %s\nwant %s", got, want)
	}
	moveIntegrityOK(t, db)
}
