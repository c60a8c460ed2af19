package sqlite

import (
	"testing"

	"zaria/core/systems/fork"
	"zaria/storage/storagetest"
)

func TestForks(t *testing.T) {
	storagetest.RunForks(t, func(t *testing.T) fork.Store { return openTemp(t) })
}
