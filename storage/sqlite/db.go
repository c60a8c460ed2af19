// Package sqlite stores zaria's chats, settings, characters, roll log,
// aliases and platform state in one SQLite file (github.com/mattn/go-sqlite3).
//
// The file is opened in WAL mode with foreign keys on and a busy timeout.
// There is one writer connection (SQLite allows one writer at a time; a
// single connection turns contention into a queue in Go instead of
// SQLITE_BUSY retries) and a small pool of read-only connections, which in
// WAL mode read a consistent snapshot without blocking the writer. Every
// write runs in a BEGIN IMMEDIATE transaction; every query is parameterized
// and scoped by chat (platform state, which belongs to an adapter, is the
// only table without a chat).
//
// The schema lives in migrations/NNNN_*.sql, embedded and applied at Open,
// each in its own transaction with PRAGMA user_version; a file with a newer
// version than the binary knows is refused (ErrSchemaTooNew). Backup makes
// a consistent online copy; PruneState bounds per-event adapter keys.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"zaria/core/alias"
	"zaria/core/command"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/sheet"
	"zaria/core/transfer"
)

// readers is the size of the read-only pool. The machine this runs on has
// few cores and reads take microseconds; more connections only cost memory.
const readers = 4

// Page caches of the writer connection, in KiB. SQLite's default
// (2,000 KiB) is kept, as every reader keeps it: the cache holds pages
// the connection read, up to its size, for as long as the process lives,
// and a 16 MiB writer cache cost up to 16 MB of memory once the journal,
// button and history pages had passed through it (issue 29). Only
// /importar, whose largest document touches thousands of pages in one
// transaction, gets importCacheKiB for that transaction (27–31 → 21–24
// CPU ms under load), given back when it ends.
const (
	writerCacheKiB = 2000
	importCacheKiB = 16384
	// The same as statements: SQL is only ever constant text.
	pragmaWriterCache = `PRAGMA cache_size = -2000`
	pragmaImportCache = `PRAGMA cache_size = -16384`
)

// busyTimeout is how long a connection waits for a lock held by another
// process (a `zaria backup` run, an operator's sqlite3 shell) before
// SQLITE_BUSY. Inside the process the single writer connection already
// serializes writes.
const busyTimeout = 5 * time.Second

// Durability. In WAL mode a commit appends the transaction's pages and a
// commit frame to the -wal file with write(2) before COMMIT returns.
//
//   - synchronous=NORMAL fsyncs the WAL only at checkpoints. A committed
//     transaction is then in the operating system's page cache, which
//     survives the death of the process (kill -9, a panic, the OOM killer):
//     on the next open SQLite replays the WAL. Only an OS crash or power
//     loss can drop the most recent commits (never corrupt the file).
//   - synchronous=FULL also fsyncs the WAL at every commit, so a commit also
//     survives an OS crash or power loss, at the price of one fsync per
//     write transaction.
//
// The promise is that a write the bot acknowledged ("Fuerza = 4") is never
// lost. NORMAL already keeps it across kill -9 (TestCrashKill9 runs both
// modes); FULL extends it to power loss and OS crashes. A chat bot writes a few
// transactions per second, far below what one fsync per commit allows (see
// BenchmarkAppendRoll), so we pay for FULL.
const synchronous = "FULL"

// DB is the zaria database. It is safe for concurrent use.
type DB struct {
	path string
	w    *sql.DB // the one writer connection
	r    *sql.DB // read-only connections
	now  func() time.Time
	sync string // the writer's synchronous setting (SetStateNoSync restores it)
}

// Open opens (creating if needed) the database file at path, creating its
// parent directory, and brings its schema up to date. A database whose
// schema is newer than this binary knows is refused.
func Open(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, config{sync: synchronous, migrations: migrationFiles})
}

// config is what Open fixes and tests vary: benchmarks compare synchronous
// modes, migration tests use their own migration files.
type config struct {
	sync       string
	migrations fs.FS // holds migrations/NNNN_*.sql
}

func open(ctx context.Context, path string, cfg config) (*DB, error) {
	if path == "" {
		return nil, errors.New("sqlite: open: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o750); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// Chat data is private: a new file is created readable by its owner
	// only (SQLite's default is 0644), and SQLite gives the -wal and -shm
	// files the mode of the database file.
	if f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db := &DB{path: abs, now: time.Now, sync: cfg.sync}

	db.w, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"_journal_mode":    {"WAL"},
		"_synchronous":     {cfg.sync},
		"_txlock":          {"immediate"},
		"_cache_size":      {fmt.Sprint(-writerCacheKiB)},
		"_stmt_cache_size": {"64"},
	}))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)

	if err := db.migrate(ctx, cfg.migrations); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}

	// Readers open after the writer has put the file in WAL mode (a
	// persistent property of the file), so they need not set it.
	db.r, err = sql.Open("sqlite3", dsn(abs, url.Values{
		"_query_only":      {"true"},
		"_stmt_cache_size": {"64"},
	}))
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.r.SetMaxOpenConns(readers)
	db.r.SetMaxIdleConns(readers)
	db.r.SetConnMaxLifetime(0)
	db.r.SetConnMaxIdleTime(0)
	if err := db.r.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return db, nil
}

// dsn builds a go-sqlite3 data source name: a file: URI (so that any
// character in the path is escaped) with the settings every connection
// shares plus extra.
func dsn(abs string, extra url.Values) string {
	q := url.Values{
		"_busy_timeout": {fmt.Sprint(busyTimeout.Milliseconds())},
		"_foreign_keys": {"on"},
	}
	for k, v := range extra {
		q[k] = v
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close closes every connection. The last one to close checkpoints the WAL
// into the main file.
func (db *DB) Close() error {
	var errs []error
	if db.r != nil {
		errs = append(errs, db.r.Close())
	}
	errs = append(errs, db.w.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close %s: %w", db.path, err)
	}
	return nil
}

// write runs fn in a write transaction (BEGIN IMMEDIATE on the writer
// connection) and commits it; any error rolls it back. what names the
// operation in the wrapped error.
func (db *DB) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: %s: begin: %w", what, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: %s: commit: %w", what, err)
	}
	return nil
}

// isUnique reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUnique(err error) bool {
	var e sqlite3.Error
	return errors.As(err, &e) && (e.ExtendedCode == sqlite3.ErrConstraintUnique || e.ExtendedCode == sqlite3.ErrConstraintPrimaryKey)
}

// nanos and fromNanos convert times to the stored Unix nanoseconds; the
// zero time is stored as 0 and read back as the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// The interfaces DB implements.
var (
	_ command.SettingsStore = (*DB)(nil)
	_ command.GMStore       = (*DB)(nil)
	_ sheet.Store           = (*DB)(nil)
	_ gm.Store              = (*DB)(nil)
	_ history.Store         = (*DB)(nil)
	_ alias.Store           = (*DB)(nil)
	_ transfer.Importer     = (*DB)(nil)
	_ transfer.PadLister    = (*DB)(nil)
)
