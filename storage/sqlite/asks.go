package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/ask"
)

// askBody is the stored JSON of a request (ask_requests.body): all but
// its id, chat and times, which are columns.
type askBody struct {
	Check   string      `json:"check"`
	Blind   bool        `json:"blind,omitempty"`
	GM      string      `json:"gm"`
	GMName  string      `json:"gm_name,omitempty"`
	Entries []ask.Entry `json:"entries"`
	Chances string      `json:"chances,omitempty"`
}

func scanAsk(row interface{ Scan(...any) error }, r *ask.Request) error {
	var body string
	var closed bool
	var created int64
	if err := row.Scan(&r.ID, &body, &closed, &created); err != nil {
		return err
	}
	var b askBody
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		return fmt.Errorf("request %d: %w", r.ID, err)
	}
	r.Check, r.Blind, r.GM, r.GMName, r.Entries, r.Chances = b.Check, b.Blind, b.GM, b.GMName, b.Entries, b.Chances
	r.Closed, r.Created = closed, fromNanos(created)
	return nil
}

func askJSON(r ask.Request) (string, error) {
	b, err := json.Marshal(askBody{Check: r.Check, Blind: r.Blind, GM: r.GM, GMName: r.GMName, Entries: r.Entries, Chances: r.Chances})
	return string(b), err
}

// CreateAsk stores r as a new request of chat and forgets the chat's
// requests older than its keep newest.
func (db *DB) CreateAsk(ctx context.Context, chat core.ChatRef, r ask.Request, keep int) (ask.Request, error) {
	body, err := askJSON(r)
	if err != nil {
		return ask.Request{}, err
	}
	if r.Created.IsZero() {
		r.Created = db.now()
	}
	err = db.write(ctx, fmt.Sprintf("create request in %s", chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		now := nanos(db.now())
		res, err := tx.ExecContext(ctx, `INSERT INTO ask_requests (chat, body, closed, created, updated) VALUES (?, ?, ?, ?, ?)`,
			id, body, r.Closed, nanos(r.Created), now)
		if err != nil {
			return err
		}
		if r.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		if keep > 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM ask_requests WHERE chat = ?1 AND id NOT IN
				(SELECT id FROM ask_requests WHERE chat = ?1 ORDER BY id DESC LIMIT ?2)`, id, keep)
		}
		return err
	})
	if err != nil {
		return ask.Request{}, err
	}
	return r, nil
}

const askColumns = `a.id, a.body, a.closed, a.created`

// Ask returns the request id of chat, or core.ErrNotFound.
func (db *DB) Ask(ctx context.Context, chat core.ChatRef, id int64) (ask.Request, error) {
	var r ask.Request
	err := scanAsk(db.r.QueryRowContext(ctx, `SELECT `+askColumns+` FROM ask_requests a JOIN chats c ON c.id = a.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND a.id = ?`, chat.Platform, chat.ID, id), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return ask.Request{}, fmt.Errorf("sqlite: request %d in %s: %w", id, chat, core.ErrNotFound)
	}
	if err != nil {
		return ask.Request{}, fmt.Errorf("sqlite: request %d in %s: %w", id, chat, err)
	}
	return r, nil
}

// UpdateAsk reads, changes with fn and stores the request id of chat in
// one write transaction.
func (db *DB) UpdateAsk(ctx context.Context, chat core.ChatRef, id int64, fn func(*ask.Request) error) (ask.Request, error) {
	var r ask.Request
	err := db.write(ctx, fmt.Sprintf("update request %d in %s", id, chat), func(tx *sql.Tx) error {
		err := scanAsk(tx.QueryRowContext(ctx, `SELECT `+askColumns+` FROM ask_requests a JOIN chats c ON c.id = a.chat
			  WHERE c.platform = ? AND c.chat_id = ? AND a.id = ?`, chat.Platform, chat.ID, id), &r)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("request %d: %w", id, core.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
		r.ID = id
		body, err := askJSON(r)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE ask_requests SET body = ?, closed = ?, updated = ? WHERE id = ?`,
			body, r.Closed, nanos(db.now()), id)
		return err
	})
	if err != nil {
		return ask.Request{}, err
	}
	return r, nil
}

// OpenAsks is chat's requests not closed, newest first.
func (db *DB) OpenAsks(ctx context.Context, chat core.ChatRef) ([]ask.Request, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+askColumns+` FROM ask_requests a JOIN chats c ON c.id = a.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND NOT a.closed ORDER BY a.id DESC`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open requests in %s: %w", chat, err)
	}
	defer rows.Close()
	var out []ask.Request
	for rows.Next() {
		var r ask.Request
		if err := scanAsk(rows, &r); err != nil {
			return nil, fmt.Errorf("sqlite: open requests in %s: %w", chat, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: open requests in %s: %w", chat, err)
	}
	return out, nil
}
