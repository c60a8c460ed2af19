//go:build !unix

package chart_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
