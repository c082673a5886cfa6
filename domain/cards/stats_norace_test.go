//go:build !race

package cards_test

// statShuffles is how many shuffles each statistical test deals. The race
// detector slows the shuffle several times, so race builds deal fewer (see
// stats_race_test.go); both sizes detect every negative control.
const statShuffles = 200_000

// statDraws is how many IntN draws the sampler tests make.
const statDraws = 2_000_000
