package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"zaria/adapters/console"
	"zaria/configs"
)

// adapter is what main runs: each blocks in Run until ctx ends.
type adapter interface {
	Name() string
	Run(ctx context.Context) error
}

// serve starts every configured adapter, or the console chat when no
// platform is configured, and stops them all on SIGINT/SIGTERM.
func serve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default configs/zaria.yaml if present)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	path, required := *cfgPath, true
	if path == "" {
		path, required = "configs/zaria.yaml", false
	}
	cfg, err := configs.Load(path, required, getenv)
	if err != nil {
		return usageError{err.Error()}
	}
	logger := newLogger(cfg.Log, stderr)
	db, err := openDB(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	router, err := newRouter(cfg.Lang, db, logger)
	if err != nil {
		return err
	}

	var adapters []adapter
	tg, mx := cfg.Platforms()
	if tg {
		return errors.New("telegram adapter not wired yet")
	}
	if mx {
		return errors.New("matrix adapter not wired yet")
	}
	if len(adapters) == 0 {
		interactive := false
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				interactive = true
			}
		}
		if interactive {
			fmt.Fprintf(stdout, "zaria %s — console chat (%s). Try /roll 4d6kh3+2, /help, /lang el. Ctrl-D to leave.\n", version, cfg.DB)
		}
		user := cfg.Console.User
		if user == "" {
			user = getenv("USER")
		}
		adapters = append(adapters, console.New(console.Config{User: user, Prompt: interactive, LangHint: getenv("LANG")}, router, stdin, stdout, logger))
	}
	return runAll(ctx, adapters, logger.Debug)
}

// runAll runs the adapters until ctx ends or one of them fails; the first
// failure stops the others. A console that reaches end of input ends the run.
func runAll(ctx context.Context, adapters []adapter, info func(string, ...any)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(adapters))
	for _, a := range adapters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			info("adapter started", "adapter", a.Name())
			err := a.Run(ctx)
			if err != nil {
				err = fmt.Errorf("%s: %w", a.Name(), err)
			}
			errs <- err
			cancel()
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	<-ctx.Done()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		return errors.New("adapters did not stop within 10 s")
	}
	close(errs)
	for err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return nil
}
