package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"zaria/core/command"
)

// testRouter is the router zaria serves with, on a fresh database file,
// logging to logger (nil: nowhere).
func testRouter(tb testing.TB, lang string, logger *slog.Logger) *command.Router {
	tb.Helper()
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	db, err := openDB(context.Background(), filepath.Join(tb.TempDir(), "zaria.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	r, err := newRouter(lang, db, logger)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
