package sqlite

import (
	"testing"

	"zaria/core/table"
	"zaria/storage/storagetest"
)

// TestTablesContract runs the random tables' contract on a real file.
func TestTablesContract(t *testing.T) {
	storagetest.RunTables(t, func(t *testing.T) table.Store { return openTemp(t) })
}
