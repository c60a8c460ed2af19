package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// WriteStates sets the keys of set and deletes the keys of del, in one
// transaction: an adapter's journal writes what changed (a few small
// records) instead of rewriting one large value.
func (db *DB) WriteStates(ctx context.Context, set map[string]string, del []string) error {
	if len(set) == 0 && len(del) == 0 {
		return nil
	}
	now := nanos(db.now())
	// A few statements of many rows each, not one per key: a batch of
	// updates' records costs the writer one statement, not a hundred.
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	return db.write(ctx, fmt.Sprintf("write %d state keys", len(set)+len(del)), func(tx *sql.Tx) error {
		for len(keys) > 0 {
			n := min(len(keys), stateRows)
			args := make([]any, 0, 3*n)
			for _, k := range keys[:n] {
				args = append(args, k, set[k], now)
			}
			if _, err := tx.ExecContext(ctx, upsertStatesSQL(n), args...); err != nil {
				return err
			}
			keys = keys[n:]
		}
		for len(del) > 0 {
			n := min(len(del), 3*stateRows)
			args := make([]any, n)
			for i, k := range del[:n] {
				args[i] = k
			}
			if _, err := tx.ExecContext(ctx, deleteStatesSQL(n), args...); err != nil {
				return err
			}
			del = del[n:]
		}
		return nil
	})
}

// upsertStatesSQL sets n state keys: constant text and ? repeated.
func upsertStatesSQL(n int) string {
	return `INSERT INTO platform_state (key, value, updated) VALUES (?, ?, ?)` + strings.Repeat(`, (?, ?, ?)`, n-1) +
		` ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated`
}

// deleteStatesSQL deletes n state keys: constant text and ? repeated.
func deleteStatesSQL(n int) string {
	return `DELETE FROM platform_state WHERE key IN (?` + strings.Repeat(`, ?`, n-1) + `)`
}

// stateRows is how many keys WriteStates sets per statement (3 variables
// each, far below SQLite's bound of 32,766).
const stateRows = 200

// StatesWithPrefix returns every state key that starts with prefix, with
// its value (an adapter's journal records, read once at start). An empty
// prefix is refused.
func (db *DB) StatesWithPrefix(ctx context.Context, prefix string) (map[string]string, error) {
	if prefix == "" {
		return nil, fmt.Errorf("sqlite: states with prefix: empty prefix")
	}
	rows, err := db.r.QueryContext(ctx,
		`SELECT key, value FROM platform_state WHERE key >= ?1 AND substr(key, 1, length(?1)) = ?1`, prefix)
	if err != nil {
		return nil, fmt.Errorf("sqlite: states with prefix %q: %w", prefix, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("sqlite: states with prefix %q: %w", prefix, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: states with prefix %q: %w", prefix, err)
	}
	return out, nil
}
