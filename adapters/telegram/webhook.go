package telegram

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"zaria/adapters/internal/backoff"
)

// runWebhook serves updates POSTed by Telegram until ctx ends. The webhook
// stays registered at exit, so Telegram keeps updates until we are back.
func (a *Adapter) runWebhook(ctx context.Context) error {
	u, _ := url.Parse(a.cfg.WebhookURL)
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.HandleFunc(path, a.serveUpdate)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	ln, err := net.Listen("tcp", a.cfg.WebhookListen)
	if err != nil {
		return fmt.Errorf("telegram webhook: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	a.log.Info("telegram webhook listening", "addr", ln.Addr().String(), "path", path, "max_connections", a.cfg.WebhookMaxConnections)

	if err := a.setWebhook(ctx); err != nil && ctx.Err() == nil {
		_ = srv.Close()
		<-served
		return err
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("telegram webhook server: %w", err)
	}
	// Deliveries being handled finish (they end with the drain time at
	// the latest), so none adds replies once the drain waits for them.
	if err := srv.Shutdown(a.hard); err != nil {
		_ = srv.Close()
	}
	<-served
	return nil
}

// waitForRoom waits at most WebhookWait while the send queue is full. It
// reports whether there is room.
func (a *Adapter) waitForRoom(ctx context.Context) bool {
	full := func() bool { return a.send.backlog.Load() >= int64(a.cfg.MaxQueued) }
	if !full() {
		return true
	}
	t := time.NewTimer(a.cfg.WebhookWait)
	defer t.Stop()
	for full() {
		select {
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return true
}

func (a *Adapter) setWebhook(ctx context.Context) error {
	p := map[string]string{
		"url":             a.cfg.WebhookURL,
		"allowed_updates": allowedUpdates,
		"max_connections": strconv.Itoa(a.cfg.WebhookMaxConnections),
	}
	if a.cfg.WebhookSecret != "" {
		p["secret_token"] = a.cfg.WebhookSecret
	}
	bo := backoff.New(a.cfg.BackoffMin, a.cfg.BackoffMax)
	for {
		rctx, cancel := context.WithTimeout(ctx, a.cfg.RequestTimeout)
		_, err := a.c.call(rctx, "setWebhook", p, nil)
		cancel()
		if err == nil {
			return nil
		}
		if permanent(err) {
			return fmt.Errorf("telegram: setWebhook refused: %w", err)
		}
		if err := a.waitToRetry(ctx, "setWebhook", err, bo); err != nil {
			return err
		}
	}
}

// serveUpdate receives one update. It answers 200 only after the update's
// replies are in the journal; any other answer makes Telegram retry.
func (a *Adapter) serveUpdate(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if a.cfg.WebhookSecret != "" {
		got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
		if subtle.ConstantTimeCompare([]byte(got), []byte(a.cfg.WebhookSecret)) != 1 {
			a.log.Warn("telegram webhook request with a wrong secret token", "remote", r.RemoteAddr)
			http.Error(w, "forbidden", http.StatusUnauthorized)
			return
		}
	}
	var raw json.RawMessage
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	if err := dec.Decode(&raw); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "bad update", http.StatusBadRequest)
		return
	}
	// Only an object with an update_id is refused as not an update: one
	// whose fields the library cannot read (a newer Bot API) is
	// acknowledged and skipped by decodeUpdates, as when polling;
	// refused, Telegram would deliver it again and again
	// (TestWebhookUnreadableUpdateAcknowledged).
	var probe struct {
		UpdateID *int `json:"update_id"`
	}
	if json.Unmarshal(raw, &probe) != nil || probe.UpdateID == nil {
		http.Error(w, "bad update", http.StatusBadRequest)
		return
	}
	// Backpressure: while the send queue is full, wait a little for room,
	// then refuse; Telegram delivers again later.
	if !a.waitForRoom(r.Context()) {
		a.full.Add(1)
		w.Header().Set("Retry-After", "5")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	a.whMu.Lock()
	n := a.process(a.baseCtx, a.decodeUpdates([]json.RawMessage{raw}), false)
	a.whMu.Unlock()
	if n == 0 {
		// Shutting down, or the update could not be journaled: not kept,
		// so not acknowledged. Telegram delivers it again.
		http.Error(w, "not kept", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte("{}"))
}
