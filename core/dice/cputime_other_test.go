//go:build !linux

package dice

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
