package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"zaria/core"
	"zaria/core/deck"
)

type deckScanner interface{ Scan(dest ...any) error }

func scanDeck(row deckScanner, d *deck.Deck) error {
	var cards, drawn string
	var updated int64
	if err := row.Scan(&d.Key, &d.Name, &d.Kind, &cards, &drawn, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(cards), &d.Cards); err != nil {
		return fmt.Errorf("deck %q: cards: %w", d.Key, err)
	}
	if err := json.Unmarshal([]byte(drawn), &d.Drawn); err != nil {
		return fmt.Errorf("deck %q: drawn: %w", d.Key, err)
	}
	d.Updated = fromNanos(updated)
	return nil
}

// saveDeck writes d in tx, in the chat of row id.
func (db *DB) saveDeck(ctx context.Context, tx *sql.Tx, id int64, d deck.Deck) error {
	if d.Updated.IsZero() {
		d.Updated = db.now()
	}
	if d.Cards == nil {
		d.Cards = []string{}
	}
	if d.Drawn == nil {
		d.Drawn = []int{}
	}
	cards, err := json.Marshal(d.Cards)
	if err != nil {
		return err
	}
	drawn, err := json.Marshal(d.Drawn)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO decks (chat, key, name, kind, cards, drawn, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
		 ON CONFLICT (chat, key) DO UPDATE SET name = excluded.name, kind = excluded.kind, cards = excluded.cards,
		   drawn = excluded.drawn, updated = excluded.updated`,
		id, d.Key, d.Name, d.Kind, string(cards), string(drawn), nanos(d.Updated))
	return err
}

// SaveDeck creates or replaces the deck d.Key of chat; a new GM's deck
// beyond max (max > 0) is refused with core.ErrQuota.
func (db *DB) SaveDeck(ctx context.Context, chat core.ChatRef, d deck.Deck, max int) error {
	return db.write(ctx, fmt.Sprintf("save deck %q in %s", d.Key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		if max > 0 && d.Kind == "" {
			var exists bool
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT coalesce(sum(key = ?), 0) > 0, count(*) FROM decks WHERE chat = ? AND kind = ''`, d.Key, id).Scan(&exists, &n); err != nil {
				return err
			}
			if !exists && n >= max {
				return fmt.Errorf("%d decks: %w", n, core.ErrQuota)
			}
		}
		return db.saveDeck(ctx, tx, id, d)
	})
}

const deckColumns = `d.key, d.name, d.kind, d.cards, d.drawn, d.updated`

// Deck returns the deck key of chat, or core.ErrNotFound.
func (db *DB) Deck(ctx context.Context, chat core.ChatRef, key string) (deck.Deck, error) {
	var d deck.Deck
	err := scanDeck(db.r.QueryRowContext(ctx,
		`SELECT `+deckColumns+` FROM decks d JOIN chats c ON c.id = d.chat
		  WHERE c.platform = ? AND c.chat_id = ? AND d.key = ?`, chat.Platform, chat.ID, key), &d)
	if errors.Is(err, sql.ErrNoRows) {
		return deck.Deck{}, fmt.Errorf("sqlite: deck %q in %s: %w", key, chat, core.ErrNotFound)
	}
	if err != nil {
		return deck.Deck{}, fmt.Errorf("sqlite: deck %q in %s: %w", key, chat, err)
	}
	return d, nil
}

// ListDecks returns the chat's decks ordered by key.
func (db *DB) ListDecks(ctx context.Context, chat core.ChatRef) ([]deck.Deck, error) {
	rows, err := db.r.QueryContext(ctx,
		`SELECT `+deckColumns+` FROM decks d JOIN chats c ON c.id = d.chat
		  WHERE c.platform = ? AND c.chat_id = ? ORDER BY d.key`, chat.Platform, chat.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: decks of %s: %w", chat, err)
	}
	defer rows.Close()
	var out []deck.Deck
	for rows.Next() {
		var d deck.Deck
		if err := scanDeck(rows, &d); err != nil {
			return nil, fmt.Errorf("sqlite: decks of %s: %w", chat, err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: decks of %s: %w", chat, err)
	}
	return out, nil
}

// UpdateDeck reads, changes with fn and saves the deck key, in one write
// transaction.
func (db *DB) UpdateDeck(ctx context.Context, chat core.ChatRef, key string, create bool, fn func(*deck.Deck) error) error {
	return db.write(ctx, fmt.Sprintf("update deck %q in %s", key, chat), func(tx *sql.Tx) error {
		id, err := chatID(ctx, tx, chat)
		if err != nil {
			return err
		}
		var d deck.Deck
		err = scanDeck(tx.QueryRowContext(ctx, `SELECT `+deckColumns+` FROM decks d WHERE d.chat = ? AND d.key = ?`, id, key), &d)
		switch {
		case errors.Is(err, sql.ErrNoRows) && create:
			d = deck.Deck{Key: key}
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("deck %q: %w", key, core.ErrNotFound)
		case err != nil:
			return err
		}
		if err := fn(&d); err != nil {
			return err
		}
		d.Key = key
		return db.saveDeck(ctx, tx, id, d)
	})
}

// DeleteDeck removes the deck key of chat.
func (db *DB) DeleteDeck(ctx context.Context, chat core.ChatRef, key string) error {
	return db.write(ctx, fmt.Sprintf("delete deck %q in %s", key, chat), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM decks WHERE key = ? AND chat = (SELECT id FROM chats WHERE platform = ? AND chat_id = ?)`,
			key, chat.Platform, chat.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("deck %q: %w", key, core.ErrNotFound)
		}
		return nil
	})
}
