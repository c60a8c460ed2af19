package transfer

import "time"

// Times are stored as Unix nanoseconds in an int64, which holds the dates
// from 1677-09-21 to 2262-04-11. The range accepted (on import, the only
// way a user can give a date) is whole years inside it: 1678-01-01 to
// 2262-01-01, so that an import dated "9999-12-31" is refused instead of
// coming back as another date.
const (
	MinYear = 1678
	MaxYear = 2262
)

func minTime() time.Time { return time.Date(MinYear, 1, 1, 0, 0, 0, 0, time.UTC) }
func maxTime() time.Time { return time.Date(MaxYear, 1, 1, 0, 0, 0, 0, time.UTC) }

// Storable reports whether t is the zero time (unknown) or between
// MinYear-01-01 and MaxYear-01-01, so that it survives the int64
// nanoseconds of a store.
func Storable(t time.Time) bool {
	return t.IsZero() || (!t.Before(minTime()) && !t.After(maxTime()))
}
