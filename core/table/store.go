package table

import (
	"context"
	"time"

	"zaria/core"
)

// Table is a chat's random table: a name, the dice rolled on it and its
// rows, each the range of totals that picks it.
type Table struct {
	Name    string // as typed: "Encuentros"
	Key     string // fold.Key(Name)
	Dice    Dice
	Rows    []Row // ordered by Lo, covering every total of Dice once
	Updated time.Time
}

// Row is one line of a table: the totals Lo..Hi pick Text.
type Row struct {
	Lo, Hi int
	Text   string
}

// Store keeps the chat's random tables. Every write is one transaction.
type Store interface {
	// SaveTable creates or replaces the table t.Key of chat.
	// core.ErrQuota when it is new and the chat already has max tables
	// (max ≤ 0: no limit).
	SaveTable(ctx context.Context, chat core.ChatRef, t Table, max int) error
	// Table returns the table key of chat, or core.ErrNotFound.
	Table(ctx context.Context, chat core.ChatRef, key string) (Table, error)
	// ListTables returns the chat's tables ordered by Key.
	ListTables(ctx context.Context, chat core.ChatRef) ([]Table, error)
	// RenameTable gives the table oldKey the name t.Name and key t.Key
	// (its rows stay). core.ErrNotFound when oldKey is absent,
	// core.ErrExists when another table has t.Key.
	RenameTable(ctx context.Context, chat core.ChatRef, oldKey string, t Table) error
	// DeleteTable removes the table key; core.ErrNotFound if absent.
	DeleteTable(ctx context.Context, chat core.ChatRef, key string) error
}
