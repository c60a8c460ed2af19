package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"zaria/core"
)

// PutUndo replaces userID's last undo of kind in chat (core.UndoStore).
func (db *DB) PutUndo(ctx context.Context, chat core.ChatRef, userID, kind string, doc []byte, at time.Time) error {
	return db.write(ctx, fmt.Sprintf("keep undo of %s in %s", kind, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO undo (chat, user_id, kind, doc, at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (chat, user_id, kind) DO UPDATE SET doc = excluded.doc, at = excluded.at`,
			id, userID, kind, string(doc), nanos(at))
		return err
	})
}

// TakeUndo removes and returns userID's last undo of kind in chat;
// core.ErrNotFound when there is none (core.UndoStore).
func (db *DB) TakeUndo(ctx context.Context, chat core.ChatRef, userID, kind string) ([]byte, time.Time, error) {
	var doc string
	var at int64
	err := db.write(ctx, fmt.Sprintf("take undo of %s in %s", kind, chat), func(tx *sql.Tx) error {
		id, ok, err := existingChatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if !ok {
			return core.ErrNotFound
		}
		err = tx.QueryRowContext(ctx, `DELETE FROM undo WHERE chat = ? AND user_id = ? AND kind = ? RETURNING doc, at`,
			id, userID, kind).Scan(&doc, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return core.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, time.Time{}, err
	}
	return []byte(doc), fromNanos(at), nil
}

var _ core.UndoStore = (*DB)(nil)
