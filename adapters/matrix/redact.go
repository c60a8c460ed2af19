package matrix

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
)

// redacted replaces a secret in a log line.
const redacted = "[REDACTED]"

// minSecret is the shortest value treated as a secret: replacing shorter
// strings would blank out ordinary words.
const minSecret = 6

// secrets are the values no log line may carry: the password, the pickle
// key and every access token the adapter has used. A homeserver may quote
// them back in an error body (an Authorization header, a request body),
// and the error is then logged: the handler below scrubs every line.
type secrets struct {
	mu   sync.RWMutex
	vals []string
}

// add registers a secret (and its URL-encoded form).
func (s *secrets) add(v string) {
	if len(v) < minSecret {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
		known := false
		for _, have := range s.vals {
			if have == form {
				known = true
				break
			}
		}
		if !known {
			s.vals = append(s.vals, form)
		}
	}
}

// scrub returns text without any secret.
func (s *secrets) scrub(text string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.vals {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, redacted)
		}
	}
	return text
}

// redactHandler is a slog.Handler that scrubs secrets from the message and
// from every attribute (errors and other values are rendered to text first
// when they hold one).
type redactHandler struct {
	h slog.Handler
	s *secrets
}

func (r redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, r.s.scrub(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = r.attr(a)
	}
	return redactHandler{h: r.h.WithAttrs(clean), s: r.s}
}

func (r redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{h: r.h.WithGroup(name), s: r.s}
}

func (r redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, r.s.scrub(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = r.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		var text string
		switch x := v.Any().(type) {
		case error:
			text = x.Error()
		case fmt.Stringer:
			text = x.String()
		default:
			text = fmt.Sprint(x)
		}
		if clean := r.s.scrub(text); clean != text {
			return slog.String(a.Key, clean)
		}
		return slog.Attr{Key: a.Key, Value: v}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// scrubbedError is an error whose text went through secrets.scrub; it
// still unwraps to the original (errors.Is keeps working).
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrubErr hides secrets in an error leaving the adapter (the caller logs
// it with a logger of its own).
func (s *secrets) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := s.scrub(msg); clean != msg {
		return &scrubbedError{msg: clean, err: err}
	}
	return err
}
