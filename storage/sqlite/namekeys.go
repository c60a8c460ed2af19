package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"zaria/core/fold"
	"zaria/core/sheet"
)

// goSteps are migrations that need Go after their SQL file, in the same
// transaction, by the name of the file after its number (so that
// renumbering the files keeps them attached).
func goSteps() map[string]func(ctx context.Context, tx *sql.Tx) error {
	return map[string]func(ctx context.Context, tx *sql.Tx) error{
		"character_name_keys.sql": characterNameKeys,
		"face_counts.sql":         fillFaceCounts,
	}
}

// characterNameKeys recomputes every character's key as sheet.NameKey
// of its cleaned name, renaming later look-alikes (see
// migrations/0003_character_name_keys.sql), and cleans the stored owner,
// GM and roller names.
func characterNameKeys(ctx context.Context, tx *sql.Tx) error {
	type row struct {
		id, chat              int64
		name, key, ownerName  string
		newName, newKey, newO string
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, chat, name, key, owner_name FROM characters ORDER BY chat, id`)
	if err != nil {
		return err
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.chat, &r.name, &r.key, &r.ownerName); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	taken := map[int64]map[string]bool{} // chat → keys given
	for i := range all {
		r := &all[i]
		if taken[r.chat] == nil {
			taken[r.chat] = map[string]bool{}
		}
		name := fold.Clean(r.name)
		if sheet.NameKey(name) == "" {
			name = fmt.Sprint("pj-", r.id)
		}
		r.newName, r.newKey = name, sheet.NameKey(name)
		for n := 2; taken[r.chat][r.newKey]; n++ {
			r.newName = fmt.Sprintf("%s-%d", name, n)
			r.newKey = sheet.NameKey(r.newName)
		}
		taken[r.chat][r.newKey] = true
		r.newO = fold.Clean(r.ownerName)
	}
	// Two passes, so that no intermediate state breaks UNIQUE (chat, key):
	// first a key no name can have ("\x00" and the id), then the new key.
	for _, r := range all {
		if r.newKey == r.key {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE characters SET key = ? WHERE id = ?`, fmt.Sprint("\x00", r.id), r.id); err != nil {
			return err
		}
	}
	for _, r := range all {
		if r.newKey == r.key && r.newName == r.name && r.newO == r.ownerName {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE characters SET key = ?, name = ?, owner_name = ? WHERE id = ?`,
			r.newKey, r.newName, r.newO, r.id); err != nil {
			return fmt.Errorf("character %d %q: %w", r.id, r.name, err)
		}
	}
	if err := cleanColumn("gms.name",
		func() (*sql.Rows, error) { return tx.QueryContext(ctx, `SELECT DISTINCT name FROM gms`) },
		func(clean, old string) error {
			_, err := tx.ExecContext(ctx, `UPDATE gms SET name = ? WHERE name = ?`, clean, old)
			return err
		}); err != nil {
		return err
	}
	return cleanColumn("rolls.user_name",
		func() (*sql.Rows, error) { return tx.QueryContext(ctx, `SELECT DISTINCT user_name FROM rolls`) },
		func(clean, old string) error {
			_, err := tx.ExecContext(ctx, `UPDATE rolls SET user_name = ? WHERE user_name = ?`, clean, old)
			return err
		})
}

// cleanColumn applies fold.Clean to every distinct value that list reads,
// writing each changed one with set (both with constant SQL).
func cleanColumn(what string, list func() (*sql.Rows, error), set func(clean, old string) error) error {
	rows, err := list()
	if err != nil {
		return err
	}
	var dirty []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		if fold.Clean(v) != v {
			dirty = append(dirty, v)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, v := range dirty {
		if err := set(fold.Clean(v), v); err != nil {
			return fmt.Errorf("clean %s: %w", what, err)
		}
	}
	return nil
}
