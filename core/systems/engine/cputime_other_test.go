//go:build !linux

package engine

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
