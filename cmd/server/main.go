// Command server runs one Pokertote replica: the GraphQL API (HTTP,
// WebSocket, SSE), the playground in development, the table dealers and
// the Casino Hold'em table.
//
// With no configuration it runs on an embedded SQLite database under ./data
// and an in-process broker; with DATABASE_URL and REDIS_URL it runs on
// Postgres and Redis, and several replicas can share them. Every setting is
// an environment variable; see README.md.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/pokertote/pokertote/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first SIGTERM drains (DRAIN_WINDOW, then the requests in flight);
	// a second one stops the process at once.
	context.AfterFunc(ctx, stop)
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pokertote:", err)
		os.Exit(1)
	}
}

// run reads the configuration, starts the server and serves until ctx ends.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("no arguments expected (configuration comes from the environment; see README.md), got %q", args)
	}
	cfg, err := app.LoadConfig(getenv)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	log := newLogger(cfg, stderr)
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	u := browseURL(a.Addr())
	fmt.Fprintf(stderr, "Pokertote is serving: open %s/\n", u)
	if cfg.Playground {
		fmt.Fprintf(stderr, "GraphiQL (the GraphQL IDE): %s/graphiql\n", u)
	}
	return a.Run(ctx)
}

// browseURL is the address to open in a browser for the listener at addr:
// a wildcard host (":8080", "[::]:8080", "0.0.0.0:8080") is this machine,
// localhost.
func browseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func newLogger(cfg app.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
