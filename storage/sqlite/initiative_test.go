package sqlite

import (
	"testing"

	"zaria/core/initiative"
	"zaria/core/sheet"
	"zaria/storage/storagetest"
)

func TestInitiativeContract(t *testing.T) {
	storagetest.RunInitiative(t, func(t *testing.T) initiative.Store { return openTemp(t) })
}

func TestUndoContract(t *testing.T) {
	storagetest.RunUndo(t, func(t *testing.T) sheet.UndoStore { return openTemp(t) })
}
