//go:build race

package cards_test

// statShuffles is how many shuffles each statistical test deals; half as
// many under the race detector, which slows the shuffle several times, so
// that `go test -race` stays within a few seconds. The negative controls
// still fail by a wide margin at this size.
const statShuffles = 100_000

// statDraws is how many IntN draws the sampler tests make.
const statDraws = 1_000_000
