//go:build linux

// Package cpuclock reads the CPU time of the calling OS thread, so that
// benchmarks on a shared machine can report their own cost apart from the
// time other processes held the core.
package cpuclock

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time used by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID), or 0 where it cannot be read. Callers lock the
// goroutine to its thread.
func Thread() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
