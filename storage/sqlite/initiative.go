package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/initiative"
)

// Initiative returns the chat's turn order; initiative.ErrNone when it has none.
func (db *DB) Initiative(ctx context.Context, chat core.ChatRef) (initiative.Order, error) {
	var doc string
	err := db.r.QueryRowContext(ctx,
		`SELECT i.doc FROM initiative i JOIN chats c ON c.id = i.chat WHERE c.platform = ? AND c.chat_id = ?`,
		chat.Platform, chat.ID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return initiative.Order{}, fmt.Errorf("sqlite: turn order of %s: %w", chat, initiative.ErrNone)
	}
	if err != nil {
		return initiative.Order{}, fmt.Errorf("sqlite: turn order of %s: %w", chat, err)
	}
	var o initiative.Order
	if err := json.Unmarshal([]byte(doc), &o); err != nil {
		return initiative.Order{}, fmt.Errorf("sqlite: turn order of %s: %w", chat, err)
	}
	return o, nil
}

// EditInitiative changes the chat's turn order in one write transaction
// (initiative.Store).
func (db *DB) EditInitiative(ctx context.Context, chat core.ChatRef, edit func(o *initiative.Order, ok bool) error) (initiative.Order, error) {
	var out initiative.Order
	err := db.write(ctx, fmt.Sprintf("edit turn order of %s", chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		var doc string
		ok := true
		err = tx.QueryRowContext(ctx, `SELECT doc FROM initiative WHERE chat = ?`, id).Scan(&doc)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			ok = false
		case err != nil:
			return err
		default:
			if err := json.Unmarshal([]byte(doc), &out); err != nil {
				return err
			}
		}
		if err := edit(&out, ok); err != nil {
			return err
		}
		return putInitiative(ctx, tx, id, out, nanos(db.now()))
	})
	if err != nil {
		return initiative.Order{}, err
	}
	return out, nil
}

// putInitiative stores o as chat row id's turn order, or deletes it when
// it is empty and closed.
func putInitiative(ctx context.Context, tx *sql.Tx, id int64, o initiative.Order, now int64) error {
	if !o.Open && len(o.Combatants) == 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM initiative WHERE chat = ?`, id)
		return err
	}
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO initiative (chat, doc, updated) VALUES (?, ?, ?)
		ON CONFLICT (chat) DO UPDATE SET doc = excluded.doc, updated = excluded.updated`, id, string(b), now)
	return err
}

var _ initiative.Store = (*DB)(nil)
