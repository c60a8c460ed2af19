package history

import (
	"context"
	"time"

	"zaria/core"
)

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
	// Total is the roll's total (reply.Check.Total), nil when it has
	// none: the result the history's picture marks.
	Total *int
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

// Store keeps the chat's roll history.
type Store interface {
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
