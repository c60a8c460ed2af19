package core

import "errors"

// Sentinel errors a store returns (possibly wrapped; test with errors.Is).
// Every store of the core's packages (sheets, GMs, saved rolls, import)
// uses these, so that one storage implementation answers them all alike.
var (
	// ErrNotFound: no such character, saved roll or GM in this chat.
	ErrNotFound = errors.New("not found")
	// ErrExists: the name (by key) is already taken in this chat.
	ErrExists = errors.New("already exists")
	// ErrQuota: a per-chat or per-user limit given by the caller is reached.
	ErrQuota = errors.New("quota reached")
)
