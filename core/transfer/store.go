package transfer

import (
	"context"
	"errors"

	"zaria/core"
	"zaria/core/deck"
	"zaria/core/initiative"
	"zaria/core/sheet"
	"zaria/core/systems/fork"
	"zaria/core/table"
)

// ChatData is what /exportar writes and /importar restores.
type ChatData struct {
	Settings   core.Settings
	Characters []sheet.Character // Active marks each owner's active character
	// Pads replace the chat's pads when not nil (a document of version 1
	// has none, and leaves the pads as they are).
	Pads []Pad
	// Tables and Decks replace the chat's random tables and decks of the
	// same name when not nil (a document without them, as before they
	// existed, leaves them as they are); with mayDelete, every other one goes.
	Tables []table.Table
	Decks  []deck.Deck
	// Initiative replaces the chat's turn order when not nil (a document
	// without one leaves the chat's as it is).
	Initiative *initiative.Order
	// Systems replace the chat's forks and own systems of the same key
	// when not nil (a document without them leaves them); with
	// mayDelete, every other one goes.
	Systems []fork.Fork
}

// GMToolsLister lists a chat's random tables and decks, for the export.
type GMToolsLister interface {
	ListTables(ctx context.Context, chat core.ChatRef) ([]table.Table, error)
	ListDecks(ctx context.Context, chat core.ChatRef) ([]deck.Deck, error)
}

// Pad is one pad of the chat: Owner's ("" = the chat's), its buttons in
// order.
type Pad struct {
	Owner   string
	Buttons []PadButton
}

// PadButton is what a pad's button shows and runs.
type PadButton struct {
	Label, Command string
}

// PadLister lists every pad of a chat, for the export.
type PadLister interface {
	ChatPads(ctx context.Context, chat core.ChatRef) ([]Pad, error)
}

// InitiativeReader reads the chat's turn order, for the export
// (initiative.Store).
type InitiativeReader interface {
	Initiative(ctx context.Context, chat core.ChatRef) (initiative.Order, error)
}

// ErrWouldDelete: an import without mayDelete would remove characters of
// the chat that the document lacks.
var ErrWouldDelete = errors.New("import would delete characters")

// Importer replaces a chat's data in one transaction.
type Importer interface {
	// ReplaceChat deletes every character (and active selection) of chat,
	// inserts the characters src hands it (their ID and Chat are ignored;
	// new IDs are assigned; Created/Updated are kept when set), restores
	// the active selections from Character.Active, and replaces the chat's
	// settings with src's (and its pads with src's when they are not nil),
	// all or nothing, in one write transaction that holds the write lock
	// from its start. GMs, aliases and history are not touched. When src
	// ends with an error (the document failed a check), nothing is changed
	// and that error is returned.
	//
	// It returns the names of the chat's characters that were deleted
	// because src has no character of their Key. When there are some and
	// mayDelete is false, nothing is changed and the error is
	// ErrWouldDelete (with the names returned): the check and the write see
	// the same data, so a character created meanwhile is never lost
	// silently.
	ReplaceChat(ctx context.Context, chat core.ChatRef, src *Source, mayDelete bool) (deleted []string, err error)
}

// Source is an /importar document's data as it is checked. Next hands
// the store each character once it has passed every check, while the
// next ones are still being checked, so that the store writes them in
// parallel with the checking (an import of the largest document takes
// the longer of the two, not their sum); after the last one, Rest gives
// the settings and the pads. A check that fails ends Next with its
// error, and the store then changes nothing. A Source is read once, by
// one goroutine.
type Source struct {
	chars chan sheet.Character
	rest  ChatData // Settings and Pads; set before chars is closed
	err   error    // why the document was refused; set before chars is closed
	n     int      // characters handed on (the producer's count)
}

// NewSource runs produce in a goroutine of its own and returns the Source
// it fills, and a channel closed when produce has returned. produce hands
// each character that passed its checks to send, which fails when ctx
// ends (the store gave up), and returns the document's settings and pads
// (Characters nil), or why the document is refused. buffer is how many
// characters may wait for the store.
func NewSource(ctx context.Context, buffer int, produce func(send func(sheet.Character) error) (ChatData, error)) (*Source, <-chan struct{}) {
	s := &Source{chars: make(chan sheet.Character, buffer)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rest, err := produce(func(c sheet.Character) error { return s.send(ctx, c) })
		s.finish(rest, err)
	}()
	return s, done
}

// Next returns the next character; ok is false after the last one, and
// err then says why the document was refused (nil when it was not), or
// that ctx ended.
func (s *Source) Next(ctx context.Context) (c sheet.Character, ok bool, err error) {
	select {
	case c, ok := <-s.chars:
		if !ok {
			return sheet.Character{}, false, s.err
		}
		return c, true, nil
	case <-ctx.Done():
		return sheet.Character{}, false, ctx.Err()
	}
}

// Rest is the document's settings and pads (Characters is nil), once
// Next has returned its last character without an error.
func (s *Source) Rest() ChatData { return s.rest }

// send hands c on, unless ctx ends first (the store gave up).
func (s *Source) send(ctx context.Context, c sheet.Character) error {
	select {
	case s.chars <- c:
		s.n++
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// finish ends the Source with the rest of the document, or with err.
func (s *Source) finish(rest ChatData, err error) {
	s.rest, s.err = rest, err
	close(s.chars)
}
