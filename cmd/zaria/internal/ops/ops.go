// Package ops serves the operator's endpoints on an optional local HTTP
// listener: /healthz, and /metrics in the Prometheus format through
// github.com/prometheus/client_golang (the bot's own metrics plus the Go
// runtime's and the process's). It counts what the router handles (as a
// command.Observer) and reads the gauges main registers from the adapters
// (send queue depth, 429s received). It is not a chat adapter: only main
// uses it, hence its place under cmd/zaria/internal.
package ops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	httppprof "net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"zaria/core/command"
	"zaria/core/reply"
)

// Metrics collects the bot's counters in a registry of its own (no global
// state). Use New.
type Metrics struct {
	reg      *prometheus.Registry
	commands *prometheus.CounterVec
	seconds  prometheus.Histogram
}

// New returns metrics with nothing counted yet.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zaria_commands_total",
			Help: "Commands answered, by command and result.",
		}, []string{"command", "result"}),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "zaria_command_seconds",
			Help:    "Time to handle a command inside the bot.",
			Buckets: []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1},
		}),
	}
	started := time.Now()
	m.reg.MustRegister(m.commands, m.seconds,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "zaria_uptime_seconds", Help: "Seconds since start."},
			func() float64 { return time.Since(started).Seconds() }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Observe implements command.Observer: one answered command.
func (m *Metrics) Observe(_ context.Context, req *command.Request, rep *reply.Reply, took time.Duration) {
	result := "ok"
	if rep != nil && rep.Error {
		result = "user_error"
	}
	name := req.Name
	if name == "" {
		name = "unknown"
	}
	m.commands.WithLabelValues(name, result).Inc()
	m.seconds.Observe(took.Seconds())
}

// Gauge registers a value read at each scrape (e.g. a send queue's depth).
// counter marks a monotonically increasing value. A name registered twice
// is a programming error and panics at start-up.
func (m *Metrics) Gauge(name, help string, counter bool, read func() float64) {
	if counter {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, read))
		return
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, read))
}

// Handler serves /healthz and /metrics, and with pprof Go's profiles
// under /debug/pprof/ (net/http/pprof's handlers on this mux only, not on
// http.DefaultServeMux).
func (m *Metrics) Handler(health func(context.Context) error, pprof bool) http.Handler {
	mux := http.NewServeMux()
	if pprof {
		mux.HandleFunc("GET /debug/pprof/", httppprof.Index)
		mux.HandleFunc("GET /debug/pprof/cmdline", httppprof.Cmdline)
		mux.HandleFunc("GET /debug/pprof/profile", httppprof.Profile)
		mux.HandleFunc("GET /debug/pprof/symbol", httppprof.Symbol)
		mux.HandleFunc("GET /debug/pprof/trace", httppprof.Trace)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if health != nil {
			if err := health(r.Context()); err != nil {
				http.Error(w, "unhealthy", http.StatusServiceUnavailable)
				return
			}
		}
		fmt.Fprintln(w, "ok")
	})
	// Uncompressed: the listener is local, and gzip cost ~1 MB of
	// allocations per scrape, the largest allocation under load (issue 29).
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{DisableCompression: true}))
	return mux
}

// Serve listens on addr until ctx ends. It is meant for a local address
// (127.0.0.1:9090): the endpoints carry no secrets but need no exposure.
func Serve(ctx context.Context, addr string, h http.Handler, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("ops: listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	logger.Info("ops listener", "addr", ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("ops: %w", err)
	}
	return nil
}
