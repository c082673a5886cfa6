//go:build !linux

package hand_test

import "time"

// threadCPUTime is unavailable here; benchmarks then skip their cpu-ns/op.
func threadCPUTime() time.Duration { return 0 }
