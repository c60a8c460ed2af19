package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/sheet"
	"zaria/core/transfer"
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
func scanCharacters(rows *sql.Rows, chat core.ChatRef) ([]sheet.Character, error) {
	defer rows.Close()
	var out []sheet.Character
	for rows.Next() {
		var (
			c                sheet.Character
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
			last.Values = append(last.Values, sheet.Value{Key: vkey.String, Name: vname.String, Text: vtx.String})
		}
	}
	return out, rows.Err()
}

// CreateCharacter inserts c into chat and makes it its owner's active
// character, in one transaction. Zero Created/Updated mean now.
func (db *DB) CreateCharacter(ctx context.Context, chat core.ChatRef, c sheet.Character, q sheet.Quota) (sheet.Character, error) {
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
		if q.PerOwner > 0 || q.PerChat > 0 {
			var owned, all int
			if err := tx.QueryRowContext(ctx,
				`SELECT coalesce(sum(owner = ?), 0), count(*) FROM characters WHERE chat = ?`,
				c.Owner, id).Scan(&owned, &all); err != nil {
				return err
			}
			if q.PerOwner > 0 && owned >= q.PerOwner {
				return fmt.Errorf("%d characters of %s: %w", owned, c.Owner, core.ErrQuota)
			}
			if q.PerChat > 0 && all >= q.PerChat {
				return fmt.Errorf("%d characters in the chat: %w", all, core.ErrQuota)
			}
		}
		c.ID, err = insertCharacter(ctx, tx, id, c)
		if err != nil {
			return err
		}
		return setActive(ctx, tx, id, c.Owner, c.ID)
	})
	if err != nil {
		return sheet.Character{}, err
	}
	c.Created, c.Updated = fromNanos(nanos(c.Created)), fromNanos(nanos(c.Updated))
	return c, nil
}

