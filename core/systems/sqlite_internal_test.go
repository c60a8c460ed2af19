package systems

import (
	"context"
	"path/filepath"
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
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "zaria.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	return db, chattest.NewServices(db, opt), cat
}
