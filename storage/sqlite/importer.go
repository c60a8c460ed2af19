package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/transfer"
)

// ReplaceChat deletes every character of chat (with values and active
// selections), inserts d.Characters with new ids, restores each owner's
// active character and replaces the chat's settings, all or nothing. GMs,
// aliases and history are kept. Two characters with the same Key give
// core.ErrExists; two active characters of one owner are refused.
// Characters of the chat whose Key the document lacks are deleted only
// when mayDelete; otherwise their names come back with
// transfer.ErrWouldDelete and nothing changes.
func (db *DB) ReplaceChat(ctx context.Context, chat core.ChatRef, d transfer.ChatData, mayDelete bool) ([]string, error) {
	now := db.now()
	active := map[string]string{} // owner → key of its active character
	for _, c := range d.Characters {
		if !c.Active {
			continue
		}
		if prev, dup := active[c.Owner]; dup {
			return nil, fmt.Errorf("sqlite: replace chat %s: %q and %q are both active characters of %q", chat, prev, c.Key, c.Owner)
		}
		active[c.Owner] = c.Key
	}
	kept := make(map[string]bool, len(d.Characters))
	for _, c := range d.Characters {
		kept[c.Key] = true
	}
	var gone []string
	err := db.write(ctx, "replace chat "+chat.String(), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT key, name FROM characters WHERE chat = ? ORDER BY key`, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k, n string
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return err
			}
			if !kept[k] {
				gone = append(gone, n)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(gone) > 0 && !mayDelete {
			return transfer.ErrWouldDelete
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM characters WHERE chat = ?`, id); err != nil {
			return err
		}
		for _, c := range d.Characters {
			if c.Created.IsZero() {
				c.Created = now
			}
			if c.Updated.IsZero() {
				c.Updated = c.Created
			}
			cid, err := insertCharacter(ctx, tx, id, c)
			if err != nil {
				return err
			}
			if c.Active {
				if err := setActive(ctx, tx, id, c.Owner, cid); err != nil {
					return err
				}
			}
		}
		return saveSettings(ctx, tx, chat, d.Settings)
	})
	if err != nil && !errors.Is(err, transfer.ErrWouldDelete) {
		gone = nil
	}
	return gone, err
}