// insertCharacter inserts c and its values into the chat whose row id is
// chat and returns its new id.
func insertCharacter(ctx context.Context, tx *sql.Tx, chat int64, c sheet.Character) (int64, error) {
	// Times are stored as int64 Unix nanoseconds; outside that range they
	// would come back as another date.
	if !transfer.Storable(c.Created) || !transfer.Storable(c.Updated) {
		return 0, fmt.Errorf("character %q: time %v or %v out of the storable range", c.Key, c.Created, c.Updated)
	}
	var id int64
	err := tx.QueryRowContext(ctx,
		`INSERT INTO characters (chat, key, name, owner, owner_name, system, created, updated)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		chat, c.Key, c.Name, c.Owner, c.OwnerName, c.System, nanos(c.Created), nanos(c.Updated)).Scan(&id)
	if isUnique(err) {
		return 0, core.ErrExists
	}
	if err != nil {
		return 0, err
	}
	return id, insertValues(ctx, tx, id, 0, c.Values)
}

// insertValues stores vs as the values of character id, in order, at
// positions from pos on.
func insertValues(ctx context.Context, tx *sql.Tx, id int64, pos int, vs []sheet.Value) error {
	if len(vs) == 0 {
		return nil
	}
	w := newValueWriter(ctx, tx, len(vs))
	if err := addValues(w, id, pos, vs); err != nil {
		return err
	}
	return w.flush()
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
func (db *DB) Character(ctx context.Context, chat core.ChatRef, key string) (sheet.Character, error) {
	rows, err := db.r.QueryContext(ctx, characterSelect+` AND ch.key = ? ORDER BY v.pos`,
		chat.Platform, chat.ID, key)
	if err != nil {
		return sheet.Character{}, fmt.Errorf("sqlite: character %q of %s: %w", key, chat, err)
	}
	return oneCharacter(rows, chat, fmt.Sprintf("character %q", key))
}

// ActiveCharacter returns userID's active character in chat.
func (db *DB) ActiveCharacter(ctx context.Context, chat core.ChatRef, userID string) (sheet.Character, error) {
	rows, err := db.r.QueryContext(ctx, characterSelect+`
		AND ch.id = (SELECT a.character FROM active a WHERE a.chat = c.id AND a.user_id = ?)
		ORDER BY v.pos`, chat.Platform, chat.ID, userID)
	if err != nil {
		return sheet.Character{}, fmt.Errorf("sqlite: active character of %s in %s: %w", userID, chat, err)
	}
	return oneCharacter(rows, chat, "active character of "+userID)
}

// ActiveCharacterName returns the name of userID's active character in
// chat, "" when they have none: one indexed row, for a reply that names
// the character (a pad press: "Ana (Drake): …") without loading its sheet.
func (db *DB) ActiveCharacterName(ctx context.Context, chat core.ChatRef, userID string) (string, error) {
	var name string
	err := db.r.QueryRowContext(ctx, `
		SELECT ch.name FROM active a
		  JOIN chats c ON c.id = a.chat
		  JOIN characters ch ON ch.id = a.character
		 WHERE c.platform = ? AND c.chat_id = ? AND a.user_id = ?`, chat.Platform, chat.ID, userID).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: active character name of %s in %s: %w", userID, chat, err)
	}
	return name, nil
}

func oneCharacter(rows *sql.Rows, chat core.ChatRef, what string) (sheet.Character, error) {
	cs, err := scanCharacters(rows, chat)
	if err != nil {
		return sheet.Character{}, fmt.Errorf("sqlite: %s in %s: %w", what, chat, err)
	}
	if len(cs) == 0 {
		return sheet.Character{}, fmt.Errorf("sqlite: %s in %s: %w", what, chat, core.ErrNotFound)
	}
	return cs[0], nil
}

// ListCharacters returns every character of chat, ordered by Key.
func (db *DB) ListCharacters(ctx context.Context, chat core.ChatRef) ([]sheet.Character, error) {
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

// EditCharacter reads character id of chat, lets edit change it and stores
// the change, all inside one BEGIN IMMEDIATE transaction: the write lock is
// held from the read on, so no other connection or process can change the
// sheet in between. Only what edit changed is written: the characters row
// when one of its fields changed, and for the values the rows that were
// removed, changed or added (a reordering rewrites the values). A zero
// Updated means now.
func (db *DB) EditCharacter(ctx context.Context, chat core.ChatRef, id int64, edit func(c *sheet.Character) error) (sheet.Character, error) {
	var (
		out     sheet.Character
		editErr error
	)
	err := db.write(ctx, fmt.Sprintf("edit character %d of %s", id, chat), func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, characterSelect+` AND ch.id = ? ORDER BY v.pos`, chat.Platform, chat.ID, id)
		if err != nil {
			return err
		}
		cs, err := scanCharacters(rows, chat)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			return core.ErrNotFound
		}
		old := cs[0]
		c := old
		c.Values = append([]sheet.Value(nil), old.Values...)
		if err := edit(&c); err != nil {
			editErr = err
			return err
		}
		// What an edit may not change.
		c.ID, c.Chat, c.Owner, c.Created, c.Active = old.ID, old.Chat, old.Owner, old.Created, old.Active
		if c.Updated.IsZero() || c.Updated.Equal(old.Updated) {
			c.Updated = db.now()
		}
		res, err := tx.ExecContext(ctx,
			`UPDATE characters SET key = ?, name = ?, system = ?, owner_name = ?, updated = ? WHERE id = ?`,
			c.Key, c.Name, c.System, c.OwnerName, nanos(c.Updated), c.ID)
		if isUnique(err) {
			return core.ErrExists
		}
		if err != nil {
			return err
		}
		if err := mustAffect(res); err != nil {
			return err
		}
		if err := changeValues(ctx, tx, c.ID, old.Values, c.Values); err != nil {
			return err
		}
		c.Updated = fromNanos(nanos(c.Updated))
		out = c
		return nil
	})
	if editErr != nil {
		return sheet.Character{}, editErr
	}
	if err != nil {
		return sheet.Character{}, err
	}
	return out, nil
}

// changeValues turns the values of character id from old into vs with as
// few row changes as it can: removed keys are deleted, changed ones
// updated, new ones appended after the last position. When the kept
// values are not in their old order, or new ones are not at the end, the
// values are rewritten (still inside the caller's transaction).
func changeValues(ctx context.Context, tx *sql.Tx, id int64, old, vs []sheet.Value) error {
	type slot struct {
		pos int
		v   sheet.Value
	}
	was := make(map[string]slot, len(old))
	for i, v := range old {
		was[v.Key] = slot{i, v}
	}
	now := make(map[string]bool, len(vs))
	inOrder, last, appended := true, -1, false
	for _, v := range vs {
		if now[v.Key] {
			return fmt.Errorf("value key %q appears twice in one sheet", v.Key)
		}
		now[v.Key] = true
		o, ok := was[v.Key]
		switch {
		case !ok:
			appended = true
		case appended || o.pos < last:
			inOrder = false
		default:
			last = o.pos
		}
	}
	// New values go after the last stored position (earlier edits leave gaps).
	var maxPos int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(pos), -1) FROM character_values WHERE character = ?`, id).Scan(&maxPos); err != nil {
		return err
	}
	if !inOrder {
		if _, err := tx.ExecContext(ctx, `DELETE FROM character_values WHERE character = ?`, id); err != nil {
			return err
		}
		return insertValues(ctx, tx, id, 0, vs)
	}
	for _, v := range old {
		if !now[v.Key] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM character_values WHERE character = ? AND key = ?`, id, v.Key); err != nil {
				return err
			}
		}
	}
	var added []sheet.Value
	for _, v := range vs {
		o, ok := was[v.Key]
		if !ok {
			added = append(added, v)
			continue
		}
		if o.v != v {
			if _, err := tx.ExecContext(ctx, `UPDATE character_values SET name = ?, text = ? WHERE character = ? AND key = ?`,
				v.Name, v.Text, id, v.Key); err != nil {
				return err
			}
		}
	}
	return insertValues(ctx, tx, id, maxPos+1, added)
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
			return core.ErrNotFound
		}
		return setActive(ctx, tx, cid, userID, id)
	})
}
