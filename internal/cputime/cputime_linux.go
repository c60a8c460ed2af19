// Package cputime reads the CPU time of the calling OS thread, for
// benchmarks and worst-case checks that measure work, not waiting on a
// busy machine.
package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread is the CPU time of the calling OS thread (lock it first), from
// CLOCK_THREAD_CPUTIME_ID; false where it cannot be read.
func Thread() (time.Duration, bool) {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
