//go:build linux

package hand_test

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time used by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID). On a shared machine it separates a benchmark's
// own cost from the time other processes take the core away; callers lock
// the goroutine to its thread.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
