package ops_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"zaria/cmd/zaria/internal/ops"
	"zaria/core/command"
	"zaria/core/reply"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestMetricsAndHealth(t *testing.T) {
	m := ops.New()
	m.Observe(context.Background(), &command.Request{Name: "roll"}, &reply.Reply{}, 300*time.Microsecond)
	m.Observe(context.Background(), &command.Request{Name: "roll"}, &reply.Reply{}, 3*time.Millisecond)
	m.Observe(context.Background(), &command.Request{Name: "zaria"}, &reply.Reply{Error: true}, time.Millisecond)
	depth := 7.0
	m.Gauge("zaria_send_queue_depth", "Replies waiting to be sent.", false, func() float64 { return depth })
	healthy := true
	srv := httptest.NewServer(m.Handler(func(context.Context) error {
		if !healthy {
			return errors.New("db down")
		}
		return nil
	}, false))
	defer srv.Close()

	code, body := get(t, srv.URL+"/metrics")
	if code != 200 {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`zaria_commands_total{command="roll",result="ok"} 2`,
		`zaria_commands_total{command="zaria",result="user_error"} 1`,
		`zaria_command_seconds_bucket{le="0.0005"} 1`,
		`zaria_command_seconds_bucket{le="0.001"} 2`,
		`zaria_command_seconds_bucket{le="0.005"} 3`,
		`zaria_command_seconds_bucket{le="+Inf"} 3`,
		`zaria_command_seconds_count 3`,
		"# TYPE zaria_send_queue_depth gauge\nzaria_send_queue_depth 7",
		"# TYPE zaria_uptime_seconds gauge",
		"go_goroutines ",                 // the Go runtime's metrics come with the library
		"process_resident_memory_bytes ", // and the process's
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
	if code, body := get(t, srv.URL+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	healthy = false
	if code, _ := get(t, srv.URL+"/healthz"); code != 503 {
		t.Errorf("unhealthy healthz: %d", code)
	}
}

// TestPprofSwitch: Go's profiles are served only when asked for.
func TestPprofSwitch(t *testing.T) {
	m := ops.New()
	off := httptest.NewServer(m.Handler(nil, false))
	defer off.Close()
	if code, _ := get(t, off.URL+"/debug/pprof/heap"); code != 404 {
		t.Errorf("pprof off: /debug/pprof/heap answered %d", code)
	}
	on := httptest.NewServer(m.Handler(nil, true))
	defer on.Close()
	if code, body := get(t, on.URL+"/debug/pprof/heap?debug=1"); code != 200 || !strings.Contains(body, "heap profile") {
		t.Errorf("pprof on: /debug/pprof/heap answered %d %.80q", code, body)
	}
	if code, body := get(t, on.URL+"/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("pprof on: index answered %d %.80q", code, body)
	}
	if code, body := get(t, on.URL+"/metrics"); code != 200 || !strings.Contains(body, "zaria_uptime_seconds") {
		t.Errorf("pprof on: metrics answered %d", code)
	}
}

// TestMetricsUncompressed: /metrics answers plain text even to a client
// that accepts gzip (the listener is local; compressing cost ~1 MB of
// allocations per scrape).
func TestMetricsUncompressed(t *testing.T) {
	srv := httptest.NewServer(ops.New().Handler(nil, false))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/metrics", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if enc := res.Header.Get("Content-Encoding"); enc != "" || !strings.Contains(string(b), "zaria_uptime_seconds") {
		t.Errorf("Content-Encoding %q, body %.60q", enc, b)
	}
}
