package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"zaria/core"
	"zaria/core/character"
)

// characterSelect reads characters with their values, one row per value
// (a character without values gives one row of NULLs), ordered so that a
// character's rows are adjacent and its values in order. A single
// statement reads one consistent snapshot.
const characterSelect = `
SELECT ch.id, ch.key, ch.name, ch.owner, ch.owner_name, ch.system, ch.created, ch.updated,
       EXISTS (SELECT 1 FROM active a WHERE a.chat = ch.chat AND a.character = ch.id AND a.user_id = ch.owner),
       v.key, v.name, v.text
  FROM characters ch
  JOIN chats c ON c.id = ch.chat
  LEFT JOIN character_values v ON v.character = ch.id
 WHERE c.platform = ? AND c.chat_id = ?`

// scanCharacters collects the rows of characterSelect.
func scanCharacters(rows *sql.Rows, chat core.ChatRef) ([]character.Character, error) {
	defer rows.Close()
	var out []character.Character
	for rows.Next() {
		var (
			c                character.Character
			created, updated int64
			vkey, vname, vtx sql.NullString
		)
		if err := rows.Scan(&c.ID, &c.Key, &c.Name, &c.Owner, &c.OwnerName, &c.System,
			&created, &updated, &c.Active, &vkey, &vname, &vtx); err != nil {
			return nil, err
		}
		if n := len(out); n == 0 || out[n-1].ID != c.ID {
			c.Chat = chat
			c.Created, c.Updated = fromNanos(created), fromNanos(updated)
			out = append(out, c)
		}
		if vkey.Valid {
			last := &out[len(out)-1]
			last.Values = append(last.Values, character.Value{Key: vkey.String, Name: vname.String, Text: vtx.String})
		}
	}
	return out, rows.Err()
}

