package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/dice"
	"zaria/core/reply"
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
	r, err := newRouter(lang, nil, "", db, logger)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// sender types text into chat as Ana (client language lang) with dice
// seeded 1, and returns the reply as plain text.
func sender(t *testing.T, r *command.Router, chat core.ChatRef, lang string) func(text string) string {
	return func(text string) string {
		t.Helper()
		rep, ok := r.DispatchWith(context.Background(), core.Message{Chat: chat, From: core.User{ID: "u1", Name: "Ana"}, Text: text, LangHint: lang}, dice.Seeded(1))
		if !ok {
			t.Fatalf("%q not answered", text)
		}
		return reply.PlainText(rep)
	}
}
