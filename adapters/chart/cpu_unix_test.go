//go:build unix

package chart_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (user + system, every
// thread, the garbage collector's included): the work a benchmark does,
// whatever else keeps the machine busy.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
