// Command holdem-edge computes, exactly, the house edge of Casino Hold'em's
// main game (Ante and Bet) under optimal decisions, with the default Ante
// paytable: every flop class under suit permutations, every pocket, turn,
// river and dealer hand, in whole-ante integer arithmetic. It prints the
// edge as an exact fraction and in percent, and the optimal call rate.
//
//	go run ./cmd/holdem-edge [-workers N] [-flops N] [-csv FILE]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/holdem"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "holdem-edge:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("holdem-edge", flag.ContinueOnError)
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines evaluating flops")
	limit := fs.Int("flops", 0, "evaluate only the first N flop classes (0: all 1755); the result is then partial")
	csvPath := fs.String("csv", "", "also write each flop class's tally to this CSV file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	flops := holdem.CanonicalFlops()
	if *limit > 0 && *limit < len(flops) {
		flops = flops[:*limit]
	}
	ante := holdem.DefaultConfig().Ante
	start := time.Now()
	tallies := make([]holdem.FlopTally, len(flops))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(*workers, 1) {
		wg.Go(func() {
			for i := range jobs {
				tallies[i] = holdem.EvaluateFlop(ante, flops[i].Flop)
			}
		})
	}
	progress := time.NewTicker(30 * time.Second)
	defer progress.Stop()
feed:
	for i := range flops {
		for {
			select {
			case jobs <- i:
				continue feed
			case <-progress.C:
				fmt.Fprintf(os.Stderr, "%d/%d flop classes after %s\n", i, len(flops), time.Since(start).Round(time.Second))
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	elapsed := time.Since(start)

	var total holdem.FlopTally
	var weight int64
	for i, f := range flops {
		total = total.Add(tallies[i], f.Weight)
		weight += f.Weight
	}
	if *csvPath != "" {
		if err := writeCSV(*csvPath, flops, tallies); err != nil {
			return err
		}
	}
	edge := total.HouseEdge()
	always := new(big.Rat).Neg(big.NewRat(total.CallAlways, total.States*holdem.OutcomesPerState))
	fmt.Fprintf(out, "flop classes:        %d (%d flops)\n", len(flops), weight)
	fmt.Fprintf(out, "player states:       %d, each over %d outcomes\n", total.States, holdem.OutcomesPerState)
	fmt.Fprintf(out, "house edge (exact):  %s antes\n", edge.RatString())
	fmt.Fprintf(out, "house edge:          %s%% of the ante\n", percent(edge))
	fmt.Fprintf(out, "optimal call rate:   %s%% (%d of %d states; %d indifferent)\n",
		percent(total.CallRate()), total.Calls, total.States, total.Indifferent)
	wagered := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(2, 1), total.CallRate()))
	fmt.Fprintf(out, "element of risk:     %s%% of the total wagered (ante + bet)\n", percent(new(big.Rat).Quo(edge, wagered)))
	fmt.Fprintf(out, "always-call edge:    %s%% of the ante\n", percent(always))
	fmt.Fprintf(out, "elapsed:             %s on %d workers\n", elapsed.Round(time.Millisecond), *workers)
	return nil
}

func percent(r *big.Rat) string {
	return new(big.Rat).Mul(r, big.NewRat(100, 1)).FloatString(6)
}

func writeCSV(path string, flops []holdem.WeightedFlop, tallies []holdem.FlopTally) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, "flop,weight,states,calls,indifferent,optimal,call_always")
	for i, w := range flops {
		t := tallies[i]
		fmt.Fprintf(f, "%s%s%s,%d,%d,%d,%d,%d,%d\n", w.Flop[0], w.Flop[1], w.Flop[2], w.Weight,
			t.States, t.Calls, t.Indifferent, t.Optimal, t.CallAlways)
	}
	return f.Close()
}
