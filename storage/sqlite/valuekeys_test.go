package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"zaria/core"
)

// A database written before 0006 (values keyed by position, with a second
// index on the key) keeps every value, in its order, after the migration;
// a value edited afterwards is changed in place and a value with a key
// the sheet already has is refused by the new primary key.
func TestMigrationValueKeys(t *testing.T) {
	ctx := context.Background()
	// Positions with gaps, keys out of alphabetical order: the order is pos.
	db := migratedFrom(t, 5,
		`INSERT INTO chats (id, platform, chat_id) VALUES (1, 'telegram', '-1')`,
		`INSERT INTO characters (id, chat, key, name, owner, owner_name, system, created, updated) VALUES (1, 1, 'drake', 'Drake', 'u', 'Ana', 'zaria', 1, 1)`,
		`INSERT INTO character_values (character, pos, key, name, text) VALUES
		   (1, 0, 'zeta', 'Zeta', '1'), (1, 3, 'alfa', 'Alfa', '2'), (1, 7, 'media', 'Media', '3')`)
	chat := core.ChatRef{Platform: "telegram", ID: "-1"}
	c, err := db.Character(ctx, chat, "drake")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range c.Values {
		got = append(got, v.Name+"="+v.Text)
	}
	if want := "Zeta=1 Alfa=2 Media=3"; strings.Join(got, " ") != want {
		t.Fatalf("values after migration = %v, want %s", got, want)
	}
	if _, err := db.w.ExecContext(ctx, `INSERT INTO character_values (character, pos, key, name, text) VALUES (1, 9, 'alfa', 'Alfa', '9')`); !isUnique(err) {
		t.Errorf("a second value with key alfa: err = %v, want a primary key violation", err)
	}
	var idx int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM pragma_index_list('character_values')`).Scan(&idx); err != nil {
		t.Fatal(err)
	}
	if idx != 1 {
		t.Errorf("character_values has %d indexes, want 1 (its primary key)", idx)
	}
}

// migratedFrom makes a database at schema version n (its first n
// migrations), runs stmts in it, and opens it with this binary, which
// migrates it to the newest version.
func migratedFrom(t *testing.T, n int, stmts ...string) *DB {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	old, err := openWith(ctx, path, firstMigrations(t, n, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := old.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
