package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"zaria/core"
	"zaria/core/pad"
	"zaria/storage/storagetest"
)

// TestPadsContract runs the pad contract against a real database file.
func TestPadsContract(t *testing.T) {
	storagetest.RunPads(t, func(t *testing.T) pad.Store { return openTemp(t) })
}

// A pad survives closing and reopening the database, and goes with its
// chat when the chat's row is deleted.
func TestPadsSurviveReopenAndCascade(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pads.db")
	chat := core.ChatRef{Platform: "telegram", ID: "-9"}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.AddPadButton(ctx, chat, "u1", pad.Button{Label: "Ataque", Command: "/zaria fuerza+atletismo dc15"}, 25)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	owner, got, err := db.PadButton(ctx, chat, b.ID)
	if err != nil || owner != "u1" || got != b {
		t.Fatalf("after reopening: %q %+v %v, want %+v", owner, got, err, b)
	}
	if _, err := db.w.ExecContext(ctx, `DELETE FROM chats WHERE platform = ? AND chat_id = ?`, chat.Platform, chat.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM pad_buttons`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d buttons left after deleting their chat (%v)", n, err)
	}
}
