package matrix

import (
	"encoding/json"
	"log/slog"

	"github.com/rs/zerolog"
)

// newZerolog gives mautrix (which logs with zerolog) a logger that forwards
// its warnings and errors to slog (through the adapter's logger, which
// scrubs secrets: see redactHandler). Request bodies are dropped.
func newZerolog(l *slog.Logger) zerolog.Logger {
	return zerolog.New(slogWriter{l.With("component", "mautrix")}).Level(zerolog.WarnLevel)
}

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	var rec map[string]any
	if err := json.Unmarshal(p, &rec); err != nil {
		w.l.Warn(string(p))
		return len(p), nil
	}
	msg, _ := rec["message"].(string)
	lvl, _ := rec["level"].(string)
	delete(rec, "message")
	delete(rec, "level")
	delete(rec, "req_body") // message text or key material: never logged
	if msg == "Request canceled" || msg == "Request failed" {
		// Our own cancellations on shutdown, and failures the adapter
		// retries and logs once itself.
		return len(p), nil
	}
	attrs := make([]any, 0, 2*len(rec))
	for k, v := range rec {
		attrs = append(attrs, k, v)
	}
	level := slog.LevelWarn
	if lvl == "error" || lvl == "fatal" || lvl == "panic" {
		level = slog.LevelError
	}
	w.l.Log(nil, level, msg, attrs...) //nolint:staticcheck // no context in a writer
	return len(p), nil
}
