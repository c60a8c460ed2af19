package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/alias"
)

// SetAlias creates or replaces the alias (a.UserID, a.Key) of chat. A new
// alias beyond max of its owner (the user, or the chat for UserID "") is
// refused with core.ErrQuota; max ≤ 0 means no limit. Replacing keeps
// the date it was first created. A zero a.Created means now.
func (db *DB) SetAlias(ctx context.Context, chat core.ChatRef, a alias.Alias, max int) error {
	if a.Created.IsZero() {
		a.Created = db.now()
	}
	return db.write(ctx, fmt.Sprintf("set alias %q in %s", a.Key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if max > 0 {
			var exists bool
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT coalesce(sum(key = ?), 0) > 0, count(*) FROM aliases WHERE chat = ? AND user_id = ?`,
				a.Key, id, a.UserID).Scan(&exists, &n); err != nil {
				return err
			}
			if !exists && n >= max {
				return fmt.Errorf("%d aliases of %q: %w", n, a.UserID, core.ErrQuota)
			}
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO aliases (chat, user_id, key, name, text, created) VALUES (?, ?, ?, ?, ?, ?)
			 ON CONFLICT (chat, user_id, key) DO UPDATE SET name = excluded.name, text = excluded.text`,
			id, a.UserID, a.Key, a.Name, a.Text, nanos(a.Created))
		return err
	})
}

// Alias returns the alias key of userID ("" = the chat's) in chat.
func (db *DB) Alias(ctx context.Context, chat core.ChatRef, userID, key string) (alias.Alias, error) {
	a := alias.Alias{UserID: userID, Key: key}
	var created int64
	err := db.r.QueryRowContext(ctx,
		`SELECT a.name, a.text, a.created FROM aliases a JOIN chats c ON c.id = a.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND a.user_id = ? AND a.key = ?`,
		chat.Platform, chat.ID, userID, key).Scan(&a.Name, &a.Text, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return alias.Alias{}, fmt.Errorf("sqlite: alias %q of %q in %s: %w", key, userID, chat, core.ErrNotFound)
	}
	if err != nil {
		return alias.Alias{}, fmt.Errorf("sqlite: alias %q of %q in %s: %w", key, userID, chat, err)
	}
	a.Created = fromNanos(created)
	return a, nil
}

// ListAliases returns the aliases of userID ("" = the chat's) in chat,
// ordered by Key.
func (db *DB) ListAliases(ctx context.Context, chat core.ChatRef, userID string) ([]alias.Alias, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT a.key, a.name, a.text, a.created FROM aliases a JOIN chats c ON c.id = a.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND a.user_id = ?
		  ORDER BY a.key`, chat.Platform, chat.ID, userID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: aliases of %q in %s: %w", userID, chat, err)
	}
	defer rows.Close()
	var out []alias.Alias
	for rows.Next() {
		a := alias.Alias{UserID: userID}
		var created int64
		if err := rows.Scan(&a.Key, &a.Name, &a.Text, &created); err != nil {
			return nil, fmt.Errorf("sqlite: aliases of %q in %s: %w", userID, chat, err)
		}
		a.Created = fromNanos(created)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: aliases of %q in %s: %w", userID, chat, err)
	}
	return out, nil
}

// DeleteAlias removes the alias key of userID ("" = the chat's) in chat.
func (db *DB) DeleteAlias(ctx context.Context, chat core.ChatRef, userID, key string) error {
	return db.write(ctx, fmt.Sprintf("delete alias %q in %s", key, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM aliases WHERE user_id = ? AND key = ?
			    AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			userID, key, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		return mustAffect(res)
	})
}
