package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// WriteStates sets the keys of set and deletes the keys of del, in one
// transaction: an adapter's journal writes what changed (a few small
// records) instead of rewriting one large value.
func (db *DB) WriteStates(ctx context.Context, set map[string]string, del []string) error {
	if len(set) == 0 && len(del) == 0 {
		return nil
	}
	now := nanos(db.now())
	return db.write(ctx, fmt.Sprintf("write %d state keys", len(set)+len(del)), func(tx *sql.Tx) error {
		for k, v := range set {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO platform_state (key, value, updated) VALUES (?, ?, ?)
				 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated`, k, v, now); err != nil {
				return err
			}
		}
		for _, k := range del {
			if _, err := tx.ExecContext(ctx, `DELETE FROM platform_state WHERE key = ?`, k); err != nil {
				return err
			}
		}
		return nil
	})
}

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
