//go:build !race

package holdem_test

// raceDetector reports whether the tests run under -race, which slows the
// edge computation about tenfold; the sampled edge test then takes fewer flops.
const raceDetector = false
