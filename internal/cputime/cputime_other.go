//go:build !linux

// Package cputime reads the CPU time of the calling OS thread, for
// benchmarks and worst-case checks that measure work, not waiting on a
// busy machine.
package cputime

import "time"

// Thread is the calling thread's CPU time: not readable here.
func Thread() (time.Duration, bool) { return 0, false }
