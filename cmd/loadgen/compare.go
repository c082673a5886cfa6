package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func init() {
	register("compare", "prints the ratios of a viewers run against the reference and of the table list against {__typename}", runCompare)
}

// runCompare reads the JSON lines the other workloads printed and prints
// the ratios docs/fanout.md sets goals for.
func runCompare(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	server := fs.String("server", "", "viewers result against the server")
	ref := fs.String("ref", "", "viewers result against refcast")
	list := fs.String("list", "", "lobby result of the table list")
	typename := fs.String("typename", "", "lobby result of {__typename}")
	if err := fs.Parse(args); err != nil {
		return err
	}
	read := func(path string) map[string]float64 {
		out := map[string]float64{}
		if path == "" {
			return out
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return out
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		for k, v := range m {
			if f, ok := v.(float64); ok {
				out[k] = f
			}
		}
		return out
	}
	s, r, l, t := read(*server), read(*ref), read(*list), read(*typename)
	ratio := func(a, b float64) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2fx", a/b)
	}
	fmt.Printf("viewers connected: server %.0f of %.0f (dropped %.0f, failed %.0f), reference %.0f (dropped %.0f)\n",
		s["connected"], s["viewers"], s["dropped"], s["failed"], r["connected"], r["dropped"])
	fmt.Printf("p99 delivery:        server %7.1f ms  reference %7.1f ms  ratio %s (goal <= 1.0x)\n", s["p99_ms"], r["p99_ms"], ratio(s["p99_ms"], r["p99_ms"]))
	if s["stage_events"] > 0 {
		// The server stamps at inside the dealer's transaction, before the
		// commit; the reference stamps it as it starts the fan-out. From
		// publication (after the commit) is the like-for-like delay.
		fmt.Printf("p99 from publication: server %7.1f ms  reference %7.1f ms  ratio %s (server: after its commit; reference: at)\n", s["pub_p99_ms"], r["p99_ms"], ratio(s["pub_p99_ms"], r["p99_ms"]))
		fmt.Printf("p50 from publication: server %7.1f ms  reference %7.1f ms  ratio %s\n", s["pub_p50_ms"], r["p50_ms"], ratio(s["pub_p50_ms"], r["p50_ms"]))
		fmt.Printf("server stages, ms after at over %.0f events (p50/p99):", s["stage_events"])
		for _, st := range []string{"published", "received", "folded", "delivered", "first_write", "last_write"} {
			fmt.Printf(" %s %.1f/%.1f", st, s["stage_"+st+"_p50_ms"], s["stage_"+st+"_p99_ms"])
		}
		fmt.Println()
	}
	fmt.Printf("p50 delivery:        server %7.1f ms  reference %7.1f ms  ratio %s\n", s["p50_ms"], r["p50_ms"], ratio(s["p50_ms"], r["p50_ms"]))
	fmt.Printf("fan-out spread p99:  server %7.1f ms  reference %7.1f ms  ratio %s (first receipt of a seq to each receipt)\n", s["spread_p99_ms"], r["spread_p99_ms"], ratio(s["spread_p99_ms"], r["spread_p99_ms"]))
	fmt.Printf("memory/connection:   server %7.1f KB  reference %7.1f KB  ratio %s (goal: server <= 30 KB)\n", s["kb_per_conn"], r["kb_per_conn"], ratio(s["kb_per_conn"], r["kb_per_conn"]))
	fmt.Printf("CPU per message:     server %7.1f µs  reference %7.1f µs  ratio %s\n", s["cpu_us_per_msg"], r["cpu_us_per_msg"], ratio(s["cpu_us_per_msg"], r["cpu_us_per_msg"]))
	fmt.Printf("events/s per viewer: server %.2f, reference %.2f; bytes/message: server %.0f, reference %.0f; events per burst: server %.2f, reference %.2f\n",
		s["events_per_s"], r["events_per_s"], s["avg_bytes"], r["avg_bytes"], s["events_per_burst"], r["events_per_burst"])
	if l["req_per_s"] > 0 {
		fmt.Printf("table list:          %8.0f req/s  {__typename} %8.0f req/s  ratio %s (goal >= 0.4x)\n", l["req_per_s"], t["req_per_s"], ratio(l["req_per_s"], t["req_per_s"]))
	}
	return nil
}
