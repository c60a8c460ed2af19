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
// selections), inserts the characters src hands it with new ids, restores
// each owner's active character and replaces the chat's settings (and
// pads), all or nothing. GMs, aliases and history are kept. Two
// characters with the same Key give core.ErrExists; two active characters
// of one owner are refused. Characters of the chat whose Key src lacks
// are deleted only when mayDelete; otherwise their names come back with
// transfer.ErrWouldDelete and nothing changes. src's error, when it ends
// with one, is returned and nothing changes.
//
// The chat's characters are deleted first and src's are written as they
// come, in batches of importBatch, while the document is still being
// checked: the transaction is undone if the document or the deletion is
// refused.
func (db *DB) ReplaceChat(ctx context.Context, chat core.ChatRef, src *transfer.Source, mayDelete bool) ([]string, error) {
	now := db.now()
	var gone []string
	// A larger page cache for this transaction only; shrinking it back
	// after frees the pages beyond writerCacheKiB.
	defer db.w.ExecContext(context.WithoutCancel(ctx), pragmaWriterCache)
	err := db.write(ctx, "replace chat "+chat.String(), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, pragmaImportCache); err != nil {
			return err
		}
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		type old struct{ key, name string }
		var before []old
		rows, err := tx.QueryContext(ctx, `SELECT key, name FROM characters WHERE chat = ? ORDER BY key`, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var o old
			if err := rows.Scan(&o.key, &o.name); err != nil {
				rows.Close()
				return err
			}
			before = append(before, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM characters WHERE chat = ?`, id); err != nil {
			return err
		}
		kept := map[string]bool{}
		w := newValueWriter(ctx, tx, valueChunk)
		batch := make([]sheet.Character, 0, importBatch)
		for {
			c, ok, err := src.Next(ctx)
			if err != nil {
				return err
			}
			if ok {
				kept[c.Key] = true
				batch = append(batch, c)
			}
			if len(batch) == importBatch || (!ok && len(batch) > 0) {
				if err := insertCharacters(ctx, tx, id, batch, now, w); err != nil {
					return err
				}
				batch = batch[:0]
			}
			if !ok {
				break
			}
		}
		if err := w.flush(); err != nil {
			return err
		}
		for _, o := range before {
			if !kept[o.key] {
				gone = append(gone, o.name)
			}
		}
		if len(gone) > 0 && !mayDelete {
			return transfer.ErrWouldDelete
		}
		rest := src.Rest()
		if rest.Pads != nil {
			if err := replacePads(ctx, tx, id, rest.Pads, mayDelete); err != nil {
				return err
			}
		}
		if err := db.replaceGMTools(ctx, tx, id, rest, mayDelete); err != nil {
			return err
		}
		if err := replaceForks(ctx, tx, id, rest.Systems, mayDelete, nanos(db.now())); err != nil {
			return err
		}
		if rest.Initiative != nil {
			if err := putInitiative(ctx, tx, id, *rest.Initiative, nanos(db.now())); err != nil {
				return err
			}
		}
		return saveSettings(ctx, tx, chat, rest.Settings)
	})
	if err != nil && !errors.Is(err, transfer.ErrWouldDelete) {
		gone = nil
	}
	return gone, err
}

// importBatch is how many imported characters one INSERT writes: small,
// so that writing follows the checking closely.
const importBatch = 16

// insertCharacters inserts cs into the chat whose row id is chat in one
// statement over a JSON array whatever their number, then their owners'
// active selections, and queues their values in w (multi-row INSERTs with
// bound parameters: a json_each walk re-parses every value object for
// each column it reads, which made it the import's largest cost); the
// caller flushes w. Zero times are now.
func insertCharacters(ctx context.Context, tx *sql.Tx, chat int64, cs []sheet.Character, now time.Time, w *valueWriter) error {
	type jc struct {
		Key, Name, Owner, OwnerName, System string
		Created, Updated                    int64
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
		chars = append(chars, jc{c.Key, c.Name, c.Owner, c.OwnerName, c.System, nanos(c.Created), nanos(c.Updated)})
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
	for _, c := range cs {
		if err := addValues(w, ids[c.Key], 0, c.Values); err != nil {
			return fmt.Errorf("sheet %q: %w", c.Key, err)
		}
	}
	// The values of these characters may still wait in w; the active
	// table does not refer to them. An owner has at most one.
	for _, c := range cs {
		if !c.Active {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO active (chat, user_id, character) VALUES (?, ?, ?)`,
			chat, c.Owner, ids[c.Key]); err != nil {
			return err
		}
	}
	return nil
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
