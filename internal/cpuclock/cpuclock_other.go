//go:build !linux

// Package cpuclock reads the CPU time of the calling OS thread, so that
// benchmarks on a shared machine can report their own cost apart from the
// time other processes held the core.
package cpuclock

import "time"

// Thread returns 0: the thread CPU clock is read only on Linux.
func Thread() time.Duration { return 0 }
