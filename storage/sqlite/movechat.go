package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"zaria/core"
)

// MoveChat moves everything stored for chat from to chat to, in one
// transaction: settings and options, named GMs, characters with their
// values and each user's active one, saved rolls, the turn order, the requests for a roll, the roll history and its face counts (/stats), the chat's forks of the systems (/sistema). It
// also sets the given platform state keys in the same transaction (an
// adapter's record that from now resolves to to), so a crash leaves
// either all of it or none.
//
// It is idempotent: when from holds nothing (never used, or moved
// already) only the state keys are written and moved is false. When to
// already holds data (someone used the new chat before the move), the two
// are merged: to keeps its own settings, GMs, aliases and characters where
// both have one with the same key; everything else of from joins it; the
// history of both is kept. Telegram uses it when a group becomes a
// supergroup (TestMoveChat*).
func (db *DB) MoveChat(ctx context.Context, from, to core.ChatRef, state map[string]string) (moved bool, err error) {
	if from == to {
		return false, nil
	}
	now := nanos(db.now())
	err = db.write(ctx, fmt.Sprintf("move chat %s to %s", from, to), func(tx *sql.Tx) error {
		for k, v := range state {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO platform_state (key, value, updated) VALUES (?, ?, ?)
				 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated`, k, v, now); err != nil {
				return err
			}
		}
		oldID, ok, err := existingChatID(ctx, tx, from)
		if err != nil || !ok {
			return err
		}
		moved = true
		newID, ok, err := existingChatID(ctx, tx, to)
		if err != nil {
			return err
		}
		if !ok {
			// Every row refers to the chat by its row id: renaming the
			// chat moves them all.
			_, err := tx.ExecContext(ctx, `UPDATE chats SET platform = ?, chat_id = ? WHERE id = ?`, to.Platform, to.ID, oldID)
			return err
		}
		// Merge. Characters change chat while active rows still point at
		// (old chat, character): check the foreign keys at commit.
		if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE chats SET lang = (SELECT lang FROM chats WHERE id = ?1) WHERE id = ?2 AND lang = ''`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO chat_options (chat, key, value) SELECT ?2, key, value FROM chat_options WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO gms (chat, user_id, name, added) SELECT ?2, user_id, name, added FROM gms WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO aliases (chat, user_id, key, name, text, created)
			   SELECT ?2, user_id, key, name, text, created FROM aliases WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rolls SET chat = ?2 WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		// The history's face and size counts (what /stats reads) follow
		// it: the counts of both chats add up.
		if _, err := tx.ExecContext(ctx, `INSERT INTO face_counts (chat, sides, face, n)
			   SELECT ?2, sides, face, n FROM face_counts WHERE chat = ?1
			   ON CONFLICT (chat, sides, face) DO UPDATE SET n = n + excluded.n`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO size_counts (chat, sides, n)
			   SELECT ?2, sides, n FROM size_counts WHERE chat = ?1
			   ON CONFLICT (chat, sides) DO UPDATE SET n = n + excluded.n`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM face_counts WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM size_counts WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		// Sessions move, unless the new chat has one open.
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET chat = ?2 WHERE chat = ?1 AND (ended != 0 OR NOT EXISTS (SELECT 1 FROM sessions WHERE chat = ?2 AND ended = 0))`, oldID, newID); err != nil {
			return err
		}
		// Random tables and decks move, unless the new chat has one of the same name.
		if _, err := tx.ExecContext(ctx, `UPDATE decks SET chat = ?2 WHERE chat = ?1 AND key NOT IN (SELECT key FROM decks WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE random_tables SET chat = ?2 WHERE chat = ?1 AND key NOT IN (SELECT key FROM random_tables WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		// A chat's forks and own systems (/sistema) move, unless the new
		// chat has one of the same key.
		if _, err := tx.ExecContext(ctx, `UPDATE system_forks SET chat = ?2 WHERE chat = ?1 AND key NOT IN (SELECT key FROM system_forks WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		// A pad moves whole, unless its owner already has one in the new chat.
		if _, err := tx.ExecContext(ctx, `UPDATE pad_buttons SET chat = ?2 WHERE chat = ?1 AND owner NOT IN (SELECT owner FROM pad_buttons WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		// Requests for a roll move: their buttons work in the new chat.
		if _, err := tx.ExecContext(ctx, `UPDATE ask_requests SET chat = ?2 WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		// The turn order moves unless the new chat has one of its own.
		if _, err := tx.ExecContext(ctx, `UPDATE initiative SET chat = ?2 WHERE chat = ?1 AND NOT EXISTS (SELECT 1 FROM initiative WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE characters SET chat = ?2 WHERE chat = ?1 AND key NOT IN (SELECT key FROM characters WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO active (chat, user_id, character)
			   SELECT ?2, user_id, character FROM active WHERE chat = ?1
			      AND character IN (SELECT id FROM characters WHERE chat = ?2)`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM active WHERE chat = ?1`, oldID, newID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM chats WHERE id = ?1`, oldID, newID); err != nil {
			return err
		}
		return nil
	})
	return moved, err
}
