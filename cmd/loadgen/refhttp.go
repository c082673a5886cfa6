package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

func init() {
	register("refhttp", "the reference for lobby: a bare net/http handler answering a fixed body (loopback)", runRefHTTP)
}

// runRefHTTP serves the reference the lobby's figure is compared with: a
// bare net/http server whose one handler reads the request's body and
// answers a fixed body (the server's own answer, saved by the caller, so
// both sides write the same bytes) as JSON. It serves until interrupted.
func runRefHTTP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("refhttp", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:19082", "listen address (loopback only)")
	bodyFile := fs.String("body", "", "file whose bytes are the answer (empty: {\"data\":{\"__typename\":\"Query\"}})")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q must be a loopback address", *addr)
	}
	body := []byte(`{"data":{"__typename":"Query"}}`)
	if *bodyFile != "" {
		if body, err = os.ReadFile(*bodyFile); err != nil {
			return err
		}
	}
	srv := &http.Server{Addr: *addr, ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
