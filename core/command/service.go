package command

import (
	"log/slog"
	"time"
)

// The skeleton every feature service shares (/mazo, /tabla, /sesion,
// /init, /botones, /gm, /alias): Options with an optional clock and
// logger, and New filling what was left out with these.

// Clock is now, or time.Now when now is nil: the clock a service was
// given in its Options (tests give a fixed one), or the real one.
func Clock(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// Log is l, or a logger that discards when l is nil.
func Log(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}
