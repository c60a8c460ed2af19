// Package ops serves the operator's endpoints on an optional local HTTP
// listener: /healthz and /metrics in the Prometheus text format. It counts
// what the router handles (as a command.Observer) and reads gauges that main
// registers from the adapters (send queue depth, 429s received).
package ops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"zaria/core/command"
	"zaria/core/reply"
)

// Latency buckets of the command histogram, in seconds.
var buckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1}

// Metrics collects the bot's counters. The zero value is not usable; use New.
type Metrics struct {
	mu       sync.Mutex
	commands map[[2]string]uint64 // {command, result} → count
	hist     []uint64             // per bucket, cumulative at render time
	count    uint64
	sum      float64
	gauges   map[string]gauge
	started  time.Time
}

type gauge struct {
	help    string
	counter bool
	read    func() float64
}

// New returns empty metrics.
func New() *Metrics {
	return &Metrics{commands: map[[2]string]uint64{}, hist: make([]uint64, len(buckets)), gauges: map[string]gauge{}, started: time.Now()}
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
	s := took.Seconds()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.commands[[2]string{name, result}]++
	m.count++
	m.sum += s
	for i, b := range buckets {
		if s <= b {
			m.hist[i]++
			break
		}
	}
}

// Gauge registers a value read at each scrape (e.g. a send queue's depth).
// counter marks a monotonically increasing value. Names must be unique.
func (m *Metrics) Gauge(name, help string, counter bool, read func() float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.gauges[name]; dup {
		panic("ops: metric registered twice: " + name)
	}
	m.gauges[name] = gauge{help: help, counter: counter, read: read}
}

// WriteTo renders the metrics in the Prometheus text exposition format.
func (m *Metrics) render(b *strings.Builder) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b.WriteString("# HELP zaria_commands_total Commands answered, by command and result.\n# TYPE zaria_commands_total counter\n")
	keys := make([][2]string, 0, len(m.commands))
	for k := range m.commands {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		fmt.Fprintf(b, "zaria_commands_total{command=%q,result=%q} %d\n", k[0], k[1], m.commands[k])
	}
	b.WriteString("# HELP zaria_command_seconds Time to handle a command inside the bot.\n# TYPE zaria_command_seconds histogram\n")
	var cum uint64
	for i, le := range buckets {
		cum += m.hist[i]
		fmt.Fprintf(b, "zaria_command_seconds_bucket{le=\"%g\"} %d\n", le, cum)
	}
	fmt.Fprintf(b, "zaria_command_seconds_bucket{le=\"+Inf\"} %d\nzaria_command_seconds_sum %g\nzaria_command_seconds_count %d\n", m.count, m.sum, m.count)
	names := make([]string, 0, len(m.gauges))
	for n := range m.gauges {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		g := m.gauges[n]
		kind := "gauge"
		if g.counter {
			kind = "counter"
		}
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n%s %g\n", n, g.help, n, kind, n, g.read())
	}
	fmt.Fprintf(b, "# HELP zaria_uptime_seconds Seconds since start.\n# TYPE zaria_uptime_seconds gauge\nzaria_uptime_seconds %g\n", time.Since(m.started).Seconds())
}

// Handler serves /healthz and /metrics.
func (m *Metrics) Handler(health func(context.Context) error) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if health != nil {
			if err := health(r.Context()); err != nil {
				http.Error(w, "unhealthy", http.StatusServiceUnavailable)
				return
			}
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		var b strings.Builder
		m.render(&b)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte(b.String()))
	})
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
