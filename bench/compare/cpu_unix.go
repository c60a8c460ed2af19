//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuNow is the CPU time the process has used (every thread, the garbage
// collector's too): on a shared, loaded machine the wall clock counts the
// waiting as well.
func cpuNow() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
