package systems

import (
	"testing"

	"zaria/i18n"
	"zaria/internal/chattest"
	"zaria/storage/sqlite"
)

// ServicesForTest are the chat services with opt on a SQLite file in t's
// temporary folder, closed when the test ends, and the real catalogs:
// what the tests' SQLite routers start from, each with its own
// command.Config (exported for the systems_test package).
func ServicesForTest(t testing.TB, opt chattest.Options) (*sqlite.DB, chattest.Services, *i18n.Catalog) {
	t.Helper()
	db := chattest.OpenDB(t, "")
	return db, chattest.NewServices(db, opt), chattest.Catalog(t)
}
