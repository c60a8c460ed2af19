package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"zaria/core"
	"zaria/core/systems/fork"
)

// Forks returns the chat's forks and own systems (fork.Store), by key.
func (db *DB) Forks(ctx context.Context, chat core.ChatRef) ([]fork.Fork, error) {
	rs, err := db.r.QueryContext(ctx,
		`SELECT f.key, f.base, f.changes, f.source, f.updated FROM system_forks f JOIN chats c ON c.id = f.chat
		  WHERE c.platform = ? AND c.chat_id = ? ORDER BY f.key`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: forks of %s: %w", chat, err)
	}
	defer rs.Close()
	var out []fork.Fork
	for rs.Next() {
		var f fork.Fork
		var changes string
		var updated int64
		if err := rs.Scan(&f.Key, &f.Base, &changes, &f.Source, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: forks of %s: %w", chat, err)
		}
		if err := json.Unmarshal([]byte(changes), &f.Changes); err != nil {
			return nil, fmt.Errorf("sqlite: fork %q of %s: %w", f.Key, chat, err)
		}
		if len(f.Source) == 0 {
			f.Source = nil
		}
		f.Updated = fromNanos(updated)
		out = append(out, f)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: forks of %s: %w", chat, err)
	}
	return out, nil
}

// SaveFork creates or replaces f.Key of chat; a new one beyond max (max >
// 0) is refused with core.ErrQuota.
func (db *DB) SaveFork(ctx context.Context, chat core.ChatRef, f fork.Fork, max int) error {
	if f.Updated.IsZero() {
		f.Updated = db.now()
	}
	return db.write(ctx, fmt.Sprintf("save fork %q of %s", f.Key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if max > 0 {
			var exists bool
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT coalesce(sum(key = ?), 0) > 0, count(*) FROM system_forks WHERE chat = ?`, f.Key, id).Scan(&exists, &n); err != nil {
				return err
			}
			if !exists && n >= max {
				return fmt.Errorf("%d forks: %w", n, core.ErrQuota)
			}
		}
		return putFork(ctx, tx, id, f, nanos(f.Updated))
	})
}

// DeleteFork removes key of chat; a key not there is no error.
func (db *DB) DeleteFork(ctx context.Context, chat core.ChatRef, key string) error {
	return db.write(ctx, fmt.Sprintf("delete fork %q of %s", key, chat), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`DELETE FROM system_forks WHERE key = ? AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			key, chat.Platform, chat.ID)
		return err
	})
}

// replaceForks writes an import's forks and own systems into the chat
// whose row id is chat (nil: none in the document, the chat's stay);
// with all, the chat's others go.
func replaceForks(ctx context.Context, tx *sql.Tx, chat int64, fs []fork.Fork, all bool, now int64) error {
	if fs == nil {
		return nil
	}
	if all {
		if _, err := tx.ExecContext(ctx, `DELETE FROM system_forks WHERE chat = ?`, chat); err != nil {
			return err
		}
	}
	for _, f := range fs {
		if err := putFork(ctx, tx, chat, f, now); err != nil {
			return err
		}
	}
	return nil
}

// putFork creates or replaces f in the chat whose row id is chat.
func putFork(ctx context.Context, tx *sql.Tx, chat int64, f fork.Fork, updated int64) error {
	changes := []byte("[]")
	if f.Changes != nil {
		var err error
		if changes, err = json.Marshal(f.Changes); err != nil {
			return err
		}
	}
	src := f.Source
	if src == nil {
		src = []byte{}
	}
	_, err := tx.ExecContext(ctx,
		`INSERT INTO system_forks (chat, key, base, changes, source, updated) VALUES (?, ?, ?, ?, ?, ?)
		 ON CONFLICT (chat, key) DO UPDATE SET base = excluded.base, changes = excluded.changes, source = excluded.source, updated = excluded.updated`,
		chat, f.Key, f.Base, string(changes), src, updated)
	return err
}
