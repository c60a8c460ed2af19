package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/sheet"
)

// How these tests make writes fail. The tests may run as root, for whom
// file permissions do not stop writes, so they use SQLite itself on the one
// writer connection of a real database file:
//   - disk full: PRAGMA max_page_count caps the database at its current
//     size, and any write that needs a new page fails with SQLITE_FULL,
//     exactly as on a full disk;
//   - read-only: PRAGMA query_only makes every write fail with
//     SQLITE_READONLY, as on a file that became read-only.
// Both settings belong to the connection, not the file, and are lifted at
// the end to show the database is intact and usable.

var failChat = core.ChatRef{Platform: "console", ID: "local"}

func bigSheet(name string) sheet.Character {
	c := sheet.Character{Owner: "u1", Name: name, Key: name}
	for i := 0; i < 40; i++ {
		k := fmt.Sprintf("v%d", i)
		c.Values = append(c.Values, sheet.Value{Name: k, Key: k, Text: strings.Repeat("x", 1000)})
	}
	return c
}

func sqliteCode(err error) sqlite3.ErrNo {
	var e sqlite3.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func integrityOK(t *testing.T, db *DB) {
	t.Helper()
	var check string
	if err := db.r.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
}

func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	kept, err := db.CreateCharacter(ctx, failChat, bigSheet("kept"), sheet.Quota{})
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.w.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}

	_, err = db.CreateCharacter(ctx, failChat, bigSheet("lost"), sheet.Quota{})
	if sqliteCode(err) != sqlite3.ErrFull {
		t.Fatalf("create on a full disk: err = %v, want SQLITE_FULL", err)
	}
	if !strings.HasPrefix(err.Error(), `sqlite: create character "lost"`) {
		t.Errorf("error not wrapped with the operation: %q", err)
	}
	r := history.Roll{Chat: failChat, UserID: "u1", Command: "/roll", Result: strings.Repeat("y", 50_000)}
	if err := db.AppendRoll(ctx, r, 0); sqliteCode(err) != sqlite3.ErrFull {
		t.Errorf("log roll on a full disk: err = %v, want SQLITE_FULL", err)
	}

	// Nothing of the failed writes is there; everything before is.
	if _, err := db.Character(ctx, failChat, "lost"); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("half a failed create is visible: %v", err)
	}
	got, err := db.Character(ctx, failChat, "kept")
	if err != nil || len(got.Values) != 40 || got.ID != kept.ID {
		t.Errorf("character written before the disk filled: %v, %d values", err, len(got.Values))
	}
	if rolls, err := db.LastRolls(ctx, failChat, 10); err != nil || len(rolls) != 0 {
		t.Errorf("rolls after a failed append = %d, %v", len(rolls), err)
	}
	integrityOK(t, db)

	// Space comes back: the same writes now succeed.
	if _, err := db.w.ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateCharacter(ctx, failChat, bigSheet("lost"), sheet.Quota{}); err != nil {
		t.Fatalf("create after space came back: %v", err)
	}
	if err := db.AppendRoll(ctx, r, 0); err != nil {
		t.Fatalf("log roll after space came back: %v", err)
	}
	integrityOK(t, db)
}

