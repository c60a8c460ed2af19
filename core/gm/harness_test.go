package gm_test

import (
	"strconv"
	"testing"

	"zaria/internal/chattest"
)

// The character commands over SQLite (internal/chattest), under the names
// the tests use.
type harness = chattest.Harness

var (
	chatA, chatB, chatC = chattest.ChatA, chattest.ChatB, chattest.ChatC
	ana, bob, admin     = chattest.Ana, chattest.Bob, chattest.Admin
)

func newHarness(tb testing.TB, lim chattest.Limits) *harness { return chattest.New(tb, lim) }

func contains(t *testing.T, out string, want ...string) {
	t.Helper()
	chattest.Contains(t, out, want...)
}

func lacks(t *testing.T, out string, bad ...string) {
	t.Helper()
	chattest.Lacks(t, out, bad...)
}

func itoa(n int) string { return strconv.Itoa(n) }
