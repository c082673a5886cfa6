// Command loadgen drives a running Pokertote server from outside, over its
// public API, and reports what it measured. Each workload is a subcommand
// registered by its own file:
//
//	loadgen bets    -url http://127.0.0.1:8080/query ...   (placeBet surge)
//	loadgen viewers -url ws://127.0.0.1:8080/query ...     (subscription fan-out)
//	loadgen rolling -urls http://127.0.0.1:18801/query,... (a rolling restart: scripts/rolling-restart.sh)
//
// Every workload is bounded in time and count and targets loopback only.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
)

// workload is one subcommand: it parses its own flags from args.
type workload struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var workloads = map[string]workload{}

// register adds a workload; each workload's file calls it from init.
func register(name, summary string, run func(ctx context.Context, args []string) error) {
	workloads[name] = workload{summary: summary, run: run}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := dispatch(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "usage: loadgen <%s> [flags]", strings.Join(names(), "|"))
		for _, n := range names() {
			fmt.Fprintf(&b, "\n  %-8s %s", n, workloads[n].summary)
		}
		return errors.New(b.String())
	}
	w, ok := workloads[args[0]]
	if !ok {
		return fmt.Errorf("unknown workload %q (have %s)", args[0], strings.Join(names(), ", "))
	}
	return w.run(ctx, args[1:])
}

func names() []string {
	out := make([]string, 0, len(workloads))
	for n := range workloads {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
