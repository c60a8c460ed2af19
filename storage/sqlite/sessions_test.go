package sqlite

import (
	"testing"

	"zaria/core/session"
	"zaria/storage/storagetest"
)

// TestSessionsContract runs the sessions' contract on a real file.
func TestSessionsContract(t *testing.T) {
	storagetest.RunSessions(t, func(t *testing.T) session.Store { return openTemp(t) })
}
