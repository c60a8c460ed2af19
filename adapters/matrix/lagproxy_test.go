package matrix

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// lagProxy stands between the bot and a real homeserver on loopback and
// makes the homeserver lag as a loaded one does: its answers to /sync,
// /messages and /context come delay later, and the newest lag of a room's
// history is not there yet (/messages read from the room's newest end and
// /context leave out the events stored less than lag ago). Sends go
// through at once. While the homeserver lags, an event the bot sent
// (even one the homeserver confirmed) is invisible to it for lag.
type lagProxy struct {
	URL   string
	lag   atomic.Int64 // nanoseconds
	delay atomic.Int64
	// beforeSend, when set, runs before a PUT …/send/… is forwarded.
	beforeSend func(r *http.Request)
	hidden     atomic.Int64 // events left out so far
}

func newLagProxy(t testing.TB, target string, lag, delay time.Duration) *lagProxy {
	t.Helper()
	up, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &lagProxy{}
	p.lag.Store(int64(lag))
	p.delay.Store(int64(delay))
	rp := httputil.NewSingleHostReverseProxy(up)
	rp.ModifyResponse = p.modify
	rp.ErrorLog = nil
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/send/") && p.beforeSend != nil {
			p.beforeSend(r)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// set changes the lag and the delay.
func (p *lagProxy) set(lag, delay time.Duration) {
	p.lag.Store(int64(lag))
	p.delay.Store(int64(delay))
}

func (p *lagProxy) modify(resp *http.Response) error {
	path := resp.Request.URL.Path
	isSync := strings.HasSuffix(path, "/sync")
	msgs := strings.HasSuffix(path, "/messages") && resp.Request.URL.Query().Get("from") == ""
	ctxt := strings.Contains(path, "/context/")
	if !isSync && !msgs && !ctxt && !strings.HasSuffix(path, "/messages") {
		return nil
	}
	now := time.Now()
	if d := time.Duration(p.delay.Load()); d > 0 {
		time.Sleep(d)
	}
	if !(msgs || ctxt) || resp.StatusCode != http.StatusOK {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) == nil {
		cut := now.Add(-time.Duration(p.lag.Load())).UnixMilli()
		for _, key := range []string{"chunk", "events_after"} {
			var evts []map[string]any
			if raw, ok := m[key]; !ok || json.Unmarshal(raw, &evts) != nil {
				continue
			}
			kept := evts[:0]
			for _, e := range evts {
				if ts, _ := e["origin_server_ts"].(float64); int64(ts) > cut {
					p.hidden.Add(1)
					continue
				}
				kept = append(kept, e)
			}
			m[key], _ = json.Marshal(kept)
		}
		if b, err := json.Marshal(m); err == nil {
			body = b
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}
