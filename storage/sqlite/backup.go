package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database to dest while the bot
// keeps running. It runs VACUUM INTO on a connection of its own: the copy
// is the snapshot of one read transaction (every write committed before it
// started, none after), it does not block the writer in WAL mode, and the
// result is a compact, self-contained database file in rollback-journal
// mode (no -wal or -shm to carry along), checked with integrity_check
// before it is kept.
//
// The copy is written to a temporary file next to dest, synced, and
// renamed over dest, so dest is always either the old backup or a complete
// new one.
func (db *DB) Backup(ctx context.Context, dest string) error {
	if err := db.backup(ctx, dest); err != nil {
		return fmt.Errorf("sqlite: backup to %s: %w", dest, err)
	}
	return nil
}

func (db *DB) backup(ctx context.Context, dest string) error {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return err
	}
	if abs == db.path || abs == db.path+"-wal" || abs == db.path+"-shm" {
		return fmt.Errorf("that is the database itself")
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(abs)+".*.tmp")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	tmp.Close()
	// VACUUM INTO writes into an empty file; creating it ourselves gives
	// it a unique name. The deferred remove is a no-op after the rename.
	defer os.Remove(tmpName)

	// The readers are query_only, which refuses VACUUM INTO, and the writer
	// must stay free for the bot; VACUUM INTO only reads this database, so
	// a short-lived plain connection does it.
	src, err := sql.Open("sqlite3", dsn(db.path, url.Values{}))
	if err != nil {
		return err
	}
	defer src.Close()
	src.SetMaxOpenConns(1)
	if _, err := src.ExecContext(ctx, `VACUUM INTO ?`, tmpName); err != nil {
		return err
	}
	if err := src.Close(); err != nil {
		return err
	}
	if err := checkCopy(ctx, tmpName); err != nil {
		return err
	}
	if err := syncFile(tmpName); err != nil {
		return err
	}
	if err := os.Rename(tmpName, abs); err != nil {
		return err
	}
	return syncFile(dir)
}

// checkCopy opens the new copy read-only and runs SQLite's integrity
// check on it, so a backup that is kept is one that can be restored.
func checkCopy(ctx context.Context, name string) error {
	cp, err := sql.Open("sqlite3", dsn(name, url.Values{"mode": {"ro"}}))
	if err != nil {
		return err
	}
	defer cp.Close()
	var result string
	if err := cp.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return fmt.Errorf("check the copy: %w", err)
	}
	if result != "ok" {
		return fmt.Errorf("check the copy: integrity_check says %q", result)
	}
	return cp.Close()
}

// syncFile flushes a file (or a directory, after a rename) to stable storage.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
