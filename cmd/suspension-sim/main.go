// Command suspension-sim measures SPEC 1.9 on random deals: a bot that
// stakes the table's maximum on every selection whose exact chance p of
// being paid has p × 1.10 > 1 (the floor of rule 13 makes such a bet a
// sure profit on average) in every betting round after the deal, against
// the suspended set each round opens with. It prints, per table size and
// round, how often a round has a suspended selection (what players see),
// the arbitrage selections found, how many of those bets the draw's check
// would accept, and the minus-pool top-ups they would cause.
//
//	go run ./cmd/suspension-sim -deals 10000 -positions 6,10
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/internal/cpuclock"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "suspension-sim:", err)
		os.Exit(2)
	}
}

type options struct {
	deals     int
	pocket    int // deals whose POCKET round is opened too
	positions []int
	seed      uint64
	maxStake  money.Amount
	workers   int
}

func parse(args []string) (options, error) {
	fs := flag.NewFlagSet("suspension-sim", flag.ContinueOnError)
	o := options{}
	fs.IntVar(&o.deals, "deals", 10_000, "random deals per table size")
	fs.IntVar(&o.pocket, "pocket-deals", -1, "of those, how many also open the POCKET round, whose enumeration costs 10-100 times the others' (default: all)")
	sizes := fs.String("positions", "6,10", "table sizes, comma separated")
	fs.Uint64Var(&o.seed, "seed", 23, "seed of the deals")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "deals computed at once")
	stake := fs.Int64("max-stake", int64(1_000_000*money.KZT), "the bot's stake per bet, tiyn")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.maxStake = money.Amount(*stake)
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < cards.MinPositions || n > cards.MaxPositions {
			return o, fmt.Errorf("table size %q: want 2 to 10", s)
		}
		o.positions = append(o.positions, n)
	}
	if o.pocket < 0 || o.pocket > o.deals {
		o.pocket = o.deals
	}
	if o.deals < 1 || o.workers < 1 {
		return o, fmt.Errorf("-deals and -workers must be positive")
	}
	return o, nil
}

// tally is one table size's counts per round (index 0: POCKET, 1: FLOP,
// 2: TURN) and market (in the registry's order).
type tally struct {
	suspendedRound [3]int           // rounds with any suspended selection
	suspendedBy    [3][]int         // rounds with a suspended selection of market m
	arbitrage      [3][]int         // selections with p × 1.10 > 1
	accepted       [3][]int         // of those, bets the draw's check accepts
	topUp          money.Amount     // minus-pool top-ups the accepted bets cause
	elapsed        [3]time.Duration // thread CPU time computing the rounds' chances
}

// newTally is an empty tally with a count per market.
func newTally() tally {
	var t tally
	for r := range 3 {
		t.suspendedBy[r] = make([]int, len(markets))
		t.arbitrage[r] = make([]int, len(markets))
		t.accepted[r] = make([]int, len(markets))
	}
	return t
}

// markets are the production markets, in order.
var markets = parimutuel.Production().Markets()

// afterDeal are the rounds whose chances the simulation computes.
var afterDeal = []parimutuel.Round{parimutuel.RoundPocket, parimutuel.RoundFlop, parimutuel.RoundTurn}

func marketIndex(m parimutuel.Market) int {
	for i, x := range markets {
		if x == m {
			return i
		}
	}
	return -1
}

func run(args []string, w io.Writer) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "suspension-sim: %d deals per table size, seed %d, SUSPEND_AT %s, bot stake %s per bet, %d workers\n\n",
		o.deals, o.seed, "90.00%", o.maxStake, o.workers)
	for _, n := range o.positions {
		start := time.Now()
		t, err := simulate(o, n)
		if err != nil {
			return err
		}
		report(w, o, n, t, time.Since(start))
	}
	return nil
}

// simulate deals o.deals random deals of n positions.
func simulate(o options, n int) (*tally, error) {
	parts := make([]tally, o.workers)
	for k := range parts {
		parts[k] = newTally()
	}
	errs := make([]error, o.workers)
	var wg sync.WaitGroup
	for k := range o.workers {
		wg.Go(func() {
			// On its own thread, so that the thread's CPU clock times
			// this worker's enumerations alone.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := k; i < o.deals; i += o.workers {
				// Each deal has its own stream: the deals, and so the
				// figures, do not depend on -workers.
				rng := rand.New(rand.NewPCG(o.seed, uint64(n)<<32|uint64(i)))
				if err := oneDeal(o, n, rng, &parts[k], i < o.pocket); err != nil {
					errs[k] = err
					return
				}
			}
		})
	}
	wg.Wait()
	t := newTally()
	for k, p := range parts {
		if errs[k] != nil {
			return nil, errs[k]
		}
		for r := range 3 {
			t.suspendedRound[r] += p.suspendedRound[r]
			t.elapsed[r] += p.elapsed[r]
			for m := range markets {
				t.suspendedBy[r][m] += p.suspendedBy[r][m]
				t.arbitrage[r][m] += p.arbitrage[r][m]
				t.accepted[r][m] += p.accepted[r][m]
			}
		}
		t.topUp += p.topUp
	}
	return &t, nil
}

