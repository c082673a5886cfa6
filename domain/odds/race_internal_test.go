//go:build race

package odds

const raceEnabled = true
