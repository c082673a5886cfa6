//go:build !race

package odds

const raceEnabled = false
