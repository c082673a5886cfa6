//go:build race

package hand_test

const raceEnabled = true
