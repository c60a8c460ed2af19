package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"zaria/core"
	"zaria/core/sheet"
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
		if err := insertCharacters(ctx, tx, id, d.Characters, now); err != nil {
			return err
		}
		return saveSettings(ctx, tx, chat, d.Settings)
	})
	if err != nil && !errors.Is(err, transfer.ErrWouldDelete) {
		gone = nil
	}
	return gone, err
}

// insertCharacters inserts cs (with their values and active selections)
// into the chat whose row id is chat in three statements whatever their
// number, each over a JSON array: an import of 200 sheets × 40 values
// costs a few milliseconds, not 8,000 round trips. Zero times are now.
func insertCharacters(ctx context.Context, tx *sql.Tx, chat int64, cs []sheet.Character, now time.Time) error {
	type jc struct {
		Key, Name, Owner, OwnerName, System string
		Created, Updated                    int64
		Active                              bool
	}
	type jv struct {
		Char, Key, Name, Text string
		Pos                   int
	}
	chars := make([]jc, 0, len(cs))
	var values []jv
	seen := make(map[string]bool, len(cs))
	for _, c := range cs {
		if c.Created.IsZero() {
			c.Created = now
		}
		if c.Updated.IsZero() {
			c.Updated = c.Created
		}
		if !transfer.Storable(c.Created) || !transfer.Storable(c.Updated) {
			return fmt.Errorf("character %q: time %v or %v out of the storable range", c.Key, c.Created, c.Updated)
		}
		if seen[c.Key] {
			return core.ErrExists
		}
		seen[c.Key] = true
		chars = append(chars, jc{c.Key, c.Name, c.Owner, c.OwnerName, c.System, nanos(c.Created), nanos(c.Updated), c.Active})
		keys := make(map[string]bool, len(c.Values))
		for i, v := range c.Values {
			if keys[v.Key] {
				return fmt.Errorf("value key %q appears twice in sheet %q", v.Key, c.Key)
			}
			keys[v.Key] = true
			values = append(values, jv{c.Key, v.Key, v.Name, v.Text, i})
		}
	}
	if len(chars) == 0 {
		return nil
	}
	cj, err := json.Marshal(chars)
	if err != nil {
		return err
	}
	// json_each walks the array in order, so ids increase in document order.
	// CROSS JOIN below keeps json_each the outer loop, so each row finds its
	// character through the UNIQUE (chat, key) index.
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO characters (chat, key, name, owner, owner_name, system, created, updated)
		 SELECT ?1, j.value ->> 'Key', j.value ->> 'Name', j.value ->> 'Owner', j.value ->> 'OwnerName',
		        j.value ->> 'System', j.value ->> 'Created', j.value ->> 'Updated'
		   FROM json_each(?2) j ORDER BY j.key`, chat, string(cj)); isUnique(err) {
		return core.ErrExists
	} else if err != nil {
		return err
	}
	if len(values) > 0 {
		vj, err := json.Marshal(values)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO character_values (character, pos, key, name, text)
			 SELECT ch.id, j.value ->> 'Pos', j.value ->> 'Key', j.value ->> 'Name', j.value ->> 'Text'
			   FROM json_each(?2) j CROSS JOIN characters ch ON ch.chat = ?1 AND ch.key = j.value ->> 'Char'`,
			chat, string(vj)); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO active (chat, user_id, character)
		 SELECT ch.chat, ch.owner, ch.id
		   FROM json_each(?2) j CROSS JOIN characters ch ON ch.chat = ?1 AND ch.key = j.value ->> 'Key'
		  WHERE j.value ->> 'Active'`, chat, string(cj))
	return err
}
