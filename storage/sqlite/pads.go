package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/pad"
)

// PadButtons lists owner's pad in chat ("" = the chat's pad), in order.
func (db *DB) PadButtons(ctx context.Context, chat core.ChatRef, owner string) ([]pad.Button, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT b.id, b.label, b.command FROM pad_buttons b JOIN chats c ON c.id = b.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND b.owner = ? ORDER BY b.pos, b.id`,
		chat.Platform, chat.ID, owner)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pad of %q in %s: %w", owner, chat, err)
	}
	defer rows.Close()
	var out []pad.Button
	for rows.Next() {
		var b pad.Button
		if err := rows.Scan(&b.ID, &b.Label, &b.Command); err != nil {
			return nil, fmt.Errorf("sqlite: pad of %q in %s: %w", owner, chat, err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: pad of %q in %s: %w", owner, chat, err)
	}
	return out, nil
}

// AddPadButton appends b to owner's pad; a pad with max buttons (max > 0)
// refuses it with pad.ErrFull.
func (db *DB) AddPadButton(ctx context.Context, chat core.ChatRef, owner string, b pad.Button, max int) (pad.Button, error) {
	err := db.write(ctx, fmt.Sprintf("add pad button of %q in %s", owner, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		var n, next int
		if err := tx.QueryRowContext(ctx,
			`SELECT count(*), coalesce(max(pos) + 1, 0) FROM pad_buttons WHERE chat = ? AND owner = ?`,
			id, owner).Scan(&n, &next); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return fmt.Errorf("%d buttons: %w", n, pad.ErrFull)
		}
		return tx.QueryRowContext(ctx,
			`INSERT INTO pad_buttons (chat, owner, pos, label, command) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			id, owner, next, b.Label, b.Command).Scan(&b.ID)
	})
	if err != nil {
		return pad.Button{}, err
	}
	return b, nil
}

// PadButton finds button id of chat, whoever owns it.
func (db *DB) PadButton(ctx context.Context, chat core.ChatRef, id int64) (string, pad.Button, error) {
	b := pad.Button{ID: id}
	var owner string
	err := db.r.QueryRowContext(ctx,
		`SELECT b.owner, b.label, b.command FROM pad_buttons b JOIN chats c ON c.id = b.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND b.id = ?`,
		chat.Platform, chat.ID, id).Scan(&owner, &b.Label, &b.Command)
	if errors.Is(err, sql.ErrNoRows) {
		return "", pad.Button{}, fmt.Errorf("sqlite: pad button %d in %s: %w", id, chat, pad.ErrNotFound)
	}
	if err != nil {
		return "", pad.Button{}, fmt.Errorf("sqlite: pad button %d in %s: %w", id, chat, err)
	}
	return owner, b, nil
}

// padIDs returns the ids of owner's pad in order, and the chat's row id
// (0 when the chat has none).
func padIDs(ctx context.Context, tx *sql.Tx, chat core.ChatRef, owner string) (int64, []int64, error) {
	cid, ok, err := existingChatID(ctx, tx, chat)
	if err != nil || !ok {
		return 0, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id FROM pad_buttons WHERE chat = ? AND owner = ? ORDER BY pos, id`, cid, owner)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, nil, err
		}
		ids = append(ids, id)
	}
	return cid, ids, rows.Err()
}

// renumber writes positions 0, 1, 2… in the order of ids.
func renumber(ctx context.Context, tx *sql.Tx, ids []int64) error {
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE pad_buttons SET pos = ? WHERE id = ?`, i, id); err != nil {
			return err
		}
	}
	return nil
}

func indexOf(ids []int64, id int64) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// RemovePadButton deletes button id of owner's pad.
func (db *DB) RemovePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64) error {
	return db.write(ctx, fmt.Sprintf("remove pad button %d in %s", id, chat), func(tx *sql.Tx) error {
		_, ids, err := padIDs(ctx, tx, chat, owner)
		if err != nil {
			return err
		}
		i := indexOf(ids, id)
		if i < 0 {
			return pad.ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pad_buttons WHERE id = ?`, id); err != nil {
			return err
		}
		return renumber(ctx, tx, append(ids[:i:i], ids[i+1:]...))
	})
}

// MovePadButton puts button id at position pos of owner's pad.
func (db *DB) MovePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64, pos int) error {
	return db.write(ctx, fmt.Sprintf("move pad button %d in %s", id, chat), func(tx *sql.Tx) error {
		_, ids, err := padIDs(ctx, tx, chat, owner)
		if err != nil {
			return err
		}
		i := indexOf(ids, id)
		if i < 0 {
			return pad.ErrNotFound
		}
		rest := append(ids[:i:i], ids[i+1:]...)
		pos = min(max(pos, 0), len(rest))
		order := append(append(append([]int64{}, rest[:pos]...), id), rest[pos:]...)
		return renumber(ctx, tx, order)
	})
}

// RenamePadButton changes the label of button id of owner's pad.
func (db *DB) RenamePadButton(ctx context.Context, chat core.ChatRef, owner string, id int64, label string) error {
	return db.write(ctx, fmt.Sprintf("rename pad button %d in %s", id, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE pad_buttons SET label = ? WHERE id = ? AND owner = ?
			    AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			label, id, owner, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err == nil && n == 0 {
			err = pad.ErrNotFound
		}
		return err
	})
}

// ClearPad deletes owner's pad.
func (db *DB) ClearPad(ctx context.Context, chat core.ChatRef, owner string) (int, error) {
	var n int64
	err := db.write(ctx, fmt.Sprintf("clear pad of %q in %s", owner, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM pad_buttons WHERE owner = ?
			    AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			owner, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
