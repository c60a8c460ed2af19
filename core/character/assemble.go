// Package character assembles the commands about characters and about
// what a chat keeps of its play. Each job is a package of its own:
//
//   - core/sheet: character sheets, /pj, and how a roll reads a sheet
//     ("/roll 1d20+fuerza", command.Sheets);
//   - core/gm: the game masters a chat names, /gm;
//   - core/history: the roll log, /historial, and /stats with its
//     chi-square fairness test;
//   - core/transfer: /exportar and /importar of a chat's data;
//   - core/alias: saved rolls, /alias and "/ataque coraza".
//
// New builds them over one store with one set of quotas, whose defaults
// live here (DefaultLimits); Register adds their commands in /help's
// order. The game systems' reserved sheet names (Dungeon Hack's equipment)
// come from their own packages.
package character

import (
	"context"
	"log/slog"
	"time"

	"zaria/core"
	"zaria/core/alias"
	"zaria/core/command"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/reply"
	"zaria/core/sheet"
	"zaria/core/systems/dungeonhack"
	"zaria/core/transfer"
)

// Limits are the quotas of characters, aliases, history and imports. Zero
// fields take the defaults of DefaultLimits.
type Limits struct {
	CharactersPerUser int // characters one user owns in one chat (10)
	// CharactersPerChat bounds the characters of one chat (200); it is also
	// how many characters an import may hold, so that a chat's own export
	// is never refused for its number of characters.
	CharactersPerChat int
	ValuesPerSheet    int // named values on one sheet (40)
	NameLen           int // characters of a character, value or alias name (32)
	ValueLen          int // characters of one value (64)
	AliasesPerUser    int // saved rolls of one user in one chat (20)
	AliasesPerChat    int // saved rolls of the whole chat (30)
	AliasLen          int // characters of what a saved roll stands for (200)
	HistoryKeep       int // rolls kept per chat; older ones are pruned (500)
	HistoryShow       int // rolls /historial shows by default (10)
	HistoryShowMax    int // rolls /historial shows at most (20: 20 full lines fit one 3,500-character reply)
	ImportLen         int // bytes of an /importar document (transfer.MaxDocumentBytes, 256 KiB); /exportar writes compact JSON and says when it is larger
	GMsPerChat        int // users named GM in one chat (20)
}

// DefaultLimits returns the quotas used where Limits leaves a zero.
func DefaultLimits() Limits {
	return Limits{
		CharactersPerUser: 10,
		CharactersPerChat: 200,
		ValuesPerSheet:    40,
		NameLen:           32,
		ValueLen:          64,
		AliasesPerUser:    20,
		AliasesPerChat:    30,
		AliasLen:          200,
		HistoryKeep:       500,
		HistoryShow:       10,
		HistoryShowMax:    20,
		ImportLen:         transfer.MaxDocumentBytes,
		GMsPerChat:        20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.CharactersPerUser, d.CharactersPerUser)
	pick(&l.CharactersPerChat, d.CharactersPerChat)
	pick(&l.ValuesPerSheet, d.ValuesPerSheet)
	pick(&l.NameLen, d.NameLen)
	pick(&l.ValueLen, d.ValueLen)
	pick(&l.AliasesPerUser, d.AliasesPerUser)
	pick(&l.AliasesPerChat, d.AliasesPerChat)
	pick(&l.AliasLen, d.AliasLen)
	pick(&l.HistoryKeep, d.HistoryKeep)
	pick(&l.HistoryShow, d.HistoryShow)
	pick(&l.HistoryShowMax, d.HistoryShowMax)
	pick(&l.ImportLen, d.ImportLen)
	pick(&l.GMsPerChat, d.GMsPerChat)
	return l
}

