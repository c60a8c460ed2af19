package dice

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (lock it first), so
// that the corpus check measures work, not waiting on a busy machine.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