// CreateCharacter inserts c into chat and makes it its owner's active
// character, in one transaction. Zero Created/Updated mean now.
func (db *DB) CreateCharacter(ctx context.Context, chat core.ChatRef, c character.Character, maxPerOwner int) (character.Character, error) {
	c.Chat = chat
	c.Active = true
	now := db.now()
	if c.Created.IsZero() {
		c.Created = now
	}
	if c.Updated.IsZero() {
		c.Updated = c.Created
	}
	err := db.write(ctx, fmt.Sprintf("create character %q in %s", c.Key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if maxPerOwner > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM characters WHERE chat = ? AND owner = ?`,
				id, c.Owner).Scan(&n); err != nil {
				return err
			}
			if n >= maxPerOwner {
				return fmt.Errorf("%d characters of %s: %w", n, c.Owner, character.ErrQuota)
			}
		}
		c.ID, err = insertCharacter(ctx, tx, id, c)
		if err != nil {
			return err
		}
		return setActive(ctx, tx, id, c.Owner, c.ID)
	})
	if err != nil {
		return character.Character{}, err
	}
	c.Created, c.Updated = fromNanos(nanos(c.Created)), fromNanos(nanos(c.Updated))
	return c, nil
}

// insertCharacter inserts c and its values into the chat whose row id is
// chat and returns its new id.
func insertCharacter(ctx context.Context, tx *sql.Tx, chat int64, c character.Character) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx,
		`INSERT INTO characters (chat, key, name, owner, owner_name, system, created, updated)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		chat, c.Key, c.Name, c.Owner, c.OwnerName, c.System, nanos(c.Created), nanos(c.Updated)).Scan(&id)
	if isUnique(err) {
		return 0, character.ErrExists
	}
	if err != nil {
		return 0, err
	}
	return id, insertValues(ctx, tx, id, c.Values)
}

// insertValues stores vs as the values of character id, in order.
func insertValues(ctx context.Context, tx *sql.Tx, id int64, vs []character.Value) error {
	seen := make(map[string]bool, len(vs))
	for i, v := range vs {
		if seen[v.Key] {
			return fmt.Errorf("value key %q appears twice in one sheet", v.Key)
		}
		seen[v.Key] = true
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO character_values (character, pos, key, name, text) VALUES (?, ?, ?, ?, ?)`,
			id, i, v.Key, v.Name, v.Text); err != nil {
			return err
		}
	}
	return nil
}

// setActive makes character id the active character of userID in the chat
// whose row id is chat. It changes nothing unless the character belongs to
// that chat and that user.
func setActive(ctx context.Context, tx *sql.Tx, chat int64, userID string, id int64) error {
	res, err := tx.ExecContext(ctx,
		`INSERT INTO active (chat, user_id, character)
		 SELECT chat, owner, id FROM characters WHERE chat = ? AND owner = ? AND id = ?
		 ON CONFLICT (chat, user_id) DO UPDATE SET character = excluded.character`,
		chat, userID, id)
	if err != nil {
		return err
	}
	return mustAffect(res)
}

// Character returns the chat's character whose Key is key.
func (db *DB) Character(ctx context.Context, chat core.ChatRef, key string) (character.Character, error) {
	rows, err := db.r.QueryContext(ctx, characterSelect+` AND ch.key = ? ORDER BY v.pos`,
		chat.Platform, chat.ID, key)
	if err != nil {
		return character.Character{}, fmt.Errorf("sqlite: character %q of %s: %w", key, chat, err)
	}
	return oneCharacter(rows, chat, fmt.Sprintf("character %q", key))
}

// ActiveCharacter returns userID's active character in chat.
func (db *DB) ActiveCharacter(ctx context.Context, chat core.ChatRef, userID string) (character.Character, error) {
	rows, err := db.r.QueryContext(ctx, characterSelect+`
		AND ch.id = (SELECT a.character FROM active a WHERE a.chat = c.id AND a.user_id = ?)
		ORDER BY v.pos`, chat.Platform, chat.ID, userID)
	if err != nil {
		return character.Character{}, fmt.Errorf("sqlite: active character of %s in %s: %w", userID, chat, err)
	}
	return oneCharacter(rows, chat, "active character of "+userID)
}

func oneCharacter(rows *sql.Rows, chat core.ChatRef, what string) (character.Character, error) {
	cs, err := scanCharacters(rows, chat)
	if err != nil {
		return character.Character{}, fmt.Errorf("sqlite: %s in %s: %w", what, chat, err)
	}
	if len(cs) == 0 {
		return character.Character{}, fmt.Errorf("sqlite: %s in %s: %w", what, chat, character.ErrNotFound)
	}
	return cs[0], nil
}

// ListCharacters returns every character of chat, ordered by Key.
func (db *DB) ListCharacters(ctx context.Context, chat core.ChatRef) ([]character.Character, error) {
	rows, err := db.r.QueryContext(ctx, characterSelect+` ORDER BY ch.key, ch.id, v.pos`,
		chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: characters of %s: %w", chat, err)
	}
	cs, err := scanCharacters(rows, chat)
	if err != nil {
		return nil, fmt.Errorf("sqlite: characters of %s: %w", chat, err)
	}
	return cs, nil
}

// UpdateCharacter replaces Name, Key, System, Values, OwnerName and Updated
// of character c.ID of chat. A zero Updated means now.
func (db *DB) UpdateCharacter(ctx context.Context, chat core.ChatRef, c character.Character) error {
	if c.Updated.IsZero() {
		c.Updated = db.now()
	}
	return db.write(ctx, fmt.Sprintf("update character %d of %s", c.ID, chat), func(tx *sql.Tx) error {
		id, ok, err := existingChatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if !ok {
			return character.ErrNotFound
		}
		res, err := tx.ExecContext(ctx,
			`UPDATE characters SET key = ?, name = ?, system = ?, owner_name = ?, updated = ?
			  WHERE chat = ? AND id = ?`,
			c.Key, c.Name, c.System, c.OwnerName, nanos(c.Updated), id, c.ID)
		if isUnique(err) {
			return character.ErrExists
		}
		if err != nil {
			return err
		}
		if err := mustAffect(res); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM character_values WHERE character = ?`, c.ID); err != nil {
			return err
		}
		return insertValues(ctx, tx, c.ID, c.Values)
	})
}

// DeleteCharacter removes character id of chat, its values and any active
// selection of it (by cascade).
func (db *DB) DeleteCharacter(ctx context.Context, chat core.ChatRef, id int64) error {
	return db.write(ctx, fmt.Sprintf("delete character %d of %s", id, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM characters WHERE id = ?
			    AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			id, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		return mustAffect(res)
	})
}

// SetActive makes character id of chat, owned by userID, the user's active
// character.
func (db *DB) SetActive(ctx context.Context, chat core.ChatRef, userID string, id int64) error {
	return db.write(ctx, fmt.Sprintf("set active character of %s in %s", userID, chat), func(tx *sql.Tx) error {
		cid, ok, err := existingChatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if !ok {
			return character.ErrNotFound
		}
		return setActive(ctx, tx, cid, userID, id)
	})
}
