package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
	_ "time/tzdata" // the chats' time zones on a system without zoneinfo

	"zaria/adapters/chart"
	"zaria/adapters/matrix"
	"zaria/adapters/telegram"
	"zaria/configs"
	"zaria/core"
	"zaria/core/alias"
	"zaria/core/ask"
	"zaria/core/command"
	"zaria/core/deck"
	"zaria/core/general"
	"zaria/core/gm"
	"zaria/core/history"
	"zaria/core/initiative"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/session"
	"zaria/core/sheet"
	"zaria/core/systems"
	"zaria/core/systems/dungeonhack"
	"zaria/core/systems/fork"
	"zaria/core/table"
	"zaria/core/transfer"
	"zaria/i18n"
	"zaria/storage/sqlite"
)

// defaultConfig is read when --config is not given, if it exists.
const defaultConfig = "configs/zaria.yaml"

// loadConfig reads --config (required when given) or the default file (if
// present), then the environment. Its errors are the operator's to fix.
func loadConfig(path string, getenv func(string) string) (configs.Config, error) {
	required := path != ""
	if !required {
		path = defaultConfig
	}
	cfg, err := configs.Load(path, required, getenv)
	if err != nil {
		return configs.Config{}, usageError{err.Error()}
	}
	return cfg, nil
}

// newLogger builds the process logger from the config.
func newLogger(cfg configs.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Level)) // validated by configs
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// newRouter assembles the core: every command, wired to the store.
func newRouter(lang string, zone *time.Location, docsURL string, db *sqlite.DB, logger *slog.Logger, observers ...command.Observer) (*command.Router, error) {
	cat, err := i18n.Load()
	if err != nil {
		return nil, fmt.Errorf("load catalogs: %w", err)
	}
	// What a chat keeps of its play, each service with its package's
	// quotas: sheets (read by rolls: "/roll 1d20+fuerza"), the GMs it
	// names, the roll history, export/import, saved rolls, sessions.
	sheets := newSheets(db)
	hist := history.New(db, history.Options{Logger: logger})
	aliases := alias.New(db, alias.Options{})
	sessions := session.New(db, session.Options{Logger: logger})
	// A chat's forks of the systems and its own system files (/sistema):
	// an own file may not take a command of the bot's.
	var r *command.Router
	forks := fork.New(db, fork.Options{Undo: db, Logger: logger, Forkable: systems.Forkable(), Named: systems.NamedForkable(), Layout: systems.LayoutReply, Taken: func(name string) bool {
		_, ok := r.Lookup(name)
		return ok
	}})
	r = command.New(command.Config{
		DefaultLang: lang,
		Translator:  cat,
		Settings:    db,
		GMs:         db,
		Sheets:      sheets,
		Aliases:     forks.Expander(aliases),
		Observers:   append([]command.Observer{hist, sessions}, observers...),
		NamedGMs: func(ctx context.Context, chat core.ChatRef) ([]string, error) {
			gms, err := db.ListGMs(ctx, chat)
			ids := make([]string, len(gms))
			for i, g := range gms {
				ids[i] = g.UserID
			}
			return ids, err
		},
		Logger:    logger,
		Unlimited: []string{"console", "cli"},
		TimeZone:  zone,
	})
	// Registration order is /help's order: rolls first, then characters, then the rest.
	roll.Register(r)
	roll.RegisterOdds(r, forks)
	systems.Register(r, forks)
	fork.Register(r, forks)
	roll.RegisterSystemOdds(r, forks)
	sheet.Register(r, sheets)
	gm.Register(r, gm.New(db, db, gm.Options{}))
	history.Register(r, hist)
	transfer.Register(r, transfer.New(db, sheets, transfer.Options{}))
	alias.Register(r, aliases)
	pad.Register(r, pad.New(db, pad.Options{Logger: logger, Undo: db,
		ActiveName: db.ActiveCharacterName}))
	initiative.Register(r, initiative.New(db, initiative.Options{Logger: logger,
		ActiveName: db.ActiveCharacterName, Fighters: sheets}))
	table.Register(r, table.New(db, table.Options{}))
	deck.Register(r, deck.New(db, deck.Options{}))
	session.Register(r, sessions)
	ask.Register(r, ask.New(db, db, ask.Options{}))
	general.Register(r, general.Options{Version: version, DocsURL: docsURL, HouseRules: forks})
	return r, nil
}

// newSheets is /pj's service on db, with the systems' checks and names of
// sheet values: the router's, and what the companion's turn order reads
// a character's hit points and conditions from.
func newSheets(db *sqlite.DB) *sheet.Service {
	return sheet.New(db, sheet.Options{Validators: systems.SheetValidators(), Synonyms: dungeonhack.SheetSynonyms(), Undo: db, SheetKeys: systems.SheetKeys})
}

// openDB opens the database, mapping a schema that is too new to a clear message.
func openDB(ctx context.Context, path string) (*sqlite.DB, error) {
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// telegramCharts draws the charts the Telegram adapter sends as photos.
var telegramCharts = telegram.ChartFunc(func(_ context.Context, c *reply.Chart, _ string) ([]byte, error) {
	return chart.PNG(c)
})

// telegramConfig is the Telegram adapter's configuration: the config
// file's telegram section, which is telegram.Config, with the chart
// renderer.
func telegramConfig(t configs.Telegram) telegram.Config {
	c := t.Config
	c.Charts = telegramCharts
	return c
}

// matrixConfig is the Matrix adapter's configuration: the config file's
// matrix section, which is matrix.Config, with its crypto store next to
// the database unless set, the chart renderer, and the recovery key's
// one announcement on stderr.
func matrixConfig(cfg configs.Config, stderr io.Writer) matrix.Config {
	c := cfg.Matrix
	if c.CryptoDB == "" {
		c.CryptoDB = strings.TrimSuffix(cfg.DB, ".db") + ".matrix.db"
	}
	c.Announce = stderr
	c.Charts = matrix.RendererFunc(chart.PNG)
	return c
}

// configZone is the config's time zone (validated when loaded).
func configZone(cfg configs.Config) *time.Location {
	if loc, err := time.LoadLocation(cfg.Timezone); err == nil {
		return loc
	}
	return time.UTC
}
