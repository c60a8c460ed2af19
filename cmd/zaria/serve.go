package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"golang.org/x/sync/errgroup"

	"zaria/adapters/console"
	"zaria/adapters/matrix"
	"zaria/adapters/telegram"
	"zaria/cmd/zaria/internal/ops"
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
	cfg, err := loadConfig(*cfgPath, getenv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg.Log, stderr)
	db, err := openDB(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	metrics := ops.New()
	router, err := newRouter(cfg.Lang, configZone(cfg), cfg.DocsURL, db, logger, metrics)
	if err != nil {
		return err
	}
	registerCrashHook(router, getenv(crashHookEnv))

	var adapters []adapter
	var tgAdapter *telegram.Adapter // for the web companion
	var mxAdapter *matrix.Adapter
	tg, mx := cfg.Platforms()
	if tg {
		tc := telegramConfig(cfg.Telegram)
		// Scaled send limits, for load tests against a fake Bot API only.
		if v := getenv("ZARIA_TELEGRAM_LIMITS"); v != "" {
			if err := tc.ParseLimits(v); err != nil {
				return usageError{err.Error()}
			}
		}
		a, err := telegram.New(tc, router, db, logger)
		if err != nil {
			return err
		}
		metrics.Gauge("zaria_telegram_send_queue", "Telegram replies waiting to be sent.", false, func() float64 { return float64(a.QueueDepth()) })
		metrics.Gauge("zaria_telegram_429_total", "Telegram sends answered 429 Too Many Requests.", true, func() float64 { return float64(a.FloodWaits()) })
		adapters = append(adapters, a)
		tgAdapter = a
	}
	if mx {
		a, err := matrix.New(matrixConfig(cfg, stderr), router, db, logger)
		if err != nil {
			return err
		}
		adapters = append(adapters, a)
		mxAdapter = a
	}
	if len(adapters) == 0 {
		interactive := false
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				interactive = true
			}
		}
		if interactive {
			fmt.Fprint(stdout, console.Banner(version, cfg.DB))
		}
		user := cfg.Console.User
		if user == "" {
			user = getenv("USER")
		}
		adapters = append(adapters, console.New(console.Config{User: user, Prompt: interactive, LangHint: getenv("LANG")}, router, stdin, stdout, logger))
	}
	if w, err := newWeb(cfg, router, db, tgAdapter, mxAdapter, logger, time.Now); err != nil {
		return err
	} else if w != nil {
		adapters = append(adapters, w)
	}
	if cfg.HTTP.Listen != "" {
		health := func(ctx context.Context) error { _, _, err := db.State(ctx, "health"); return err }
		adapters = append(adapters, opsServer{addr: cfg.HTTP.Listen, h: metrics.Handler(health, cfg.HTTP.Pprof), log: logger})
	}
	return runAll(ctx, adapters, logger.Debug)
}

// opsServer runs the /healthz and /metrics listener beside the adapters.
type opsServer struct {
	addr string
	h    http.Handler
	log  *slog.Logger
}

func (o opsServer) Name() string { return "ops" }

func (o opsServer) Run(ctx context.Context) error { return ops.Serve(ctx, o.addr, o.h, o.log) }

// runAll runs the adapters until ctx ends or one of them fails; the first
// failure stops the others. A console that reaches end of input ends the
// run: any adapter that returns stops the rest.
func runAll(ctx context.Context, adapters []adapter, info func(string, ...any)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	for _, a := range adapters {
		g.Go(func() error {
			defer cancel()
			info("adapter started", "adapter", a.Name())
			if err := a.Run(gctx); err != nil && !errors.Is(err, context.Canceled) {
				return fmt.Errorf("%s: %w", a.Name(), err)
			}
			return nil
		})
	}
	done := make(chan error, 1)
	go func() { done <- g.Wait() }()
	<-gctx.Done()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		return errors.New("adapters did not stop within 10 s")
	}
}
