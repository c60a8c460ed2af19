package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/table"
	"zaria/core/transfer"
)

// tableRow is a row of a random table as stored in random_tables.rows.
type tableRow struct {
	Lo   int    `json:"lo"`
	Hi   int    `json:"hi"`
	Text string `json:"text"`
}

func encodeRows(rs []table.Row) (string, error) {
	out := make([]tableRow, len(rs))
	for i, r := range rs {
		out[i] = tableRow{Lo: r.Lo, Hi: r.Hi, Text: r.Text}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func decodeTable(t *table.Table, dice, rows string, updated int64) error {
	d, ok := table.ParseDice(dice)
	if !ok {
		return fmt.Errorf("table %q: bad dice %q", t.Key, dice)
	}
	var rs []tableRow
	if err := json.Unmarshal([]byte(rows), &rs); err != nil {
		return fmt.Errorf("table %q: rows: %w", t.Key, err)
	}
	t.Dice = d
	t.Rows = make([]table.Row, len(rs))
	for i, r := range rs {
		t.Rows[i] = table.Row{Lo: r.Lo, Hi: r.Hi, Text: r.Text}
	}
	t.Updated = fromNanos(updated)
	return nil
}

// SaveTable creates or replaces the random table t.Key of chat; a new one
// beyond max tables (max > 0) is refused with core.ErrQuota.
func (db *DB) SaveTable(ctx context.Context, chat core.ChatRef, t table.Table, max int) error {
	if t.Updated.IsZero() {
		t.Updated = db.now()
	}
	rows, err := encodeRows(t.Rows)
	if err != nil {
		return fmt.Errorf("sqlite: table %q in %s: %w", t.Key, chat, err)
	}
	return db.write(ctx, fmt.Sprintf("save table %q in %s", t.Key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if max > 0 {
			var exists bool
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT coalesce(sum(key = ?), 0) > 0, count(*) FROM random_tables WHERE chat = ?`, t.Key, id).Scan(&exists, &n); err != nil {
				return err
			}
			if !exists && n >= max {
				return fmt.Errorf("%d tables: %w", n, core.ErrQuota)
			}
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO random_tables (chat, key, name, dice, rows, updated) VALUES (?, ?, ?, ?, ?, ?)
			 ON CONFLICT (chat, key) DO UPDATE SET name = excluded.name, dice = excluded.dice, rows = excluded.rows, updated = excluded.updated`,
			id, t.Key, t.Name, t.Dice.String(), rows, nanos(t.Updated))
		return err
	})
}

// Table returns the random table key of chat, or core.ErrNotFound.
func (db *DB) Table(ctx context.Context, chat core.ChatRef, key string) (table.Table, error) {
	t := table.Table{Key: key}
	var dice, rows string
	var updated int64
	err := db.r.QueryRowContext(ctx,
		`SELECT t.name, t.dice, t.rows, t.updated FROM random_tables t JOIN chats c ON c.id = t.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND t.key = ?`,
		chat.Platform, chat.ID, key).Scan(&t.Name, &dice, &rows, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return table.Table{}, fmt.Errorf("sqlite: table %q in %s: %w", key, chat, core.ErrNotFound)
	}
	if err == nil {
		err = decodeTable(&t, dice, rows, updated)
	}
	if err != nil {
		return table.Table{}, fmt.Errorf("sqlite: table %q in %s: %w", key, chat, err)
	}
	return t, nil
}

// ListTables returns the chat's random tables ordered by key.
func (db *DB) ListTables(ctx context.Context, chat core.ChatRef) ([]table.Table, error) {
	rs, err := db.r.QueryContext(ctx,
		`SELECT t.key, t.name, t.dice, t.rows, t.updated FROM random_tables t JOIN chats c ON c.id = t.chat
		  WHERE c.platform = ? AND c.chat_id = ? ORDER BY t.key`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: tables of %s: %w", chat, err)
	}
	defer rs.Close()
	var out []table.Table
	for rs.Next() {
		var t table.Table
		var dice, rows string
		var updated int64
		if err := rs.Scan(&t.Key, &t.Name, &dice, &rows, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: tables of %s: %w", chat, err)
		}
		if err := decodeTable(&t, dice, rows, updated); err != nil {
			return nil, fmt.Errorf("sqlite: tables of %s: %w", chat, err)
		}
		out = append(out, t)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: tables of %s: %w", chat, err)
	}
	return out, nil
}

// RenameTable gives the table oldKey the name and key of t.
func (db *DB) RenameTable(ctx context.Context, chat core.ChatRef, oldKey string, t table.Table) error {
	if t.Updated.IsZero() {
		t.Updated = db.now()
	}
	return db.write(ctx, fmt.Sprintf("rename table %q in %s", oldKey, chat), func(tx *sql.Tx) error {
		id, ok, err := existingChatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if !ok {
			return core.ErrNotFound
		}
		if t.Key != oldKey {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM random_tables WHERE chat = ? AND key = ?`, id, t.Key).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return fmt.Errorf("table %q: %w", t.Key, core.ErrExists)
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE random_tables SET key = ?, name = ?, updated = ? WHERE chat = ? AND key = ?`,
			t.Key, t.Name, nanos(t.Updated), id, oldKey)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("table %q: %w", oldKey, core.ErrNotFound)
		}
		return nil
	})
}

// DeleteTable removes the random table key of chat.
func (db *DB) DeleteTable(ctx context.Context, chat core.ChatRef, key string) error {
	return db.write(ctx, fmt.Sprintf("delete table %q in %s", key, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM random_tables WHERE key = ? AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			key, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("table %q: %w", key, core.ErrNotFound)
		}
		return nil
	})
}

// replaceGMTools writes an import's random tables and decks (when the
// document has them) in tx, replacing those of the same key; all: every
// other one goes too.
func (db *DB) replaceGMTools(ctx context.Context, tx *sql.Tx, chat int64, rest transfer.ChatData, all bool) error {
	if rest.Tables != nil {
		if all {
			if _, err := tx.ExecContext(ctx, `DELETE FROM random_tables WHERE chat = ?`, chat); err != nil {
				return err
			}
		}
		for _, t := range rest.Tables {
			rows, err := encodeRows(t.Rows)
			if err != nil {
				return err
			}
			if t.Updated.IsZero() {
				t.Updated = db.now()
			}
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO random_tables (chat, key, name, dice, rows, updated) VALUES (?, ?, ?, ?, ?, ?)
				 ON CONFLICT (chat, key) DO UPDATE SET name = excluded.name, dice = excluded.dice, rows = excluded.rows, updated = excluded.updated`,
				chat, t.Key, t.Name, t.Dice.String(), rows, nanos(t.Updated)); err != nil {
				return err
			}
		}
	}
	if rest.Decks != nil {
		if all {
			if _, err := tx.ExecContext(ctx, `DELETE FROM decks WHERE chat = ?`, chat); err != nil {
				return err
			}
		}
		for _, d := range rest.Decks {
			if err := db.saveDeck(ctx, tx, chat, d); err != nil {
				return err
			}
		}
	}
	return nil
}