// Options configure a Service.
type Options struct {
	Limits Limits
	Logger *slog.Logger
	Now    func() time.Time
	// Validators check a value before "/pj set" or "/importar" stores it,
	// keyed by value name (a synonym of the name finds the same check:
	// "weapon" = "arma"). A check returns a *command.UserError for a value
	// it refuses. The game systems provide them (systems.SheetValidators),
	// so that no package here needs to know their tables.
	Validators map[string]func(req *command.Request, value string) error
}

// Store is everything the character commands need; storage/sqlite
// implements it all. Tests and main pass one value for every part.
type Store interface {
	sheet.Store
	gm.Store
	history.Store
	alias.Store
	transfer.Importer
	transfer.PadLister
	transfer.InitiativeReader
	sheet.UndoStore
}

// Service holds the services of sheets, GMs, history, export/import and
// saved rolls over one store. It is the router's command.Sheets,
// command.AliasExpander and a command.Observer (the roll history).
type Service struct {
	lim      Limits
	sheets   *sheet.Service
	gms      *gm.Service
	history  *history.Service
	transfer *transfer.Service
	aliases  *alias.Service
}

// New returns the services over store.
func New(store Store, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	l := o.Limits.withDefaults()
	sheets := sheet.New(store, sheet.Options{
		Limits: sheet.Limits{CharactersPerUser: l.CharactersPerUser, CharactersPerChat: l.CharactersPerChat,
			ValuesPerSheet: l.ValuesPerSheet, NameLen: l.NameLen, ValueLen: l.ValueLen},
		Now:        o.Now,
		Validators: o.Validators,
		Synonyms:   dungeonhack.SheetSynonyms(),
		Undo:       store,
	})
	return &Service{
		lim:    l,
		sheets: sheets,
		gms:    gm.New(store, store, gm.Options{Max: l.GMsPerChat, Now: o.Now}),
		history: history.New(store, history.Options{Logger: o.Logger, Now: o.Now,
			Limits: history.Limits{Keep: l.HistoryKeep, Show: l.HistoryShow, ShowMax: l.HistoryShowMax}}),
		transfer: transfer.New(store, sheets, transfer.Options{DocumentBytes: l.ImportLen, Now: o.Now}),
		aliases: alias.New(store, alias.Options{Now: o.Now,
			Limits: alias.Limits{PerUser: l.AliasesPerUser, PerChat: l.AliasesPerChat, Len: l.AliasLen, NameLen: l.NameLen}}),
	}
}

// Limits returns the effective quotas.
func (s *Service) Limits() Limits { return s.lim }

// SheetInt implements command.Sheets (sheet.Service.SheetInt).
func (s *Service) SheetInt(ctx context.Context, chat core.ChatRef, userID, who, name string) (int, error) {
	return s.sheets.SheetInt(ctx, chat, userID, who, name)
}

// SheetText implements command.Sheets (sheet.Service.SheetText).
func (s *Service) SheetText(ctx context.Context, chat core.ChatRef, userID, who, name string) (string, error) {
	return s.sheets.SheetText(ctx, chat, userID, who, name)
}

// SetSheetText implements command.Sheets (sheet.Service.SetSheetText).
func (s *Service) SetSheetText(ctx context.Context, chat core.ChatRef, userID string, isGM bool, who, name, value string) error {
	return s.sheets.SetSheetText(ctx, chat, userID, isGM, who, name, value)
}

// ExpandAlias implements command.AliasExpander (alias.Service.ExpandAlias).
func (s *Service) ExpandAlias(ctx context.Context, chat core.ChatRef, userID, name, args string, max int) (string, bool, error) {
	return s.aliases.ExpandAlias(ctx, chat, userID, name, args, max)
}

// Observe implements command.Observer: the roll history
// (history.Service.Observe).
func (s *Service) Observe(ctx context.Context, req *command.Request, rep *reply.Reply, took time.Duration) {
	s.history.Observe(ctx, req, rep, took)
}

// Fighters gives the turn order (core/initiative) the hit points and
// conditions of the chat's characters (sheet.Service).
func (s *Service) Fighters() *sheet.Service { return s.sheets }
