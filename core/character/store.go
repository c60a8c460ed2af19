// Package character holds the per-chat character model, the store
// interfaces the character commands need, and the chat commands of
// characters, GMs, roll history, export/import and saved rolls (aliases).
//
// The interfaces below are declared here, where they are used, and
// implemented by storage (storage/sqlite). Every method takes the chat, and
// a store must never return or change anything of another chat: the chat is
// part of every key and of every WHERE clause.
//
// Names (characters, values, aliases) are matched case- and
// accent-insensitively: the core computes the key with fold.Key and hands
// it to the store, which compares keys byte for byte and never folds
// anything itself.
package character

import (
	"context"
	"errors"
	"time"

	"zaria/core"
)

// Sentinel errors a store returns (possibly wrapped; test with errors.Is).
var (
	// ErrNotFound: no such character, alias or GM in this chat.
	ErrNotFound = errors.New("character: not found")
	// ErrExists: the name (by key) is already taken in this chat.
	ErrExists = errors.New("character: already exists")
	// ErrQuota: a per-chat or per-user limit given by the caller is reached.
	ErrQuota = errors.New("character: quota reached")
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
// Dungeon Hack equipment and its state are ordinary values with reserved
// keys (see dungeonhack.go): "arma", "armadura", "uso arma", "uso armadura",
// "db", "db rotos", "db dado". Systems read and write them through
// command.Sheets, so stores need nothing special for them.
type Character struct {
	ID        int64        // assigned by the store, unique per store
	Chat      core.ChatRef // the chat it belongs to
	Owner     string       // user id of the owner (core.User.ID)
	OwnerName string       // owner's display name when created or last edited
	Name      string       // display name: "Drake"
	Key       string       // fold.Key(Name); unique within the chat
	System    string       // "zaria", "daegon", "dh", "kh", "rq" or "" (none chosen)
	Values    []Value      // in the order they were first set
	// Active is true when this is its owner's active character in the chat
	// (the one "/pj" and rolls without a name use). Stores fill it on reads
	// and honour it on ReplaceChat; other writes ignore it.
	Active  bool
	Created time.Time
	Updated time.Time
}

// Characters stores the chat's character sheets.
type Characters interface {
	// CreateCharacter inserts c into chat (c.Chat is ignored and set to
	// chat) and makes it its owner's active character, in one transaction.
	// It returns the stored character with ID, Created and Updated set.
	// ErrExists if a character of the chat has the same Key; ErrQuota if
	// c.Owner already owns q.PerOwner characters in the chat or the chat
	// already has q.PerChat characters (a zero field is no limit).
	CreateCharacter(ctx context.Context, chat core.ChatRef, c Character, q Quota) (Character, error)

	// Character returns the chat's character whose Key is key, or ErrNotFound.
	Character(ctx context.Context, chat core.ChatRef, key string) (Character, error)

	// ActiveCharacter returns userID's active character in chat, or
	// ErrNotFound when the user has none.
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
	// as stored. ErrNotFound if chat has no character id; ErrExists if the
	// new Key belongs to another character of the chat.
	//
	// This is the only way to change a sheet: an edit never writes back a
	// copy read earlier, so two writers (two messages, or the bot and a
	// `zaria roll` beside it) never lose each other's change. edit must be
	// quick and must not call the store.
	EditCharacter(ctx context.Context, chat core.ChatRef, id int64, edit func(c *Character) error) (Character, error)

	// DeleteCharacter removes the character id of chat (and any active
	// selection pointing to it). ErrNotFound if chat has no character id.
	DeleteCharacter(ctx context.Context, chat core.ChatRef, id int64) error

	// SetActive makes character id of chat the active character of userID,
	// replacing any previous one. ErrNotFound if chat has no character id
	// owned by userID.
	SetActive(ctx context.Context, chat core.ChatRef, userID string, id int64) error
}

// Quota bounds what CreateCharacter may add; zero fields mean no limit.
type Quota struct {
	PerOwner int // characters one owner may have in the chat
	PerChat  int // characters the chat may have
}

// GM is a user named game master of a chat with /gm add. Chat admins are
// GMs without being stored (the adapter says so in core.Message.FromGM).
type GM struct {
	UserID string // core.User.ID
	Name   string // display name when added
	Added  time.Time
}

// GMs stores the chat's named GMs. It satisfies command.GMStore.
type GMs interface {
	// AddGM names gm.UserID GM of chat, in one write transaction that
	// checks the quota. Adding an existing GM updates the name, is not an
	// error and returns added=false. ErrQuota when the user is not a GM yet
	// and the chat already has max GMs (max ≤ 0 is no limit).
	AddGM(ctx context.Context, chat core.ChatRef, gm GM, max int) (added bool, err error)
	// RemoveGM removes userID from the chat's GMs; ErrNotFound if absent.
	RemoveGM(ctx context.Context, chat core.ChatRef, userID string) error
	// ListGMs returns the chat's GMs ordered by Added.
	ListGMs(ctx context.Context, chat core.ChatRef) ([]GM, error)
	// IsGM reports whether userID was named GM of chat.
	IsGM(ctx context.Context, chat core.ChatRef, userID string) (bool, error)
}

// Roll is one logged roll of a chat.
type Roll struct {
	ID       int64 // assigned by the store, increasing
	Chat     core.ChatRef
	UserID   string
	UserName string
	Command  string // normalized command: "/zaria fuerza+atletismo dc15"
	Dice     []int  // every die result, in order
	// Sides[i] is the number of faces of Dice[i]; 0 (or a missing entry)
	// means unknown and the die is left out of the fairness report.
	Sides  []int
	Result string // rendered reply text; the core cuts it to 300 characters
	Time   time.Time
}

// UserCount is how many rolls a user made in a chat's kept history.
type UserCount struct {
	UserID   string
	UserName string // the most recent name logged for UserID
	Rolls    int
}

// FaceCount is how often a face came up on dice of a size in a chat's kept
// history.
type FaceCount struct {
	Sides int // die size, ≥ 1
	Face  int // 1..Sides
	Count int // > 0
}

// SizeCount is how many dice of one size a chat's kept history holds, with
// the counts of the faces that came up, by face.
type SizeCount struct {
	Sides int
	N     int
	Faces []FaceCount
}

// RollLog stores the chat's roll history.
type RollLog interface {
	// AppendRoll logs r (ID is assigned) and then deletes the chat's oldest
	// rolls beyond the newest keep, in one transaction.
	AppendRoll(ctx context.Context, r Roll, keep int) error
	// LastRolls returns up to n of the chat's rolls, newest first.
	LastRolls(ctx context.Context, chat core.ChatRef, n int) ([]Roll, error)
	// RollCounts returns the number of kept rolls per user, most rolls first
	// (ties by UserID).
	RollCounts(ctx context.Context, chat core.ChatRef) ([]UserCount, error)
	// FaceCounts returns, over the chat's kept rolls, how often each face of
	// each die size came up (only dice with a known size, 1 ≤ face ≤ sides),
	// ordered by Sides then Face. Faces never rolled are omitted.
	FaceCounts(ctx context.Context, chat core.ChatRef) ([]FaceCount, error)
	// DieStats returns the n die sizes (of 2 faces or more) of the kept
	// rolls with the most dice
	// (ties: the smaller size first), each with its FaceCounts, and how
	// many sizes it left out, from one snapshot. Its cost is one row per
	// die size plus the faces of the n sizes returned, whatever the number
	// of rolls or dice: it is what /stats reads.
	DieStats(ctx context.Context, chat core.ChatRef, n int) (sizes []SizeCount, more int, err error)
}

// Alias is a saved roll: /alias ataque /dh ataque espada-larga vs {1}.
type Alias struct {
	UserID  string // owner; "" for an alias of the whole chat (made by a GM)
	Name    string // as typed: "ataque"
	Key     string // fold.Key(Name)
	Text    string // the command it stands for, with {1}, {2}… and {*}
	Created time.Time
}

// Aliases stores saved rolls, per user of a chat or for the whole chat.
type Aliases interface {
	// SetAlias creates or replaces the alias (a.UserID, a.Key) of chat.
	// ErrQuota when it is new and its owner (the user, or the chat when
	// UserID is "") already has max aliases in the chat.
	SetAlias(ctx context.Context, chat core.ChatRef, a Alias, max int) error
	// Alias returns the alias key of userID in chat ("" = the chat's), or
	// ErrNotFound. It does not fall back from the user to the chat.
	Alias(ctx context.Context, chat core.ChatRef, userID, key string) (Alias, error)
	// ListAliases returns the aliases of userID in chat ("" = the chat's),
	// ordered by Key.
	ListAliases(ctx context.Context, chat core.ChatRef, userID string) ([]Alias, error)
	// DeleteAlias removes the alias key of userID ("" = the chat's);
	// ErrNotFound if absent.
	DeleteAlias(ctx context.Context, chat core.ChatRef, userID, key string) error
}

// ChatData is what /exportar writes and /importar restores.
type ChatData struct {
	Settings   core.Settings
	Characters []Character // Active marks each owner's active character
}

// ErrWouldDelete: an import without mayDelete would remove characters of
// the chat that the document lacks.
var ErrWouldDelete = errors.New("character: import would delete characters")

// Importer replaces a chat's data in one transaction.
type Importer interface {
	// ReplaceChat deletes every character (and active selection) of chat,
	// inserts d.Characters into chat (their ID and Chat are ignored; new IDs
	// are assigned; Created/Updated are kept when set), restores the active
	// selections from Character.Active, and replaces the chat's settings with
	// d.Settings, all or nothing, in one write transaction that holds the
	// write lock from its start. GMs, aliases and history are not touched.
	//
	// It returns the names of the chat's characters that were deleted
	// because d has no character of their Key. When there are some and
	// mayDelete is false, nothing is changed and the error is
	// ErrWouldDelete (with the names returned): the check and the write see
	// the same data, so a character created meanwhile is never lost
	// silently.
	ReplaceChat(ctx context.Context, chat core.ChatRef, d ChatData, mayDelete bool) (deleted []string, err error)
}

// Store is everything the character commands need; storage/sqlite
// implements it all. Tests and main pass one value for every part.
type Store interface {
	Characters
	GMs
	RollLog
	Aliases
	Importer
}
