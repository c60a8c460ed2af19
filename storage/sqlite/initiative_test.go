package sqlite

import (
	"testing"

	"zaria/core/initiative"
	"zaria/storage/storagetest"
)

func TestInitiativeContract(t *testing.T) {
	storagetest.RunInitiative(t, func(t *testing.T) initiative.Store { return openTemp(t) })
}
