package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"zaria/core"
	"zaria/core/history"
)

// faceKey is one face of one die size.
type faceKey struct{ sides, face int }

// countFaces adds sign for each die of dice whose size in sides is known
// (≥ 1) and whose value is one of its faces, the rule of FaceCounts.
func countFaces(delta map[faceKey]int, dice, sides []int, sign int) {
	for i, f := range dice {
		if i >= len(sides) {
			break
		}
		if s := sides[i]; s >= 1 && f >= 1 && f <= s {
			delta[faceKey{s, f}] += sign
		}
	}
}

// applyFaces adds delta to the face and size counts of the chat whose row
// id is chat, in a few statements whatever its size (each a JSON array
// walked by SQLite), deleting the counts that reach zero.
func applyFaces(ctx context.Context, tx *sql.Tx, chat int64, delta map[faceKey]int) error {
	faces := make([][3]int, 0, len(delta))
	bySize := map[int]int{}
	less := false // whether a count can go down, and so reach zero
	for k, n := range delta {
		if n != 0 {
			faces = append(faces, [3]int{k.sides, k.face, n})
			bySize[k.sides] += n
			less = less || n < 0
		}
	}
	if len(faces) == 0 {
		return nil
	}
	sizes := make([][2]int, 0, len(bySize))
	for s, n := range bySize {
		if n != 0 {
			sizes = append(sizes, [2]int{s, n})
		}
	}
	fj, err := json.Marshal(faces)
	if err != nil {
		return err
	}
	sj, err := json.Marshal(sizes)
	if err != nil {
		return err
	}
	// "WHERE true" tells SQLite's parser that ON CONFLICT belongs to the
	// INSERT, not to a join of the SELECT.
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO face_counts (chat, sides, face, n)
		 SELECT ?1, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?2) j WHERE true
		 ON CONFLICT (chat, sides, face) DO UPDATE SET n = n + excluded.n`, chat, string(fj)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO size_counts (chat, sides, n)
		 SELECT ?1, j.value ->> 0, j.value ->> 1 FROM json_each(?2) j WHERE true
		 ON CONFLICT (chat, sides) DO UPDATE SET n = n + excluded.n`, chat, string(sj)); err != nil {
		return err
	}
	if !less {
		// Only added to (a roll logged, none pruned): no count reached
		// zero, two statements fewer on every roll.
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM face_counts WHERE chat = ? AND n <= 0`, chat); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM size_counts WHERE chat = ? AND n <= 0`, chat)
	return err
}

// fillFaceCounts computes the counts from the kept rolls (migration 0004).
func fillFaceCounts(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT chat, dice, sides FROM rolls ORDER BY chat`)
	if err != nil {
		return err
	}
	deltas := map[int64]map[faceKey]int{}
	for rows.Next() {
		var chat int64
		var dj, sj []byte
		if err := rows.Scan(&chat, &dj, &sj); err != nil {
			rows.Close()
			return err
		}
		dice, err1 := parseInts(dj, nil)
		sides, err2 := parseInts(sj, nil)
		if err1 != nil || err2 != nil {
			continue // a roll whose dice cannot be read never counted
		}
		if deltas[chat] == nil {
			deltas[chat] = map[faceKey]int{}
		}
		countFaces(deltas[chat], dice, sides, 1)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for chat, d := range deltas {
		if err := applyFaces(ctx, tx, chat, d); err != nil {
			return fmt.Errorf("face counts of chat %d: %w", chat, err)
		}
	}
	return nil
}

// DieStats returns the n die sizes (of 2 faces or more) of the chat's kept
// history with the most dice (ties: the smaller size first), each with the counts of its
// faces that came up, and how many sizes were left out, from one
// snapshot. It reads one row per die size and the faces of the n sizes
// returned, never the rolls.
func (db *DB) DieStats(ctx context.Context, chat core.ChatRef, n int) ([]history.SizeCount, int, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: die stats of %s: %w", chat, err)
	}
	defer tx.Rollback()
	out, more, err := dieStats(ctx, tx, chat, n)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: die stats of %s: %w", chat, err)
	}
	return out, more, nil
}

func dieStats(ctx context.Context, tx *sql.Tx, chat core.ChatRef, n int) ([]history.SizeCount, int, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM chats WHERE platform = ? AND chat_id = ?`, chat.Platform, chat.ID).Scan(&id)
	if err == sql.ErrNoRows {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT sides, n FROM size_counts WHERE chat = ? AND sides >= 2 ORDER BY n DESC, sides`, id)
	if err != nil {
		return nil, 0, err
	}
	var all []history.SizeCount
	for rows.Next() {
		var s history.SizeCount
		if err := rows.Scan(&s.Sides, &s.N); err != nil {
			rows.Close()
			return nil, 0, err
		}
		all = append(all, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	more := 0
	if n >= 0 && len(all) > n {
		more, all = len(all)-n, all[:n]
	}
	for i := range all {
		rows, err := tx.QueryContext(ctx, `SELECT face, n FROM face_counts WHERE chat = ? AND sides = ? ORDER BY face`, id, all[i].Sides)
		if err != nil {
			return nil, 0, err
		}
		for rows.Next() {
			f := history.FaceCount{Sides: all[i].Sides}
			if err := rows.Scan(&f.Face, &f.Count); err != nil {
				rows.Close()
				return nil, 0, err
			}
			all[i].Faces = append(all[i].Faces, f)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, 0, err
		}
	}
	return all, more, nil
}
