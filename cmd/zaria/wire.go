package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"zaria/adapters/chart"
	"zaria/adapters/telegram"
	"zaria/configs"
	"zaria/core"
	"zaria/core/character"
	"zaria/core/command"
	"zaria/core/general"
	"zaria/core/initiative"
	"zaria/core/pad"
	"zaria/core/reply"
	"zaria/core/roll"
	"zaria/core/systems"
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
func newRouter(lang string, db *sqlite.DB, logger *slog.Logger, observers ...command.Observer) (*command.Router, error) {
	cat, err := i18n.Load()
	if err != nil {
		return nil, fmt.Errorf("load catalogs: %w", err)
	}
	chars := character.New(db, character.Options{Logger: logger, Validators: systems.SheetValidators()})
	r := command.New(command.Config{
		DefaultLang: lang,
		Translator:  cat,
		Settings:    db,
		GMs:         db,
		Sheets:      chars,
		Aliases:     chars,
		Observers:   append([]command.Observer{chars}, observers...),
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
	})
	// Registration order is /help's order: rolls first, then characters, then the rest.
	roll.Register(r)
	roll.RegisterOdds(r)
	systems.Register(r)
	roll.RegisterSystemOdds(r)
	character.Register(r, chars)
	pad.Register(r, pad.New(db, pad.Options{Logger: logger, Undo: db,
		ActiveName: db.ActiveCharacterName}))
	initiative.Register(r, initiative.New(db, initiative.Options{Logger: logger,
		ActiveName: db.ActiveCharacterName, Fighters: chars.Fighters()}))
	general.Register(r, version)
	return r, nil
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

// telegramConfig is the Telegram adapter's configuration from the config
// file's telegram keys, with the chart renderer.
func telegramConfig(t configs.Telegram) telegram.Config {
	return telegram.Config{
		Token:                 t.Token,
		APIURL:                t.API,
		PollTimeout:           t.PollTimeout,
		RequestTimeout:        t.RequestTimeout,
		WebhookListen:         t.WebhookListen,
		WebhookURL:            t.WebhookURL,
		WebhookSecret:         t.WebhookSecret,
		WebhookMaxConnections: t.WebhookMaxConnections,
		WebhookWait:           t.WebhookWait,
		ChatInterval:          t.Limits.ChatInterval,
		GroupLimit:            t.Limits.GroupLimit,
		GroupWindow:           t.Limits.GroupWindow,
		GlobalLimit:           t.Limits.GlobalLimit,
		GlobalWindow:          t.Limits.GlobalWindow,
		MaxQueued:             t.MaxQueued,
		SaveInterval:          t.SaveInterval,
		AdminTTL:              t.AdminTTL,
		DrainTimeout:          t.DrainTimeout,
		MaxMessage:            t.MaxMessage,
		MaxImportBytes:        t.MaxImportBytes,
		InlineCommand:         t.InlineCommand,
		HandledRetention:      t.HandledRetention,
		MaxButtons:            t.MaxButtons,
		BackoffMin:            t.BackoffMin,
		BackoffMax:            t.BackoffMax,
		Charts:                telegramCharts,
	}
}
