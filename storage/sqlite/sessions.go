package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"zaria/core"
	"zaria/core/session"
)

// StartSession opens s in chat; core.ErrExists when one is open. Beyond
// keep sessions, the oldest go with their logs.
func (db *DB) StartSession(ctx context.Context, chat core.ChatRef, s session.Session, keep int) (session.Session, error) {
	if s.Started.IsZero() {
		s.Started = db.now()
	}
	err := db.write(ctx, fmt.Sprintf("start session in %s", chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE chat = ? AND ended = 0`, id).Scan(&open); err != nil {
			return err
		}
		if open > 0 {
			return fmt.Errorf("a session is open: %w", core.ErrExists)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO sessions (chat, title, started) VALUES (?, ?, ?) RETURNING id`,
			id, s.Title, nanos(s.Started)).Scan(&s.ID); err != nil {
			return err
		}
		if keep > 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE chat = ? AND id NOT IN
				(SELECT id FROM sessions WHERE chat = ? ORDER BY id DESC LIMIT ?)`, id, id, keep)
		}
		return err
	})
	if err != nil {
		return session.Session{}, err
	}
	return s, nil
}

// EndSession closes the open session of chat at end.
func (db *DB) EndSession(ctx context.Context, chat core.ChatRef, end time.Time) (session.Session, error) {
	var s session.Session
	err := db.write(ctx, fmt.Sprintf("end session in %s", chat), func(tx *sql.Tx) error {
		var started int64
		err := tx.QueryRowContext(ctx, `SELECT s.id, s.title, s.started, s.dropped, s.dropped_rolls FROM sessions s JOIN chats c ON c.id = s.chat
			WHERE c.platform = ? AND c.chat_id = ? AND s.ended = 0`, chat.Platform, chat.ID).Scan(&s.ID, &s.Title, &started, &s.Dropped, &s.DroppedRolls)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no open session: %w", core.ErrNotFound)
		}
		if err != nil {
			return err
		}
		s.Started, s.Ended = fromNanos(started), end
		if !end.After(s.Started) {
			s.Ended = s.Started.Add(time.Nanosecond) // never 0: 0 is open
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET ended = ? WHERE id = ?`, nanos(s.Ended), s.ID)
		return err
	})
	if err != nil {
		return session.Session{}, err
	}
	return s, nil
}

// LastSession returns the open session of chat, else the last one.
func (db *DB) LastSession(ctx context.Context, chat core.ChatRef) (session.Session, error) {
	var s session.Session
	var started, ended int64
	err := db.r.QueryRowContext(ctx, `SELECT s.id, s.title, s.started, s.ended, s.dropped, s.dropped_rolls FROM sessions s JOIN chats c ON c.id = s.chat
		WHERE c.platform = ? AND c.chat_id = ? ORDER BY s.ended = 0 DESC, s.id DESC LIMIT 1`, chat.Platform, chat.ID).
		Scan(&s.ID, &s.Title, &started, &ended, &s.Dropped, &s.DroppedRolls)
	if errors.Is(err, sql.ErrNoRows) {
		return session.Session{}, fmt.Errorf("sqlite: session of %s: %w", chat, core.ErrNotFound)
	}
	if err != nil {
		return session.Session{}, fmt.Errorf("sqlite: session of %s: %w", chat, err)
	}
	s.Started = fromNanos(started)
	if ended != 0 {
		s.Ended = fromNanos(ended)
	}
	return s, nil
}

// OpenSessions returns the chats that have an open session.
func (db *DB) OpenSessions(ctx context.Context) ([]core.ChatRef, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT c.platform, c.chat_id FROM sessions s JOIN chats c ON c.id = s.chat WHERE s.ended = 0`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open sessions: %w", err)
	}
	defer rows.Close()
	var out []core.ChatRef
	for rows.Next() {
		var c core.ChatRef
		if err := rows.Scan(&c.Platform, &c.ID); err != nil {
			return nil, fmt.Errorf("sqlite: open sessions: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: open sessions: %w", err)
	}
	return out, nil
}

// AppendEvent adds e to the open session of chat, keeping at most max.
func (db *DB) AppendEvent(ctx context.Context, chat core.ChatRef, e session.Event, max int) (bool, error) {
	if e.Time.IsZero() {
		e.Time = db.now()
	}
	ok := false
	err := db.write(ctx, fmt.Sprintf("log session event in %s", chat), func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT s.id FROM sessions s JOIN chats c ON c.id = s.chat
			WHERE c.platform = ? AND c.chat_id = ? AND s.ended = 0`, chat.Platform, chat.ID).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_events (session, time, user_name, command, text, secret, blind, roll)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, nanos(e.Time), e.UserName, e.Command, e.Text, e.Secret, e.Blind, e.Roll); err != nil {
			return err
		}
		if max <= 0 {
			return nil
		}
		var n, rolls int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(roll), 0) FROM session_events WHERE session = ? AND id NOT IN
			(SELECT id FROM session_events WHERE session = ? ORDER BY id DESC LIMIT ?)`, id, id, max).Scan(&n, &rolls); err != nil || n == 0 {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM session_events WHERE session = ? AND id NOT IN
			(SELECT id FROM session_events WHERE session = ? ORDER BY id DESC LIMIT ?)`, id, id, max); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET dropped = dropped + ?, dropped_rolls = dropped_rolls + ? WHERE id = ?`, n, rolls, id)
		return err
	})
	return ok, err
}

// Events returns the log of session id of chat, oldest first.
func (db *DB) Events(ctx context.Context, chat core.ChatRef, id int64) ([]session.Event, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT e.time, e.user_name, e.command, e.text, e.secret, e.blind, e.roll
		FROM session_events e JOIN sessions s ON s.id = e.session JOIN chats c ON c.id = s.chat
		WHERE c.platform = ? AND c.chat_id = ? AND s.id = ? ORDER BY e.id`, chat.Platform, chat.ID, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: session %d of %s: %w", id, chat, err)
	}
	defer rows.Close()
	var out []session.Event
	for rows.Next() {
		var e session.Event
		var t int64
		if err := rows.Scan(&t, &e.UserName, &e.Command, &e.Text, &e.Secret, &e.Blind, &e.Roll); err != nil {
			return nil, fmt.Errorf("sqlite: session %d of %s: %w", id, chat, err)
		}
		e.Time = fromNanos(t)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: session %d of %s: %w", id, chat, err)
	}
	return out, nil
}
