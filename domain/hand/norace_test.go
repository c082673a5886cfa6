//go:build !race

package hand_test

const raceEnabled = false
