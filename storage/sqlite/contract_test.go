package sqlite

import (
	"testing"

	"zaria/storage/storagetest"
)

// TestContract runs the store contract against a real database file per
// sub-test.
func TestContract(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storagetest.Store { return openTemp(t) })
}
