package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"zaria/core"
)

// chatID returns the row id of chat, creating the row. Only writes call it:
// reads of a chat never seen find nothing and create nothing. Inside the
// write transaction nobody else can insert the chat between the two
// statements.
func chatID(ctx context.Context, tx *sql.Tx, chat core.ChatRef) (int64, error) {
	id, ok, err := existingChatID(ctx, tx, chat)
	if err != nil || ok {
		return id, err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO chats (platform, chat_id) VALUES (?, ?) RETURNING id`,
		chat.Platform, chat.ID).Scan(&id)
	if err != nil {
		return 0, err
	}
	return id, nil
}

// existingChatID returns the row id of chat inside a write, or ok=false if
// the chat has never been written.
func existingChatID(ctx context.Context, tx *sql.Tx, chat core.ChatRef) (int64, bool, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM chats WHERE platform = ? AND chat_id = ?`,
		chat.Platform, chat.ID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return id, true, nil
}

// Settings returns the chat's settings; a chat never seen has the zero
// settings (with an empty, non-nil Options map).
func (db *DB) Settings(ctx context.Context, chat core.ChatRef) (core.Settings, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT c.lang, o.key, o.value
		   FROM chats c LEFT JOIN chat_options o ON o.chat = c.id
		  WHERE c.platform = ? AND c.chat_id = ?`, chat.Platform, chat.ID)
	if err != nil {
		return core.Settings{}, fmt.Errorf("sqlite: settings of %s: %w", chat, err)
	}
	defer rows.Close()
	s := core.Settings{Options: map[string]string{}}
	for rows.Next() {
		var key, value sql.NullString
		if err := rows.Scan(&s.Lang, &key, &value); err != nil {
			return core.Settings{}, fmt.Errorf("sqlite: settings of %s: %w", chat, err)
		}
		if key.Valid {
			s.Options[key.String] = value.String
		}
	}
	if err := rows.Err(); err != nil {
		return core.Settings{}, fmt.Errorf("sqlite: settings of %s: %w", chat, err)
	}
	return s, nil
}

// SaveSettings replaces the chat's settings (language and every option).
func (db *DB) SaveSettings(ctx context.Context, chat core.ChatRef, s core.Settings) error {
	return db.write(ctx, "save settings of "+chat.String(), func(tx *sql.Tx) error {
		return saveSettings(ctx, tx, chat, s)
	})
}

// SetLang changes only the chat's language, in one write: an option set at
// the same time by another writer is kept (SaveSettings would write back
// the options it read earlier).
func (db *DB) SetLang(ctx context.Context, chat core.ChatRef, lang string) error {
	return db.write(ctx, "set language of "+chat.String(), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE chats SET lang = ? WHERE id = ?`, lang, id)
		return err
	})
}

// SetOption changes only one option of the chat, in one write; an empty
// value removes it. Other options and the language are not touched.
func (db *DB) SetOption(ctx context.Context, chat core.ChatRef, key, value string) error {
	return db.write(ctx, fmt.Sprintf("set option %q of %s", key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if value == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM chat_options WHERE chat = ? AND key = ?`, id, key)
			return err
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO chat_options (chat, key, value) VALUES (?, ?, ?)
			 ON CONFLICT (chat, key) DO UPDATE SET value = excluded.value`, id, key, value)
		return err
	})
}

func saveSettings(ctx context.Context, tx *sql.Tx, chat core.ChatRef, s core.Settings) error {
	id, err := chatID(ctx, tx, chat)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE chats SET lang = ? WHERE id = ?`, s.Lang, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chat_options WHERE chat = ?`, id); err != nil {
		return err
	}
	for k, v := range s.Options {
		if _, err := tx.ExecContext(ctx, `INSERT INTO chat_options (chat, key, value) VALUES (?, ?, ?)`, id, k, v); err != nil {
			return err
		}
	}
	return nil
}

