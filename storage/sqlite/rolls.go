package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"zaria/core"
	"zaria/core/history"
)

// AppendRoll logs r in its chat and deletes the chat's oldest rolls beyond
// the newest keep, in one transaction. keep ≤ 0 keeps everything. A zero
// r.Time means now.
func (db *DB) AppendRoll(ctx context.Context, r history.Roll, keep int) error {
	if r.Time.IsZero() {
		r.Time = db.now()
	}
	dice, err := json.Marshal(ints(r.Dice))
	if err != nil {
		return fmt.Errorf("sqlite: log roll in %s: %w", r.Chat, err)
	}
	sides, err := json.Marshal(ints(r.Sides))
	if err != nil {
		return fmt.Errorf("sqlite: log roll in %s: %w", r.Chat, err)
	}
	return db.write(ctx, "log roll in "+r.Chat.String(), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, r.Chat)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO rolls (chat, user_id, user_name, command, dice, sides, result, time, total)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, r.UserID, r.UserName, r.Command, string(dice), string(sides), r.Result, nanos(r.Time), nullTotal(r.Total)); err != nil {
			return err
		}
		delta := map[faceKey]int{}
		countFaces(delta, r.Dice, r.Sides, 1)
		if keep > 0 {
			// The keep-th newest roll is the oldest one kept; with fewer
			// rolls there is none and nothing is deleted. The pruned rolls'
			// dice leave the face counts. A DELETE … RETURNING with the
			// look as its subquery cost about four inserts (CPU profile of
			// BenchmarkAppendRollChats) on every roll, though most rolls
			// (a history not yet full) delete nothing.
			var oldest int64
			err := tx.QueryRowContext(ctx,
				`SELECT id FROM rolls WHERE chat = ? ORDER BY id DESC LIMIT 1 OFFSET ?`, id, keep-1).Scan(&oldest)
			if errors.Is(err, sql.ErrNoRows) {
				return applyFaces(ctx, tx, id, delta)
			}
			if err != nil {
				return err
			}
			rows, err := tx.QueryContext(ctx,
				`DELETE FROM rolls WHERE chat = ? AND id < ? RETURNING dice, sides`, id, oldest)
			if err != nil {
				return err
			}
			var dj, sj []byte
			var pd, ps []int
			for rows.Next() {
				if err := rows.Scan(&dj, &sj); err != nil {
					rows.Close()
					return err
				}
				var err1, err2 error
				pd, err1 = parseInts(dj, pd[:0])
				ps, err2 = parseInts(sj, ps[:0])
				if err1 == nil && err2 == nil {
					countFaces(delta, pd, ps, -1)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return applyFaces(ctx, tx, id, delta)
	})
}

// nullTotal is a roll's total as a column: NULL when it has none.
func nullTotal(t *int) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*t), Valid: true}
}

// ints makes a nil slice encode as [] rather than null.
func ints(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// LastRolls returns up to n of the chat's rolls, newest first.
func (db *DB) LastRolls(ctx context.Context, chat core.ChatRef, n int) ([]history.Roll, error) {
	if n <= 0 {
		return nil, nil
	}
	rows, err := db.r.QueryContext(ctx,
		`SELECT r.id, r.user_id, r.user_name, r.command, r.dice, r.sides, r.result, r.time, r.total
		   FROM rolls r JOIN chats c ON c.id = r.chat
		  WHERE c.platform = ? AND c.chat_id = ?
		  ORDER BY r.id DESC LIMIT ?`, chat.Platform, chat.ID, n)
	if err != nil {
		return nil, fmt.Errorf("sqlite: last rolls of %s: %w", chat, err)
	}
	defer rows.Close()
	var out []history.Roll
	for rows.Next() {
		r := history.Roll{Chat: chat}
		var dice, sides string
		var t int64
		var tot sql.NullInt64
		if err := rows.Scan(&r.ID, &r.UserID, &r.UserName, &r.Command, &dice, &sides, &r.Result, &t, &tot); err != nil {
			return nil, fmt.Errorf("sqlite: last rolls of %s: %w", chat, err)
		}
		if r.Dice, err = parseInts([]byte(dice), nil); err != nil {
			return nil, fmt.Errorf("sqlite: last rolls of %s: roll %d dice: %w", chat, r.ID, err)
		}
		if r.Sides, err = parseInts([]byte(sides), nil); err != nil {
			return nil, fmt.Errorf("sqlite: last rolls of %s: roll %d sides: %w", chat, r.ID, err)
		}
		r.Time = fromNanos(t)
		if tot.Valid {
			v := int(tot.Int64)
			r.Total = &v
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: last rolls of %s: %w", chat, err)
	}
	return out, nil
}

// RollCounts returns the number of kept rolls per user, most rolls first,
// ties by user id, each with the user's most recent logged name.
func (db *DB) RollCounts(ctx context.Context, chat core.ChatRef) ([]history.UserCount, error) {
	// SQLite documents that with max() the bare column user_name comes from
	// the row holding the maximum id: the user's latest roll.
	rows, err := db.r.QueryContext(ctx,
		`SELECT r.user_id, r.user_name, max(r.id), count(*) AS n
		   FROM rolls r JOIN chats c ON c.id = r.chat
		  WHERE c.platform = ? AND c.chat_id = ?
		  GROUP BY r.user_id
		  ORDER BY n DESC, r.user_id`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: roll counts of %s: %w", chat, err)
	}
	defer rows.Close()
	var out []history.UserCount
	for rows.Next() {
		var u history.UserCount
		var last int64
		if err := rows.Scan(&u.UserID, &u.UserName, &last, &u.Rolls); err != nil {
			return nil, fmt.Errorf("sqlite: roll counts of %s: %w", chat, err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: roll counts of %s: %w", chat, err)
	}
	return out, nil
}

// FaceCounts returns, over the chat's kept rolls, how often each face of
// each known die size came up, ordered by size then face (from the counts
// AppendRoll keeps).
func (db *DB) FaceCounts(ctx context.Context, chat core.ChatRef) ([]history.FaceCount, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT f.sides, f.face, f.n FROM face_counts f JOIN chats c ON c.id = f.chat
		  WHERE c.platform = ? AND c.chat_id = ?
		  ORDER BY f.sides, f.face`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: face counts of %s: %w", chat, err)
	}
	defer rows.Close()
	out := []history.FaceCount{}
	for rows.Next() {
		var f history.FaceCount
		if err := rows.Scan(&f.Sides, &f.Face, &f.Count); err != nil {
			return nil, fmt.Errorf("sqlite: face counts of %s: %w", chat, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: face counts of %s: %w", chat, err)
	}
	return out, nil
}

// parseInts appends to dst the integers of a JSON array as AppendRoll
// writes it ("[7,3,10]"). Anything else is decoded by encoding/json, so
// the fast path is never the only judge of the stored text.
func parseInts(b []byte, dst []int) ([]int, error) {
	if len(b) >= 2 && b[0] == '[' && b[len(b)-1] == ']' {
		out, ok := dst, true
		body := b[1 : len(b)-1]
		for len(body) > 0 && ok {
			var num []byte
			if i := bytes.IndexByte(body, ','); i >= 0 {
				num, body = body[:i], body[i+1:]
				ok = len(body) > 0
			} else {
				num, body = body, nil
			}
			n, err := strconv.Atoi(string(num))
			ok = ok && err == nil
			out = append(out, n)
		}
		if ok {
			return out, nil
		}
	}
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return append(dst, v...), nil
}
