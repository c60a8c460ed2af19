package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
		if d.Pads != nil {
			if err := replacePads(ctx, tx, id, d.Pads, mayDelete); err != nil {
				return err
			}
		}
		return saveSettings(ctx, tx, chat, d.Settings)
	})
	if err != nil && !errors.Is(err, transfer.ErrWouldDelete) {
		gone = nil
	}
	return gone, err
}

// insertCharacters inserts cs (with their values and active selections)
// into the chat whose row id is chat in a few statements whatever their
// number: the characters and the active selections over one JSON array
// each, the values in multi-row INSERTs of valueChunk rows with bound
// parameters (a json_each walk re-parses every value object for each
// column it reads, which made it the import's largest cost). Zero times
// are now.
func insertCharacters(ctx context.Context, tx *sql.Tx, chat int64, cs []sheet.Character, now time.Time) error {
	type jc struct {
		Key, Name, Owner, OwnerName, System string
		Created, Updated                    int64
		Active                              bool
	}
	chars := make([]jc, 0, len(cs))
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
	}
	if len(chars) == 0 {
		return nil
	}
	cj, err := json.Marshal(chars)
	if err != nil {
		return err
	}
	// json_each walks the array in order, so ids increase in document
	// order; RETURNING gives them back in that order.
	rows, err := tx.QueryContext(ctx,
		`INSERT INTO characters (chat, key, name, owner, owner_name, system, created, updated)
		 SELECT ?1, j.value ->> 'Key', j.value ->> 'Name', j.value ->> 'Owner', j.value ->> 'OwnerName',
		        j.value ->> 'System', j.value ->> 'Created', j.value ->> 'Updated'
		   FROM json_each(?2) j ORDER BY j.key
		 RETURNING key, id`, chat, string(cj))
	if isUnique(err) {
		return core.ErrExists
	} else if err != nil {
		return err
	}
	ids := make(map[string]int64, len(cs))
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			rows.Close()
			return err
		}
		ids[k] = id
	}
	rows.Close()
	if err := rows.Err(); isUnique(err) {
		return core.ErrExists
	} else if err != nil {
		return err
	}
	if err := insertSheetsValues(ctx, tx, cs, ids); err != nil {
		return err
	}
	// CROSS JOIN keeps json_each the outer loop, so each row finds its
	// character through the UNIQUE (chat, key) index.
	_, err = tx.ExecContext(ctx,
		`INSERT INTO active (chat, user_id, character)
		 SELECT ch.chat, ch.owner, ch.id
		   FROM json_each(?2) j CROSS JOIN characters ch ON ch.chat = ?1 AND ch.key = j.value ->> 'Key'
		  WHERE j.value ->> 'Active'`, chat, string(cj))
	return err
}

// valueChunk is the number of value rows one INSERT carries: 5 bound
// parameters each, well below SQLite's limit of 32,766 parameters.
const valueChunk = 400

// valueWriter inserts value rows in multi-row INSERTs of up to valueChunk
// rows with bound parameters: one statement per chunk, not per row (~5 µs
// apiece), and no JSON to build or parse.
type valueWriter struct {
	ctx  context.Context
	tx   *sql.Tx
	args []any
}

const valueCols = 5

func newValueWriter(ctx context.Context, tx *sql.Tx, rows int) *valueWriter {
	return &valueWriter{ctx: ctx, tx: tx, args: make([]any, 0, min(rows, valueChunk)*valueCols)}
}

// add queues the value v of character id at position pos.
func (w *valueWriter) add(id int64, pos int, v sheet.Value) error {
	w.args = append(w.args, id, pos, v.Key, v.Name, v.Text)
	if len(w.args) >= valueChunk*valueCols {
		return w.flush()
	}
	return nil
}

// valuesSQL is the INSERT of rows value rows: constant text and ?
// parameters only, repeated (TestSQLOnlyWithParameters lists it as
// reviewed).
func valuesSQL(rows int) string {
	return valuesInsert + strings.Repeat(valuesRow, rows-1)
}

const (
	valuesInsert = `INSERT INTO character_values (character, pos, key, name, text) VALUES (?,?,?,?,?)`
	valuesRow    = `,(?,?,?,?,?)`
)

// flush inserts the queued rows.
func (w *valueWriter) flush() error {
	if len(w.args) == 0 {
		return nil
	}
	_, err := w.tx.ExecContext(w.ctx, valuesSQL(len(w.args)/valueCols), w.args...)
	w.args = w.args[:0]
	return err
}

// insertSheetsValues inserts the values of cs, whose characters have the row
// ids ids.
func insertSheetsValues(ctx context.Context, tx *sql.Tx, cs []sheet.Character, ids map[string]int64) error {
	n := 0
	for _, c := range cs {
		n += len(c.Values)
	}
	w := newValueWriter(ctx, tx, n)
	for _, c := range cs {
		if err := addValues(w, ids[c.Key], 0, c.Values); err != nil {
			return fmt.Errorf("sheet %q: %w", c.Key, err)
		}
	}
	return w.flush()
}

// addValues queues vs as the values of character id, in order, at
// positions from pos on; a key twice in vs is refused.
func addValues(w *valueWriter, id int64, pos int, vs []sheet.Value) error {
	seen := make(map[string]bool, len(vs))
	for i, v := range vs {
		if seen[v.Key] {
			return fmt.Errorf("value key %q appears twice in one sheet", v.Key)
		}
		seen[v.Key] = true
		if err := w.add(id, pos+i, v); err != nil {
			return err
		}
	}
	return nil
}
