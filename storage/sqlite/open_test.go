package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openTemp(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "sub", "dir", "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestOpenCreatesDirAndPragmas(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	checks := []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		{"synchronous", "2"}, // FULL
	}
	for _, c := range checks {
		var got string
		if err := db.w.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("writer PRAGMA %s = %s, want %s", c.pragma, got, c.want)
		}
	}
	var fk, qo string
	if err := db.r.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		t.Fatal(err)
	}
	if err := db.r.QueryRowContext(ctx, "PRAGMA query_only").Scan(&qo); err != nil {
		t.Fatal(err)
	}
	if fk != "1" || qo != "1" {
		t.Errorf("reader foreign_keys=%s query_only=%s, want 1 1", fk, qo)
	}
	var v int
	if err := db.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v != SchemaVersion() || v < 1 {
		t.Errorf("user_version = %d, want %d", v, SchemaVersion())
	}
}

func TestNewFileIsPrivate(t *testing.T) {
	db := openTemp(t)
	if err := db.SetState(context.Background(), "k", "v"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{db.Path(), db.Path() + "-wal"} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %o, want 600", filepath.Base(name), mode)
		}
	}
}

func TestReopenIsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	for i := 0; i < 3; i++ {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		if i == 0 {
			if err := db.SetState(ctx, "telegram.offset", "42"); err != nil {
				t.Fatal(err)
			}
		}
		got, ok, err := db.State(ctx, "telegram.offset")
		if err != nil || !ok || got != "42" {
			t.Fatalf("open #%d: state = %q %v %v, want 42", i+1, got, ok, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	newer := SchemaVersion() + 1
	if _, err := db.w.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", newer)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path)
	var tooNew *ErrSchemaTooNew
	if !errors.As(err, &tooNew) {
		t.Fatalf("open newer schema: err = %v, want ErrSchemaTooNew", err)
	}
	if tooNew.Found != newer || tooNew.Known != SchemaVersion() {
		t.Errorf("ErrSchemaTooNew = %+v, want found %d known %d", tooNew, newer, SchemaVersion())
	}
	msg := err.Error()
	for _, want := range []string{fmt.Sprint(newer), fmt.Sprint(SchemaVersion()), path} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not name %q", msg, want)
		}
	}
	// Refusing must not have changed the file: the version is still newer.
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != newer {
		t.Errorf("user_version after refusal = %d (%v), want %d", v, err, newer)
	}
}

// TestTwoHandlesOneFile is the bot and a `zaria roll --db` or `zaria
// backup` run on the same file: two independent DBs (as two processes
// have) writing at once wait for each other through busy_timeout and
// BEGIN IMMEDIATE instead of failing with SQLITE_BUSY.
func TestTwoHandlesOneFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "zaria.db")
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	const each = 100
	errs := make(chan error, 2*each)
	done := make(chan struct{})
	for i, db := range dbs {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := 0; j < each; j++ {
				key := fmt.Sprintf("h%d.%d", i, j)
				if err := db.SetState(ctx, key, "v"); err != nil {
					errs <- err
				}
				if _, _, err := dbs[1-i].State(ctx, key); err != nil {
					errs <- err
				}
			}
		}()
	}
	<-done
	<-done
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range dbs {
		for j := 0; j < each; j++ {
			if _, ok, err := dbs[1-i].State(ctx, fmt.Sprintf("h%d.%d", i, j)); err != nil || !ok {
				t.Fatalf("handle %d does not see h%d.%d: %v %v", 1-i, i, j, ok, err)
			}
		}
	}
}
