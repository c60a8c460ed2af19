package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"zaria/core"
	"zaria/core/character"
)

// ReplaceChat deletes every character of chat (with values and active
// selections), inserts d.Characters with new ids, restores each owner's
// active character and replaces the chat's settings, all or nothing. GMs,
// aliases and history are kept. Two characters with the same Key give
// character.ErrExists; two active characters of one owner are refused.
func (db *DB) ReplaceChat(ctx context.Context, chat core.ChatRef, d character.ChatData) error {
	now := db.now()
	active := map[string]string{} // owner → key of its active character
	for _, c := range d.Characters {
		if !c.Active {
			continue
		}
		if prev, dup := active[c.Owner]; dup {
			return fmt.Errorf("sqlite: replace chat %s: %q and %q are both active characters of %q", chat, prev, c.Key, c.Owner)
		}
		active[c.Owner] = c.Key
	}
	return db.write(ctx, "replace chat "+chat.String(), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
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
}