// State returns the adapter state stored under key (Telegram's update
// offset, Matrix's sync token and device id); ok=false if none.
func (db *DB) State(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT value FROM platform_state WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("sqlite: state %q: %w", key, err)
	}
	return value, true, nil
}

// SetState stores value under key, replacing any previous value.
func (db *DB) SetState(ctx context.Context, key, value string) error {
	now := nanos(db.now())
	return db.write(ctx, fmt.Sprintf("set state %q", key), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO platform_state (key, value, updated) VALUES (?, ?, ?)
			 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated`, key, value, now)
		return err
	})
}

// PruneState deletes the state keys that start with prefix, except the
// keep most recently set ones, and returns how many it deleted. It is for
// keys an adapter writes per event ("matrix/again/<event id>"), which
// would otherwise grow without bound. An empty prefix is refused: it
// would reach every adapter's offsets and tokens.
func (db *DB) PruneState(ctx context.Context, prefix string, keep int) (int, error) {
	if prefix == "" {
		return 0, errors.New("sqlite: prune state: empty prefix")
	}
	keep = max(keep, 0)
	var n int64
	err := db.write(ctx, fmt.Sprintf("prune state %q", prefix), func(tx *sql.Tx) error {
		// substr(...) = prefix selects the prefix's keys; key >= prefix lets
		// the primary key index skip the keys before them.
		res, err := tx.ExecContext(ctx,
			`DELETE FROM platform_state
			  WHERE key >= ?1 AND substr(key, 1, length(?1)) = ?1
			    AND key NOT IN (SELECT key FROM platform_state
			                     WHERE key >= ?1 AND substr(key, 1, length(?1)) = ?1
			                     ORDER BY updated DESC, key DESC LIMIT ?2)`, prefix, keep)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// SetStateNoSync stores value under key as SetState does, but its commit
// is not fsynced (synchronous=NORMAL for this one transaction): it
// survives the death of the process (kill -9, a panic, the OOM killer;
// TestCrashKill9), and an OS crash or power loss only if a later commit's
// fsync came first, as every synced commit also syncs the write-ahead log
// before it. It is for records that must outlive a crash of the bot but
// are made durable by the synced write that always follows them (a
// Telegram reply's button record, written before the journal write that
// precedes the send) or whose loss at a power cut costs nothing a user
// sees (the work mark that counts crashes). It saves an fsync, which on a
// loaded disk is most of a write's time.
func (db *DB) SetStateNoSync(ctx context.Context, key, value string) error {
	now := nanos(db.now())
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlite: set state %q: %w", key, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = NORMAL`); err != nil {
		return fmt.Errorf("sqlite: set state %q: %w", key, err)
	}
	_, werr := conn.ExecContext(ctx,
		`INSERT INTO platform_state (key, value, updated) VALUES (?, ?, ?)
		 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated`, key, value, now)
	// Back to the connection's own setting whatever happened: every other
	// write counts on it. A connection that cannot be set back is
	// dropped from the pool (the next one opens with its DSN's setting).
	if err := restoreSync(context.WithoutCancel(ctx), conn, db.sync); err != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return errors.Join(fmt.Errorf("sqlite: set state %q: restore synchronous: %w", key, err), werr)
	}
	if werr != nil {
		return fmt.Errorf("sqlite: set state %q: %w", key, werr)
	}
	return nil
}

// restoreSync sets conn back to mode, a synchronous setting a DB is opened
// with (FULL in production; tests vary it), in constant SQL only.
func restoreSync(ctx context.Context, conn *sql.Conn, mode string) error {
	var err error
	switch mode {
	case "NORMAL":
		_, err = conn.ExecContext(ctx, `PRAGMA synchronous = NORMAL`)
	case "EXTRA":
		_, err = conn.ExecContext(ctx, `PRAGMA synchronous = EXTRA`)
	case "OFF":
		_, err = conn.ExecContext(ctx, `PRAGMA synchronous = OFF`)
	default:
		_, err = conn.ExecContext(ctx, `PRAGMA synchronous = FULL`)
	}
	return err
}