// oneDeal opens the three rounds after the deal of one random deal, as the
// dealer does, and lets the bot try every arbitrage selection.
func oneDeal(o options, n int, rng *rand.Rand, t *tally, pocket bool) error {
	deck := rng.Perm(cards.NumCards)
	pockets := make([][2]cards.Card, n)
	for i := range pockets {
		pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
	}
	board := make([]cards.Card, 4)
	for i := range board {
		board[i] = cards.Card(deck[2*n+i])
	}
	d := tote.Draw{Positions: n, SuspendAt: tote.SuspendAtMax}
	for ri, r := range afterDeal {
		if r == parimutuel.RoundPocket && !pocket {
			continue
		}
		b := board[:[]int{0, 3, 4}[ri]]
		start := cpuclock.Thread()
		rc, err := tote.ChancesAtOpening(pockets, b, r, d.SuspendAt)
		if err != nil {
			return err
		}
		t.elapsed[ri] += cpuclock.Thread() - start
		d.Chances = append(d.Chances, rc)
		var any bool
		by := make([]bool, len(markets))
		for _, c := range rc.Suspended(d.SuspendAt) {
			any, by[marketIndex(c.Market)] = true, true
		}
		if any {
			t.suspendedRound[ri]++
		}
		for m := range markets {
			if by[m] {
				t.suspendedBy[ri][m]++
			}
		}
		// The bot's exact chances are the round's: every selection a
		// market publishes (every WIN and COMBINATION selection), and the
		// others are below SUSPEND_AT (every EXPRESS coupon at or above it
		// is listed), which every selection with p × 1.10 > 1 is above
		// (p > 0.909); each is exact enumeration (tested against brute
		// force).
		var bets []tote.SelectionChance
		for _, c := range rc.Chances {
			if profitable(c) {
				bets = append(bets, c)
			}
		}
		for _, c := range bets {
			mi := marketIndex(c.Market)
			t.arbitrage[ri][mi]++
			sel, err := parimutuel.ParseSelection(c.Market, c.Selection)
			if err != nil {
				return err
			}
			if _, suspended := d.Suspended(r, sel); suspended {
				continue // refused: SELECTION_SUSPENDED, no money moves
			}
			t.accepted[ri][mi]++
			t.topUp += worstTopUp(o.maxStake)
		}
	}
	return nil
}

// profitable is the bot's rule: p × 1.10 > 1, exactly.
func profitable(c tote.SelectionChance) bool { return c.Paid*110 > c.Of*100 }

// worstTopUp is what the organiser adds when the bot's bet is the only
// winning stake of its pool and the pool holds nothing else: the floor of
// 1.10 against a net of the stake less the 3 % commission and the jackpot
// contribution.
func worstTopUp(stake money.Amount) money.Amount {
	net := stake - stake*300/10_000 - stake/10_000
	return stake*110/100 - net
}

func report(w io.Writer, o options, n int, t *tally, took time.Duration) {
	of := func(ri int) int {
		if ri == 0 {
			return o.pocket
		}
		return o.deals
	}
	pct := func(k, ri int) string { return fmt.Sprintf("%5.2f %%", 100*float64(k)/float64(max(1, of(ri)))) }
	fmt.Fprintf(w, "%d positions, %d deals, the POCKET round opened in %d of them (%.1f s wall; chances per round opening: POCKET %.2f ms, FLOP %.3f ms, TURN %.3f ms of thread CPU time on average)\n",
		n, o.deals, o.pocket, took.Seconds(), ms(t.elapsed[0], max(1, o.pocket)), ms(t.elapsed[1], o.deals), ms(t.elapsed[2], o.deals))
	names := make([]string, len(markets))
	for i, m := range markets {
		names[i] = string(m)
	}
	fmt.Fprintf(w, "| round | a suspended selection | %s | arbitrage selections (%s) | accepted | top-ups |\n", strings.Join(names, " | "), strings.Join(names, "/"))
	fmt.Fprintln(w, "|---|---|"+strings.Repeat("---|", len(markets))+"---|---|---|")
	var accepted int
	for ri, r := range afterDeal {
		a := 0
		cells := make([]string, len(markets))
		arb := make([]string, len(markets))
		for mi, m := range markets {
			a += t.accepted[ri][mi]
			cells[mi] = pct(t.suspendedBy[ri][mi], ri)
			if !m.Offers(r) {
				cells[mi] = "not offered"
			}
			arb[mi] = strconv.Itoa(t.arbitrage[ri][mi])
		}
		accepted += a
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | |\n", r, pct(t.suspendedRound[ri], ri), strings.Join(cells, " | "), strings.Join(arb, " / "), a)
	}
	fmt.Fprintf(w, "| all |%s %d | %s |\n", strings.Repeat(" |", len(markets)+2), accepted, t.topUp)
	fmt.Fprintln(w)
}

func ms(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
