package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"zaria/core"
	"zaria/core/gm"
)

// AddGM names gm.UserID GM of chat; adding an existing GM updates the name
// and keeps the date it was first added. A new GM beyond max (> 0) GMs of
// the chat is refused with core.ErrQuota, checked in the same write
// transaction. A zero gm.Added means now.
func (db *DB) AddGM(ctx context.Context, chat core.ChatRef, gm gm.GM, max int) (bool, error) {
	added := gm.Added
	if added.IsZero() {
		added = db.now()
	}
	var isNew bool
	err := db.write(ctx, "add GM to "+chat.String(), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		var exists bool
		var n int
		if err := tx.QueryRowContext(ctx,
			`SELECT coalesce(sum(user_id = ?), 0) > 0, count(*) FROM gms WHERE chat = ?`,
			gm.UserID, id).Scan(&exists, &n); err != nil {
			return err
		}
		if !exists && max > 0 && n >= max {
			return fmt.Errorf("%d GMs: %w", n, core.ErrQuota)
		}
		isNew = !exists
		_, err = tx.ExecContext(ctx,
			`INSERT INTO gms (chat, user_id, name, added) VALUES (?, ?, ?, ?)
			 ON CONFLICT (chat, user_id) DO UPDATE SET name = excluded.name`,
			id, gm.UserID, gm.Name, nanos(added))
		return err
	})
	return isNew && err == nil, err
}

// RemoveGM removes userID from the chat's GMs; core.ErrNotFound if
// absent.
func (db *DB) RemoveGM(ctx context.Context, chat core.ChatRef, userID string) error {
	return db.write(ctx, "remove GM from "+chat.String(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM gms WHERE user_id = ?
			    AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			userID, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		return mustAffect(res)
	})
}

// ListGMs returns the chat's GMs ordered by the date they were added.
func (db *DB) ListGMs(ctx context.Context, chat core.ChatRef) ([]gm.GM, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT g.user_id, g.name, g.added
		   FROM gms g JOIN chats c ON c.id = g.chat
		  WHERE c.platform = ? AND c.chat_id = ?
		  ORDER BY g.added, g.user_id`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: GMs of %s: %w", chat, err)
	}
	defer rows.Close()
	var out []gm.GM
	for rows.Next() {
		var g gm.GM
		var added int64
		if err := rows.Scan(&g.UserID, &g.Name, &added); err != nil {
			return nil, fmt.Errorf("sqlite: GMs of %s: %w", chat, err)
		}
		g.Added = fromNanos(added)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: GMs of %s: %w", chat, err)
	}
	return out, nil
}

// IsGM reports whether userID was named GM of chat (command.GMStore).
func (db *DB) IsGM(ctx context.Context, chat core.ChatRef, userID string) (bool, error) {
	var gm bool
	err := db.r.QueryRowContext(ctx,
		`SELECT EXISTS (SELECT 1 FROM gms g JOIN chats c ON c.id = g.chat
		                 WHERE c.platform = ? AND c.chat_id = ? AND g.user_id = ?)`,
		chat.Platform, chat.ID, userID).Scan(&gm)
	if err != nil {
		return false, fmt.Errorf("sqlite: is %s GM of %s: %w", userID, chat, err)
	}
	return gm, nil
}

// mustAffect turns "no row changed" into core.ErrNotFound.
func mustAffect(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return core.ErrNotFound
	}
	return nil
}
