package sheet

import (
	"context"
	"time"

	"zaria/core"
)

// Value is one named entry of a sheet: a stat or skill ("Fuerza" = "4"), a
// piece of equipment ("Arma" = "espada-larga") or equipment state
// ("Uso arma" = "d6"). Numbers are kept as their decimal text; the core
// decides whether a value is numeric when a roll reads it.
type Value struct {
	Name string // display name as the user typed it: "Fuerza", "Δύναμη"
	Key  string // fold.Key(Name): "fuerza", "δυναμη"; unique within a sheet
	Text string // the value: "4", "-1", "espada-larga", "d8"
}

// Character is one character sheet of one chat.
//
// Dungeon Hack equipment and its state are ordinary values with names
// the dungeonhack package reserves (dungeonhack.SheetWeapon…): "arma",
// "armadura", "uso arma", "uso armadura", "db", "db rotos", "dado db".
// Systems read and write them through command.Sheets, so stores need
// nothing special for them.
type Character struct {
	ID        int64        // assigned by the store, unique per store
	Chat      core.ChatRef // the chat it belongs to
	Owner     string       // user id of the owner (core.User.ID)
	OwnerName string       // owner's display name when created or last edited
	Name      string       // display name: "Drake"
	Key       string       // fold.Key(Name); unique within the chat
	System    string       // a sheet system's key (engine.SheetSystems: "zaria", "coc" …) or "" (none chosen)
	Values    []Value      // in the order they were first set
	// Active is true when this is its owner's active character in the chat
	// (the one "/pj" and rolls without a name use). Stores fill it on reads
	// and honour it on ReplaceChat; other writes ignore it.
	Active  bool
	Created time.Time
	Updated time.Time
}

// Store keeps the chat's character sheets.
type Store interface {
	// CreateCharacter inserts c into chat (c.Chat is ignored and set to
	// chat) and makes it its owner's active character, in one transaction.
	// It returns the stored character with ID, Created and Updated set.
	// core.ErrExists if a character of the chat has the same Key; core.ErrQuota if
	// c.Owner already owns q.PerOwner characters in the chat or the chat
	// already has q.PerChat characters (a zero field is no limit).
	CreateCharacter(ctx context.Context, chat core.ChatRef, c Character, q Quota) (Character, error)

	// Character returns the chat's character whose Key is key, or core.ErrNotFound.
	Character(ctx context.Context, chat core.ChatRef, key string) (Character, error)

	// ActiveCharacter returns userID's active character in chat, or
	// core.ErrNotFound when the user has none.
	ActiveCharacter(ctx context.Context, chat core.ChatRef, userID string) (Character, error)

	// ListCharacters returns every character of chat, ordered by Key.
	ListCharacters(ctx context.Context, chat core.ChatRef) ([]Character, error)

	// EditCharacter changes the character id of chat in one write
	// transaction that holds the database's write lock from its first
	// statement (BEGIN IMMEDIATE in SQLite): it reads the character as it is
	// now, calls edit with it, and stores what edit left in Name, Key,
	// System, OwnerName, Updated and Values (ID, Chat, Owner, Created and
	// Active are not changed). Nothing is written when edit returns an
	// error, which EditCharacter returns as it is. It returns the character
	// as stored. core.ErrNotFound if chat has no character id; core.ErrExists if the
	// new Key belongs to another character of the chat.
	//
	// This is the only way to change a sheet: an edit never writes back a
	// copy read earlier, so two writers (two messages, or the bot and a
	// `zaria roll` beside it) never lose each other's change. edit must be
	// quick and must not call the store.
	EditCharacter(ctx context.Context, chat core.ChatRef, id int64, edit func(c *Character) error) (Character, error)

	// DeleteCharacter removes the character id of chat (and any active
	// selection pointing to it). core.ErrNotFound if chat has no character id.
	DeleteCharacter(ctx context.Context, chat core.ChatRef, id int64) error

	// SetActive makes character id of chat the active character of userID,
	// replacing any previous one. core.ErrNotFound if chat has no character id
	// owned by userID.
	SetActive(ctx context.Context, chat core.ChatRef, userID string, id int64) error
}

// Quota bounds what CreateCharacter may add; zero fields mean no limit.
type Quota struct {
	PerOwner int // characters one owner may have in the chat
	PerChat  int // characters the chat may have
}