func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if err := db.SaveSettings(ctx, failChat, core.Settings{Lang: "el"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
		t.Fatal(err)
	}
	writes := map[string]error{
		"save settings": db.SaveSettings(ctx, failChat, core.Settings{Lang: "es"}),
		"set state":     db.SetState(ctx, "telegram.offset", "7"),
		"log roll":      db.AppendRoll(ctx, history.Roll{Chat: failChat, UserID: "u1"}, 10),
		"set alias":     db.SetAlias(ctx, failChat, alias.Alias{UserID: "u1", Key: "a", Name: "a", Text: "/roll"}, 0),
	}
	_, err := db.CreateCharacter(ctx, failChat, bigSheet("x"), sheet.Quota{})
	writes["create character"] = err
	_, err = db.AddGM(ctx, failChat, gm.GM{UserID: "u1"}, 0)
	writes["add GM"] = err
	for what, err := range writes {
		if sqliteCode(err) != sqlite3.ErrReadonly {
			t.Errorf("%s on a read-only database: err = %v, want SQLITE_READONLY", what, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "sqlite: "+what) {
			t.Errorf("%s: error not wrapped with the operation: %q", what, err)
		}
	}
	// Reads still work and see the last good state.
	s, err := db.Settings(ctx, failChat)
	if err != nil || s.Lang != "el" {
		t.Errorf("settings on a read-only database = %+v, %v", s, err)
	}
	if _, err := db.w.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSettings(ctx, failChat, core.Settings{Lang: "es"}); err != nil {
		t.Fatalf("write after the database became writable again: %v", err)
	}
	integrityOK(t, db)
}

// TestReadOnlyFile needs a user that file permissions apply to.
func TestReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop writes (TestReadOnly covers this with query_only)")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ro")
	path := filepath.Join(dir, "zaria.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetState(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.Chmod(path, 0o644) })
	db, err = Open(ctx, path)
	if err == nil {
		err = db.SetState(ctx, "k", "w")
		db.Close()
	}
	if err == nil || !strings.HasPrefix(err.Error(), "sqlite: ") {
		t.Fatalf("write to a read-only file: err = %v, want a wrapped error", err)
	}
	t.Logf("refused: %v", err)
}

func TestOpenFailures(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, filepath.Join(file, "zaria.db")); err == nil || !strings.HasPrefix(err.Error(), "sqlite: open ") {
		t.Errorf("open under a regular file: err = %v", err)
	}
	// A file that is not a database is refused, and left as it was.
	junk := filepath.Join(t.TempDir(), "junk.db")
	content := []byte(strings.Repeat("not a database ", 500))
	if err := os.WriteFile(junk, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, junk); err == nil || sqliteCode(err) != sqlite3.ErrNotADB {
		t.Errorf("open a non-database file: err = %v, want SQLITE_NOTADB", err)
	}
	if got, _ := os.ReadFile(junk); string(got) != string(content) {
		t.Error("opening a non-database file changed it")
	}
	if _, err := Open(ctx, ""); err == nil {
		t.Error("open with an empty path succeeded")
	}
	// Paths with characters that mean something in a URI.
	odd := filepath.Join(t.TempDir(), "dir with space", "a?b#c%d&e.db")
	db, err := Open(ctx, odd)
	if err != nil {
		t.Fatalf("open %q: %v", odd, err)
	}
	defer db.Close()
	if err := db.SetState(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(odd); err != nil {
		t.Errorf("database not at the path asked for: %v", err)
	}
}

func TestCancelledContext(t *testing.T) {
	db := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := db.SetState(ctx, "k", "v"); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "sqlite: ") {
		t.Errorf("write with a cancelled context: err = %v", err)
	}
	if _, err := db.CreateCharacter(ctx, failChat, bigSheet("x"), sheet.Quota{}); !errors.Is(err, context.Canceled) {
		t.Errorf("create with a cancelled context: err = %v", err)
	}
	if _, _, err := db.State(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("read with a cancelled context: err = %v", err)
	}
	// Nothing was written, and the connections still work.
	bg := context.Background()
	if _, ok, err := db.State(bg, "k"); err != nil || ok {
		t.Errorf("state after a cancelled write = %v %v", ok, err)
	}
	if _, err := db.Character(bg, failChat, "x"); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("character after a cancelled create: %v", err)
	}
	if err := db.SetState(bg, "k", "v"); err != nil {
		t.Fatal(err)
	}
}

func TestUseAfterClose(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.SetState(ctx, "k", "v"); err == nil {
		t.Error("write after Close succeeded")
	}
	if _, err := db.Settings(ctx, failChat); err == nil {
		t.Error("read after Close succeeded")
	}
	if err := db.Backup(ctx, filepath.Join(t.TempDir(), "b.db")); err != nil {
		// Backup opens its own connection to the file: either outcome is
		// acceptable as long as it does not panic.
		t.Logf("backup after Close: %v", err)
	}
}
