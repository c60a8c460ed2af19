package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestEmbeddedMigrationsAreValid(t *testing.T) {
	ms, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 1 || SchemaVersion() != len(ms) {
		t.Fatalf("%d migrations, SchemaVersion %d", len(ms), SchemaVersion())
	}
}

func TestLoadMigrationsValidates(t *testing.T) {
	f := func(names ...string) fstest.MapFS {
		m := fstest.MapFS{}
		for _, n := range names {
			m["migrations/"+n] = &fstest.MapFile{Data: []byte("SELECT 1;")}
		}
		return m
	}
	for name, c := range map[string]struct {
		fsys fstest.MapFS
		err  string // "" = valid
	}{
		"good":      {f("0001_init.sql", "0002_more.sql", "0003_x.sql"), ""},
		"gap":       {f("0001_init.sql", "0003_x.sql"), "expected number 2"},
		"duplicate": {f("0001_init.sql", "0001_again.sql"), "expected number 2"},
		"no start":  {f("0002_x.sql"), "expected number 1"},
		"bad name":  {f("0001_init.sql", "later.sql"), "NNNN_what.sql"},
		"zero":      {f("0000_x.sql"), "NNNN_what.sql"},
		"none":      {f(), "no migrations"},
	} {
		ms, err := loadMigrations(c.fsys)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case c.err == "" && len(ms) != len(c.fsys):
			t.Errorf("%s: %d migrations, want %d", name, len(ms), len(c.fsys))
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want %q", name, err, c.err)
		}
	}
}

// firstMigrations returns the embedded migrations up to version n, plus
// extra files.
func firstMigrations(t *testing.T, n int, extra map[string]string) fstest.MapFS {
	t.Helper()
	ms, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{}
	for _, x := range ms[:n] {
		m["migrations/"+x.name] = &fstest.MapFile{Data: []byte(x.sql)}
	}
	for name, body := range extra {
		m["migrations/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	return m
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func openWith(ctx context.Context, path string, fsys fs.FS) (*DB, error) {
	return open(ctx, path, config{sync: synchronous, migrations: fsys})
}

// TestMigrateFromEachVersion starts from every earlier schema version (0 =
// an empty file) with data in it, and opens it with this binary.
func TestMigrateFromEachVersion(t *testing.T) {
	ctx := context.Background()
	for k := 0; k < SchemaVersion(); k++ {
		t.Run(fmt.Sprintf("from%d", k), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "zaria.db")
			if k > 0 {
				old, err := openWith(ctx, path, firstMigrations(t, k, nil))
				if err != nil {
					t.Fatal(err)
				}
				// Data as version 1 wrote it (the methods of this binary
				// speak the newest schema).
				if _, err := old.w.ExecContext(ctx, `INSERT INTO platform_state (key, value) VALUES ('telegram.offset', '99')`); err != nil {
					t.Fatal(err)
				}
				old.Close()
				if v := userVersion(t, path); v != k {
					t.Fatalf("old database at version %d, want %d", v, k)
				}
			}
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if v := userVersion(t, path); v != SchemaVersion() {
				t.Errorf("version after migration = %d, want %d", v, SchemaVersion())
			}
			if k > 0 {
				if v, ok, err := db.State(ctx, "telegram.offset"); err != nil || !ok || v != "99" {
					t.Errorf("data of version %d after migration: %q %v %v", k, v, ok, err)
				}
			}
			// And the migrated file takes this binary's writes.
			if err := db.SetState(ctx, "telegram.offset", "100"); err != nil {
				t.Fatal(err)
			}
			if v, _, err := db.State(ctx, "telegram.offset"); err != nil || v != "100" {
				t.Errorf("write after migration: %q %v", v, err)
			}
		})
	}
}

// TestFailedMigrationRollsBack gives the database a broken next migration:
// Open fails naming it, and the database stays at the previous version with
// nothing of the broken step applied. Fixed, it applies.
func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	n := SchemaVersion()
	path := filepath.Join(t.TempDir(), "zaria.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetState(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	next := fmt.Sprintf("%04d_extra.sql", n+1)
	broken := firstMigrations(t, n, map[string]string{next: `
		CREATE TABLE extra (x INTEGER) STRICT;
		INSERT INTO extra VALUES (1);
		INSERT INTO no_such_table VALUES (1);`})
	_, err = openWith(ctx, path, broken)
	if err == nil || !strings.Contains(err.Error(), next) {
		t.Fatalf("open with a broken migration: err = %v, want it named", err)
	}
	if v := userVersion(t, path); v != n {
		t.Fatalf("version after a failed migration = %d, want %d", v, n)
	}
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	var tables int
	if err := raw.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'extra'`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("half of the failed migration is there: %d tables named extra, %v", tables, err)
	}
	raw.Close()

	fixed := firstMigrations(t, n, map[string]string{next: `
		CREATE TABLE extra (x INTEGER) STRICT;
		INSERT INTO extra VALUES (1);`})
	db, err = openWith(ctx, path, fixed)
	if err != nil {
		t.Fatalf("open with the fixed migration: %v", err)
	}
	defer db.Close()
	var x int
	if err := db.r.QueryRowContext(ctx, `SELECT x FROM extra`).Scan(&x); err != nil || x != 1 {
		t.Errorf("fixed migration not applied: %d %v", x, err)
	}
	if v, ok, err := db.State(ctx, "k"); err != nil || !ok || v != "v" {
		t.Errorf("data lost across migrations: %q %v %v", v, ok, err)
	}
	if v := userVersion(t, path); v != n+1 {
		t.Errorf("version = %d, want %d", v, n+1)
	}
	// And this binary, which knows only n migrations, now refuses the file.
	if _, err := Open(ctx, path); err == nil {
		t.Error("a binary that knows fewer migrations opened the database")
	}
}

// TestMigrationLeavingDanglingReferencesIsRefused: migrations run with
// foreign keys on (the pragma cannot be turned off inside their
// transaction), so one that leaves rows pointing at missing parents, even
// with deferred checks, fails at commit and is rolled back.
func TestMigrationLeavingDanglingReferencesIsRefused(t *testing.T) {
	ctx := context.Background()
	n := SchemaVersion()
	path := filepath.Join(t.TempDir(), "zaria.db")
	next := fmt.Sprintf("%04d_bad.sql", n+1)
	_, err := openWith(ctx, path, firstMigrations(t, n, map[string]string{next: `
		PRAGMA defer_foreign_keys = ON;
		INSERT INTO gms (chat, user_id, name, added) VALUES (12345, 'u', 'n', 0);`}))
	if err == nil || !strings.Contains(err.Error(), next) || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Fatalf("open: err = %v, want a foreign key violation in %s", err, next)
	}
	if v := userVersion(t, path); v != n {
		t.Errorf("version = %d, want %d", v, n)
	}
}

// TestConcurrentOpenOfNewFile opens one new file from several goroutines
// at once (as two processes starting together would): each migration runs
// once, and every Open succeeds.
func TestConcurrentOpenOfNewFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			db, err := Open(ctx, path)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			if err := db.SetState(ctx, fmt.Sprint("k", i), "v"); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if v := userVersion(t, path); v != SchemaVersion() {
		t.Errorf("version = %d, want %d", v, SchemaVersion())
	}
}
