package sqlite

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema step: migrations/0001_init.sql is
// version 1. The schema version of a database is PRAGMA user_version, the
// number of the last migration applied.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded migrations and checks that they are
// numbered 1, 2, 3… without gaps or duplicates.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, n := range names { // fs.Glob returns names sorted
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_what.sql", base)
		}
		if v != len(ms)+1 {
			return nil, fmt.Errorf("migration %s: expected number %d", base, len(ms)+1)
		}
		body, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(body)})
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations")
	}
	return ms, nil
}

// ErrSchemaTooNew is returned (wrapped) by Open for a database written by a
// newer zaria.
type ErrSchemaTooNew struct {
	Path  string
	Found int // the database's schema version
	Known int // the newest version this binary knows
}

func (e *ErrSchemaTooNew) Error() string {
	return fmt.Sprintf("database %s has schema version %d, newer than the version %d this zaria knows; upgrade zaria or use a backup made for this version",
		e.Path, e.Found, e.Known)
}

// schemaVersion reads the database's user_version on the writer
// connection, the first query of an Open, which also opens that
// connection and puts a new file in WAL mode. When two processes open
// one new file at once, one can find the other switching the file to WAL
// and SQLite answers "database is locked" at once, without waiting its
// busy timeout (TestConcurrentOpenOfNewFile, 1 run in 60): that is
// retried for up to busyTimeout.
func (db *DB) schemaVersion(ctx context.Context) (int, error) {
	deadline := time.Now().Add(busyTimeout)
	for {
		var v int
		err := db.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
		var se sqlite3.Error
		if err == nil || !errors.As(err, &se) || (se.Code != sqlite3.ErrBusy && se.Code != sqlite3.ErrLocked) || time.Now().After(deadline) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// migrate applies every migration newer than the database's version, each
// in its own write transaction together with the new user_version, so a
// crash leaves the database at one version or the next, never in between.
func (db *DB) migrate(ctx context.Context, fsys fs.FS) error {
	ms, err := loadMigrations(fsys)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	steps := goSteps()
	// Refuse a newer schema before touching anything.
	v, err := db.schemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > len(ms) {
		return &ErrSchemaTooNew{Path: db.path, Found: v, Known: len(ms)}
	}
	for _, m := range ms {
		if m.version <= v {
			continue
		}
		tx, err := db.w.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migration %s: begin: %w", m.name, err)
		}
		// Another process may have migrated while we waited for the lock.
		var cur int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if cur >= m.version {
			tx.Rollback()
			v = cur
			if v > len(ms) {
				return &ErrSchemaTooNew{Path: db.path, Found: v, Known: len(ms)}
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, what, _ := strings.Cut(m.name, "_"); steps[what] != nil {
			if err := steps[what](ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		// PRAGMA takes no bound parameters; the version is an integer from
		// our own embedded file names, never outside input.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: set version: %w", m.name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: commit: %w", m.name, err)
		}
		v = m.version
	}
	return nil
}
