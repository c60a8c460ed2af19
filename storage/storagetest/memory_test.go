package storagetest_test

import (
	"testing"

	"zaria/core/initiative"
	"zaria/core/pad"
	"zaria/storage/memory"
	"zaria/storage/storagetest"
)

// The in-memory settings store keeps the same settings contract as SQLite.
func TestMemorySettings(t *testing.T) {
	storagetest.RunSettings(t, func(t *testing.T) storagetest.SettingsChanger { return memory.New() })
}

func TestMemorySettingsChanges(t *testing.T) {
	storagetest.RunSettingsChanges(t, func(t *testing.T) storagetest.SettingsChanger { return memory.New() })
}

func TestMemoryPads(t *testing.T) {
	storagetest.RunPads(t, func(t *testing.T) pad.Store { return memory.New() })
}

func TestMemoryInitiative(t *testing.T) {
	storagetest.RunInitiative(t, func(t *testing.T) initiative.Store { return memory.New() })
}
