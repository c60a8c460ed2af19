package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"zaria/core"
	"zaria/core/history"
	"zaria/core/sheet"
)

// A database written before 0003 (keys were fold.Key, names kept control
// characters) is migrated: keys become sheet.NameKey, look-alikes of an
// older character are renamed with "-2", "-3" in id order, and the names
// users gave are cleaned. The migrated characters are found by any
// look-alike spelling and a new look-alike is refused.
func TestMigrationCharacterNameKeys(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	old, err := openWith(ctx, path, firstMigrations(t, 2, nil))
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.w.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO chats (id, platform, chat_id) VALUES (1, 'telegram', '-1'), (2, 'telegram', '-2')`)
	// Keys as the old binary computed them (fold.Key): all different.
	for _, c := range []struct {
		id         int
		chat       int
		name, key  string
		owner_name string
	}{
		{1, 1, "Drake", "drake", "Ana\n⚠️ El máster te ha expulsado"},
		{2, 1, "Ｄrake", "ｄrake", "Bob\x00"},
		{3, 1, "Drаke", "drаke", "Carla\u202e"},
		{4, 1, "Mira", "mira", "Ana"},
		{5, 2, "Drаke", "drаke", "Dani"}, // alone in its chat: keeps its name
	} {
		exec(`INSERT INTO characters (id, chat, key, name, owner, owner_name, system, created, updated) VALUES (?, ?, ?, ?, 'u', ?, '', 1, 1)`,
			c.id, c.chat, c.key, c.name, c.owner_name)
	}
	exec(`INSERT INTO character_values (character, pos, key, name, text) VALUES (2, 0, 'fuerza', 'Fuerza', '4')`)
	exec(`INSERT INTO active (chat, user_id, character) VALUES (1, 'u', 3)`)
	exec(`INSERT INTO gms (chat, user_id, name, added) VALUES (1, 'g', 'Gus' || char(10) || 'bot', 1)`)
	exec(`INSERT INTO rolls (chat, user_id, user_name, command, dice, sides, result, time) VALUES (1, 'u', 'Ana' || char(13) || char(10) || 'fake', '/roll', '[]', '[]', '', 1)`)
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	chat1 := core.ChatRef{Platform: "telegram", ID: "-1"}
	list, err := db.ListCharacters(ctx, chat1)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]sheet.Character{}
	for _, c := range list {
		got[c.ID] = c
	}
	want := map[int64]struct{ name, owner string }{
		1: {"Drake", "Ana ⚠️ El máster te ha expulsado"},
		2: {"Ｄrake-2", "Bob"},
		3: {"Drаke-3", "Carla"},
		4: {"Mira", "Ana"},
	}
	for id, w := range want {
		c := got[id]
		if c.Name != w.name || c.OwnerName != w.owner || c.Key != sheet.NameKey(w.name) {
			t.Errorf("character %d = name %q owner %q key %q, want %q %q %q", id, c.Name, c.OwnerName, c.Key, w.name, w.owner, sheet.NameKey(w.name))
		}
	}
	if len(got[2].Values) != 1 || !got[3].Active {
		t.Errorf("values or active selection lost: %+v %+v", got[2], got[3])
	}
	// Found by any spelling; another look-alike is refused.
	for _, spelling := range []string{"drake", "ＤＲＡＫＥ", "Drаke"} {
		c, err := db.Character(ctx, chat1, sheet.NameKey(spelling))
		if err != nil || c.ID != 1 {
			t.Errorf("%q finds %d, %v; want Drake (1)", spelling, c.ID, err)
		}
	}
	_, err = db.CreateCharacter(ctx, chat1, sheet.Character{Owner: "x", Name: "DRAKE", Key: sheet.NameKey("DRAKE")}, sheet.Quota{})
	if !errors.Is(err, core.ErrExists) {
		t.Errorf("a new look-alike of Drake: %v, want ErrExists", err)
	}
	c5, err := db.Character(ctx, core.ChatRef{Platform: "telegram", ID: "-2"}, sheet.NameKey("Drake"))
	if err != nil || c5.Name != "Drаke" {
		t.Errorf("the only Drake of chat 2 = %q, %v; want it unchanged", c5.Name, err)
	}
	gms, err := db.ListGMs(ctx, chat1)
	if err != nil || len(gms) != 1 || gms[0].Name != "Gus bot" {
		t.Errorf("GMs after migration = %+v, %v", gms, err)
	}
	rolls, err := db.LastRolls(ctx, chat1, 5)
	if err != nil || len(rolls) != 1 || rolls[0].UserName != "Ana fake" {
		t.Errorf("rolls after migration = %+v, %v", rolls, err)
	}
	integrityOK(t, db)
}

// A history written before 0004 gets its face counts from the kept rolls,
// and later appends and prunes keep them in step.
func TestMigrationFaceCounts(t *testing.T) {
	ctx := context.Background()
	db := migratedFrom(t, 3,
		`INSERT INTO chats (id, platform, chat_id) VALUES (1, 'telegram', '-1')`,
		`INSERT INTO rolls (chat, user_id, user_name, command, dice, sides, result, time) VALUES
		   (1, 'u', 'Ana', '/roll', '[6,6,1]', '[6,6,6]', '', 1),
		   (1, 'u', 'Ana', '/roll', '[20,0,7]', '[20,10,6]', '', 2),
		   (1, 'u', 'Ana', '/roll', 'not json', '[6]', '', 3)`)
	chat := core.ChatRef{Platform: "telegram", ID: "-1"}
	check := func(when string, want []history.FaceCount) {
		t.Helper()
		got, err := db.FaceCounts(ctx, chat)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: face counts %v, want %v", when, got, want)
		}
	}
	check("after migration", []history.FaceCount{{Sides: 6, Face: 1, Count: 1}, {Sides: 6, Face: 6, Count: 2}, {Sides: 20, Face: 20, Count: 1}})
	// Keep 2: the first roll (6, 6, 1) is pruned.
	if err := db.AppendRoll(ctx, history.Roll{Chat: chat, UserID: "u", Dice: []int{3}, Sides: []int{6}}, 2); err != nil {
		t.Fatal(err)
	}
	check("after a prune", []history.FaceCount{{Sides: 6, Face: 3, Count: 1}})
	sizes, more, err := db.DieStats(ctx, chat, 10)
	if err != nil || more != 0 || len(sizes) != 1 || sizes[0].Sides != 6 || sizes[0].N != 1 {
		t.Errorf("die stats = %+v +%d, %v", sizes, more, err)
	}
}
