package main

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// backupCmd copies the database consistently while the bot may be running.
func backupCmd(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	cfgPath := fs.String("config", "", "config file (default configs/zaria.yaml if present)")
	dbPath := fs.String("db", "", "database file (default from config or ZARIA_DB)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() != 1 {
		return usageError{"usage: zaria backup [--db FILE] DEST"}
	}
	cfg, err := loadConfig(*cfgPath, getenv)
	if err != nil {
		return err
	}
	if *dbPath != "" {
		cfg.DB = *dbPath
	}
	db, err := openDB(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Backup(ctx, fs.Arg(0)); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(stdout, "backup of %s written to %s\n", cfg.DB, fs.Arg(0))
	return nil
}
